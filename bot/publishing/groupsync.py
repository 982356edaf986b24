"""The publisher's group channel: a game's announcements (the outbox, in order:
:mod:`bot.publishing.outbox`), its lobby and its table picture (begun early, at times:
:mod:`bot.publishing.earlytables`), in the group or the game's forum topic."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace

from engine import table_view

from ..i18n import N_, translator
from ..models import Game, Status
from ..presentation import captions, keyboards, lobbytexts
from ..presentation.pictures import PictureMaker
from ..service import GameService
from ..service.locks import Locks
from .earlytables import EarlyTables, shows
from .lefttopics import edit_left_lobby, edit_left_table, left_in_topic
from .messenger import (
    LOBBY,
    TABLE,
    Draft,
    MayNotWriteError,
    Messenger,
    PhotosRefusedError,
    Place,
    digest,
    key_of,
)
from .outbox import Outbox
from .questions import (
    close_offers,
    close_questions,
    delete_calls,
    delete_photo_notices,
    delete_table_notices,
    retire_offers,
    tell_no_photos,
)
from .ratelimit import FloodLimiter, WithdrawnError, only_if
from .reposts import Reposts
from .tails import Tails

log = logging.getLogger(__name__)
#: What a group that refuses the bot's photos is told, once, in place of its table.
NO_PHOTOS_HERE = N_("I may not send photos in this group, so I cannot show the game's table "
                    "here. An admin can allow media for members, or make me an admin; "
                    "meanwhile the game goes on in private.")
#: The answer to /table or "⬇ Table" while the group refuses the table's picture.
TABLE_REFUSED = N_("The group does not let me send photos, so its table cannot be posted "
                   "there. An admin can allow media for members, or make me an admin.")
#: The answer to /table or "⬇ Table" while the group refuses the bot's posts but its table
#: there is still edited.
TABLE_KEPT = N_("I may not send messages in the group now, so its table cannot come down to "
                "the bottom; I keep the one above up to date. An admin can let me write "
                "again.")


class RepostRefusedError(MayNotWriteError):
    """The group refused the table's post below (/table), its edits not: the table above
    stays, kept up to date; the players are told once, and ``askers``, who asked for it."""

    def __init__(self, chat_id: int, askers: set[int]) -> None:
        super().__init__(chat_id, "the table's post below refused, the table above kept")
        self.askers = askers


class GroupSync:
    """Brings one game's group messages up to date: what each should show is drafted under
    the game's lock, drawn and sent outside it."""

    def __init__(self, messenger: Messenger, service: GameService, pictures: PictureMaker,
                 locks: Locks, limiter: FloodLimiter | None, tails: Tails) -> None:
        self.messenger = messenger
        self.service = service
        self.pictures = pictures
        self.locks = locks
        self.limiter = limiter
        #: Told (game, move number) each time the table is shown at a move (the metrics).
        self.on_table_shown: Callable[[int, int], None] | None = None
        #: Told (game, message id) each time the table is posted as a new message.
        self.on_table_posted: Callable[[int, int], None] | None = None
        #: Games whose table's post below the group refused at this sync, the table above
        #: kept: who asked for it, to hear why (see :class:`RepostRefusedError`).
        self.kept: dict[int, set[int]] = {}
        #: The newest message the bot knows of in each place.
        self.tails = tails
        #: Tables asked to come down to the bottom of their group (/table, "⬇ Table").
        self.reposts = Reposts(messenger, tails)
        #: Games whose lobby message is known to be gone (an admin deleted it): their next
        #: sync posts it anew.
        self.lost_lobbies: set[int] = set()
        #: Tables drawn ahead of their sync, from a move accepted and being committed.
        self.early = EarlyTables(pictures)
        #: Games whose group refused the table's picture at their last try (and was told).
        self.no_photos: set[int] = set()
        #: The game's announcements, sent before its lobby and table.
        self.outbox = Outbox(messenger, service, locks)

    def photos_refused(self, game_id: int) -> bool:
        """Whether the game's group refused its table's picture at the last try: the table
        is not there (or stands still), whatever a /table asks."""
        return game_id in self.no_photos

    async def sync(self, game_id: int) -> None:
        """Bring the game's group messages up to date. A group that refuses the table's
        picture but not texts gets the rest (announcements, calls deleted, questions closed)
        and is told why the table is missing; :class:`PhotosRefusedError` is raised at the
        end, for the players to be told too."""
        changed = await self.outbox.drain(game_id, hold_offer=True)  # (posted after the table)
        refused: PhotosRefusedError | None = None
        self.kept.pop(game_id, None)
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
                    thread_id = game.thread_id  # where the drafts belong
                    break
            # Moves were committed meanwhile: their announcements go first (a hand that
            # ended is told before the next hand's table is posted).
            changed |= await self.outbox.drain(game_id, hold_offer=True)
        if lobby is not None:
            changed |= await self._sync_lobby(game, lobby, thread_id)
        if table is not None:
            draft, hand_number, early, moves = table
            drawn = await self.messenger.drawn(draft) if early is None \
                else replace(draft, photo=await early)
            try:
                changed |= await self._sync_table(game, drawn, hand_number, moves, thread_id)
            except PhotosRefusedError as exc:
                refused = exc  # the table waits (its key unchanged): the next sync tries again
                changed = True  # (a finished hand's table may be done with meanwhile)
                await self._retire_stale_table(game, thread_id)
                await self._tell_no_photos(game, thread_id)
            else:
                self.no_photos.discard(game_id)
                if game.messages.table_message is not None:  # a table there: told otherwise
                    changed |= await delete_photo_notices(self.messenger, game)
                if self.on_table_shown is not None:
                    self.on_table_shown(game_id, drained)
        if game_id in self.outbox.held:  # an away player's offer, below the table that
            self.outbox.held.discard(game_id)  # shows the move that made it (player QA)
            changed |= await self.outbox.drain(game_id)
        changed |= await close_questions(self.messenger, game)
        changed |= await close_offers(self.messenger, game)
        changed |= await retire_offers(self.messenger, game)
        changed |= await delete_table_notices(self.messenger, game,
                                              self.reposts.asked(game_id))
        changed |= await delete_calls(self.messenger, game)
        if changed:
            async with self.locks.game(game_id):
                await self.service.save_messages(game)
        if refused is not None:
            raise refused
        kept = self.kept.pop(game_id, None)
        if kept is not None:
            raise RepostRefusedError(game.chat_id, kept)

    async def _retire_stale_table(self, game: Game, thread_id: int | None) -> None:
        """Photos refused mid-game: the table posted before stands still, showing a turn and
        ends long gone, with buttons (QA): it goes (or loses its buttons), and the table is
        posted anew, below, once photos are allowed."""
        stale = game.messages.table_message
        if stale is None or game.thread_id != thread_id:
            return
        await self.messenger.retire(game.chat_id, stale, delete=True)
        if game.messages.table_message == stale:
            game.messages.table_message = game.messages.table_key = None

    async def _tell_no_photos(self, game: Game, thread_id: int | None) -> None:
        """The group refused the table's picture: it is told why, once (:func:`tell_no_photos`)."""
        if game.thread_id == thread_id:
            await tell_no_photos(self.messenger, game, translator(game.language)(NO_PHOTOS_HERE),
                                 self.no_photos)

    # --- lobby -------------------------------------------------------------------------
    def _lobby_draft(self, game: Game) -> Draft | None:
        t = translator(game.language)
        if game.status is Status.LOBBY:
            text = lobbytexts.lobby_text(t, game)
            markup = keyboards.lobby(t, game, self.messenger.bot_username,
                                     bool(game.partnerships))
            # The buttons too: a lobby whose buttons changed with its words the same (a
            # button a new version adds) is edited, after a restart as at any time.
            buttons = [[(b.text, b.callback_data, b.url) for b in row]
                       for row in markup.inline_keyboard]
            return Draft(digest(text, "lobby", buttons), text, markup)
        if game.messages.lobby is None:
            return None
        if game.status is Status.CANCELLED or game.match is None:
            text = t("This table was closed before the game started.")
        else:
            # The heading alone (a sync runs at every move), the rest of the lobby gone.
            text = lobbytexts.lobby_heading(t, game) + "\n" + t("The game has started.")
        return Draft(digest(text, "closed"), text, None)

    async def _sync_lobby(self, game: Game, draft: Draft, thread_id: int | None) -> bool:
        messages = game.messages
        if left_in_topic(game):
            return await edit_left_lobby(self.messenger, game, draft, thread_id)
        lost = game.game_id in self.lost_lobbies and game.status is Status.LOBBY
        if not lost and messages.lobby is not None and messages.lobby_key == draft.key:
            return False
        if lost or messages.lobby is None or not await self.messenger.edit(
                game.chat_id, messages.lobby, draft):
            sent_id = await self._post(game, LOBBY, draft, thread_id)
            if sent_id is None:
                return False
            messages.lobby = sent_id  # from now on this one's buttons act
        if lost:  # only once posted (a failed send retries), and only what this sync saw
            self.lost_lobbies.discard(game.game_id)
        messages.lobby_key = draft.key
        return True

    async def _post(self, game: Game, place: Place, draft: Draft, thread_id: int | None
                    ) -> int | None:
        """Post the game's lobby or table anew in the topic its draft was made for, and give
        its id, to be recorded at once (no await: a tap on it may be waiting for it). None,
        nothing sent, when the game moved while the draft was drawn or held back (its topic
        gone: the draft is the topic's, and the sync its move asked for drafts anew)."""
        def here() -> bool:
            return game.thread_id == thread_id

        if not here():
            return None
        try:
            with self.messenger.sending(game.game_id, place), only_if(here):
                return await self.messenger.send(game.chat_id, draft.text, draft.photo,
                                                 draft.markup, thread_id)
        except WithdrawnError:
            return None

    # --- table -------------------------------------------------------------------------
    def _table_draft(self, game: Game
                     ) -> tuple[Draft, int, asyncio.Future[bytes] | None, int] | None:
        """The table's draft, the number of the hand it shows (the game may go on to the next
        hand while the picture is drawn, and this draft still belongs to this hand), its
        picture when it was begun early (the draft has no drawing then), and how many moves
        of the hand its caption tells up to."""
        match = game.match
        if not self._shows_table(game):
            return None
        assert match is not None
        t = translator(game.language)
        # A seat handed to a computer changes no move number, but the names (player QA);
        # counted only once there is one, so that the keys stored before stand (a restart
        # after an upgrade edits no table that did not change).
        key = digest(game.status.value, game.move_no, game.language, self.pictures.theme,
                     game.timer.warned, *([len(game.seat_changes)] if game.seat_changes else []))
        if (key_of(game.messages.table_key) == key and game.messages.table_hand == match.hand.number
                and not self.reposts.moving(game.game_id)):
            return None
        view = table_view(match)
        closing = "" if game.status.open else (
            t("The game was stopped.") if game.status is Status.STOPPED
            else t("This match is over."))  # (the match's result below says who won)
        caption = captions.table_caption(t, game, view, _seen(game, match.hand.number),
                                         closing)
        markup = keyboards.my_tiles(t, game) if game.status is Status.PLAYING else None
        early = self.early.take(game.game_id, shows(game, view))
        drawing = self.pictures.table_drawing(game, view) if early is None else None
        return (Draft(key, caption, markup, drawing=drawing), match.hand.number, early,
                len(view.history))

    @staticmethod
    def _shows_table(game: Game) -> bool:
        """Whether the game has a table in its group (one left in a closed topic is only
        edited there, :mod:`.lefttopics`; a deleted topic's is forgotten)."""
        match = game.match
        gone = left_in_topic(game) and game.messages.table_message is None
        return not (match is None or not match.hands or gone
                    or game.status in (Status.LOBBY, Status.CANCELLED))

    def draw_early(self, game: Game) -> None:
        """A move of ``game`` was accepted and is being committed (its state in memory, under
        the game's lock): begin drawing its table now (:mod:`bot.publishing.earlytables`), if
        the group's budget would let the table's edit go now (else the sync draws the latest
        state when it may go)."""
        if not self._shows_table(game) or (
                self.limiter is not None and not self.limiter.free_now(game.chat_id)):
            return
        self.early.draw(game)

    async def _sync_table(self, game: Game, draft: Draft, number: int, moves: int,
                          thread_id: int | None) -> bool:
        messages = game.messages
        if left_in_topic(game):
            return await edit_left_table(self.messenger, game, draft, number, thread_id)
        chat = game.chat_id  # (a group that became a supergroup meanwhile left these behind)
        if messages.table_message is not None and messages.table_hand != number:
            await self._finish_table(game, messages.table_message, messages.table_hand)
            messages.table_message = None
        # /table: the table posted again below, then the one above retired; the post
        # refused, the one above stays, edited as before (QA: it was deleted, and the group
        # that took the bot's edits was left without a table)
        moved = messages.table_message if self.reposts.moving(game.game_id) else None
        sent_id: int | None = None
        refused: MayNotWriteError | None = None
        if moved is not None:
            try:
                sent_id = await self._post(game, TABLE, draft, thread_id)
            except MayNotWriteError as exc:
                moved, refused = None, exc
            except PhotosRefusedError:
                # Telegram refuses a muted bot's photo in the words it refuses photos alone
                # with: the group is told why in words, and only where that is refused too
                # is the table above kept as above; else the photos' way (:meth:`sync`:
                # review, the players heard "I may not send messages", the group nothing).
                try:
                    await self._tell_no_photos(game, thread_id)
                except MayNotWriteError as exc:
                    moved, refused = None, exc
                else:
                    raise
            else:
                if sent_id is None:
                    return False
        posted = moved is not None or messages.table_message is None or (
            not _shown(messages.table_key, draft) and not await self.messenger.edit(
                game.chat_id, messages.table_message, draft, messages.table_key))
        if posted and moved is None:
            sent_id = await self._post(game, TABLE, draft, thread_id)
            if sent_id is None:
                return False
        if sent_id is not None:
            messages.table_message = sent_id  # from now on this one's buttons act
            if self.on_table_posted is not None:
                self.on_table_posted(game.game_id, sent_id)
        messages.table_hand = number
        messages.table_moves = moves
        messages.table_key = draft.stored
        if moved is not None:
            self.reposts.moved(game.game_id)
        elif posted:  # at the bottom now anyway (a new hand's table): no /table waits
            self.reposts.posted(game.game_id)
        if moved is not None and game.chat_id == chat:  # one live table a game: the one
            await self.messenger.retire(chat, moved, delete=True)  # above goes, as a hand's
        elif refused is not None and not posted:  # (the table above edited: it is kept)
            self._repost_refused(game, refused)
        return True

    def _repost_refused(self, game: Game, refused: MayNotWriteError) -> None:
        """The group refused the table's post below (an admin took the bot's right to send
        there; its photos refused go the way of any table's, :meth:`sync`): the table above
        stays where it is and is edited (a bot's edits go where its sends are refused), and
        the sync ends saying so (:class:`RepostRefusedError`), for the players and those who
        asked to hear why."""
        log.debug("game %s: its table was not posted again below: %s", game.game_id, refused)
        self.kept[game.game_id] = self.reposts.refused(game.game_id, TABLE_KEPT)

    def lobby_lost(self, game_id: int) -> None:
        """The game's lobby message is gone: its next sync posts it anew (the caller asks the
        publisher for one)."""
        self.lost_lobbies.add(game_id)

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
            caption = captions.table_caption(translator(game.language), game, view,
                                             _seen(game, hand_number))
            drawing = self.pictures.table_drawing(game, view)
        final = await self.messenger.drawn(Draft("final", caption, None, drawing=drawing))
        chat = game.chat_id
        if not await self.messenger.edit(chat, message_id, final) and game.chat_id == chat:
            await self.messenger.retire(chat, message_id, delete=False)


def _shown(stored: str | None, draft: Draft) -> bool:
    """Whether a table message whose stored key is ``stored`` shows the draft already (a
    /table with no move since: the table kept where its post below was refused needs no
    edit)."""
    return stored is not None and stored == draft.stored


def _seen(game: Game, hand_number: int) -> int | None:
    """How many moves of hand ``hand_number`` the group's table last showed (None: unknown,
    or another hand's)."""
    messages = game.messages
    return messages.table_moves if messages.table_hand == hand_number else None

