"""The publisher's group channel: a game's announcements (the outbox, in order), its lobby
and its table picture, in the group or the game's forum topic."""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, NetworkError

from engine import table_view

from ..i18n import translator
from ..models import Game, Status
from ..presentation import captions, keyboards, lobbytexts
from ..presentation.pictures import PictureMaker
from ..service import GameService
from ..service.locks import Locks
from ..wording import fit_caption
from .delivery import outcome_unknown
from .messenger import LOBBY, TABLE, Draft, Messenger, digest, key_of
from .questions import close_questions
from .ratelimit import FloodLimiter

log = logging.getLogger(__name__)


class GroupSync:
    """Brings one game's group messages up to date: what each should show is drafted under
    the game's lock, drawn and sent outside it."""

    def __init__(self, messenger: Messenger, service: GameService, pictures: PictureMaker,
                 locks: Locks, limiter: FloodLimiter | None) -> None:
        self.messenger = messenger
        self.service = service
        self.pictures = pictures
        self.locks = locks
        self.limiter = limiter
        #: Told (game, move number) each time the table is shown at a move (the metrics).
        self.on_table_shown: Callable[[int, int], None] | None = None
        #: Games whose table is to be posted again at the bottom of the group (/table): the
        #: group's sync does it, so that only it ever changes which message is the table.
        self.moving_down: set[int] = set()

    async def sync(self, game_id: int) -> None:
        await self._drain_outbox(game_id)
        game = self.service.game(game_id)
        if game is None:
            return
        while True:
            drained = game.move_no
            if self.limiter is not None:
                # Drawn only once the group's budget lets it go: the latest state, not one
                # drawn earlier and sent late (requests meanwhile only mark the game dirty).
                await self.limiter.ready(game.chat_id)
            async with self.locks.game(game_id):
                if game.move_no == drained:
                    lobby = self._lobby_draft(game)
                    table = self._table_draft(game)
                    break
            # Moves were committed meanwhile: their announcements go first (a hand that
            # ended is told before the next hand's table is posted).
            await self._drain_outbox(game_id)
        changed = False
        if lobby is not None:
            changed |= await self._sync_lobby(game, lobby)
        if table is not None:
            draft, hand_number = table
            changed |= await self._sync_table(game, await self.messenger.drawn(draft), hand_number)
            if self.on_table_shown is not None:
                self.on_table_shown(game_id, drained)
        changed |= await close_questions(self.messenger, game)
        if changed:
            async with self.locks.game(game_id):
                await self.service.save_messages(game)

    async def _drain_outbox(self, game_id: int) -> None:
        game = self.service.game(game_id)
        thread_id = game.thread_id if game is not None else None
        for item in await self.service.storage.pending_outbox(game_id):
            markup = None
            if item.buttons:
                markup = InlineKeyboardMarkup(
                    [[InlineKeyboardButton(label, callback_data=data) for label, data in row]
                     for row in item.buttons]
                )
            try:
                await self.messenger.send(item.chat_id, item.text, item.photo, markup, thread_id)
            except BadRequest:
                # Telegram refuses this one for good: a single bad announcement must not
                # block every later sync of the game.
                log.exception("dropping announcement %s of game %s", item.id, game_id)
            except NetworkError as exc:
                if not outcome_unknown(exc):
                    raise  # surely not shown: the retried sync sends it
                # Perhaps shown: the table's caption repeats what matters, so an
                # announcement is better lost than doubled (at most once).
                log.warning("announcement %s of game %s may be lost", item.id, game_id)
            await self.service.storage.outbox_done(item.id)

    # --- lobby -------------------------------------------------------------------------
    def _lobby_draft(self, game: Game) -> Draft | None:
        t = translator(game.language)
        if game.status is Status.LOBBY:
            text = lobbytexts.lobby_text(t, game)
            return Draft(digest(text, "lobby"), text,
                         keyboards.lobby(t, game, self.messenger.bot_username,
                                         bool(game.partnerships)))
        if game.messages.lobby is None:
            return None
        if game.status is Status.CANCELLED or game.match is None:
            text = t("This table was closed before the game started.")
        else:
            text = (lobbytexts.lobby_text(t, game).split("\n\n")[0] + "\n"
                    + t("The game has started."))
        return Draft(digest(text, "closed"), text, None)

    async def _sync_lobby(self, game: Game, draft: Draft) -> bool:
        messages = game.messages
        if messages.lobby is not None and messages.lobby_key == draft.key:
            return False
        if messages.lobby is None or not await self.messenger.edit(
                game.chat_id, messages.lobby, draft):
            with self.messenger.sending(game.game_id, LOBBY):
                sent = await self.messenger.send(game.chat_id, draft.text, None, draft.markup,
                                                game.thread_id)
                messages.lobby = sent.message_id  # from now on this one's buttons act
        messages.lobby_key = draft.key
        return True

    # --- table -------------------------------------------------------------------------
    def _table_draft(self, game: Game) -> tuple[Draft, int] | None:
        """The table's draft, and the number of the hand it shows: the game may go on to the
        next hand while the picture is drawn, and this draft still belongs to this hand."""
        match = game.match
        if (match is None or not match.hands or game.status in (Status.LOBBY, Status.CANCELLED)
                or game.messages.topic_gone):
            return None  # (a table left in a closed or deleted topic is not posted again)
        t = translator(game.language)
        key = digest(game.status.value, game.move_no, game.language, self.pictures.theme,
                     game.timer.warned)
        if (key_of(game.messages.table_key) == key and game.messages.table_hand == match.hand.number
                and game.game_id not in self.moving_down):
            return None
        view = table_view(match)
        caption = captions.table_caption(t, game, view)
        if not game.status.open:
            caption = fit_caption(caption + "\n" + (
                t("The game was stopped.") if game.status is Status.STOPPED
                else t("The game is over.")))
        markup = keyboards.my_tiles(t, game) if game.status is Status.PLAYING else None
        return (Draft(key, caption, markup, drawing=self.pictures.table_drawing(game, view)),
                match.hand.number)

    async def _sync_table(self, game: Game, draft: Draft, number: int) -> bool:
        messages = game.messages
        if messages.table_message is not None and messages.table_hand != number:
            await self._finish_table(game, messages.table_message, messages.table_hand)
            messages.table_message = None
        # /table: the table posted again below, then the one above retired
        moved = messages.table_message if game.game_id in self.moving_down else None
        if messages.table_message is None or moved is not None or not await self.messenger.edit(
            game.chat_id, messages.table_message, draft, messages.table_key
        ):
            with self.messenger.sending(game.game_id, TABLE):
                sent = await self.messenger.send(game.chat_id, draft.text, draft.photo,
                                                draft.markup, game.thread_id)
                messages.table_message = sent.message_id  # from now on this one's buttons act
        messages.table_hand = number
        messages.table_key = draft.stored
        self.moving_down.discard(game.game_id)
        if moved is not None:  # one live table a game: the one above goes, as a hand's does
            await self.messenger.retire(game.chat_id, moved, delete=True)
        return True

    def bring_down(self, game_id: int) -> None:
        """Post the game's table again at the bottom of the group at its next sync (the
        caller asks the publisher for one)."""
        self.moving_down.add(game_id)

    async def _finish_table(self, game: Game, message_id: int, hand_number: int | None) -> None:
        """The table of a hand that is over shows how it ended (the last tile, knock or dead
        tile; no turn, no buttons) before the next hand gets a table of its own."""
        match = game.match
        assert match is not None
        if hand_number is None or not 0 <= hand_number < len(match.hands):
            await self.messenger.retire(game.chat_id, message_id, delete=False)
            return
        async with self.locks.game(game.game_id):
            view = table_view(match, hand_number)
            caption = captions.table_caption(translator(game.language), game, view)
            drawing = self.pictures.table_drawing(game, view)
        final = await self.messenger.drawn(Draft("final", caption, None, drawing=drawing))
        if not await self.messenger.edit(game.chat_id, message_id, final):
            await self.messenger.retire(game.chat_id, message_id, delete=False)
