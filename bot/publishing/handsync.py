"""The publisher's hands channel: each player's tiles in their private chat, in their own
language; a farewell to a player whose seat a computer took; the group told once when a
player's tiles cannot be sent."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from telegram import InlineKeyboardMarkup
from telegram.error import Forbidden, RetryAfter, TelegramError

from engine import PlayerView, Tile, player_view

from .. import wording
from ..gamemessages import HandMessage
from ..i18n import Translator, private_language, translator
from ..models import Game, Status
from ..presentation import captions, keyboards, matchendtexts
from ..presentation.painter import Urgency
from ..presentation.pictures import PictureMaker
from ..service import GameService
from ..service.locks import Locks
from .backoffers import BackOffers
from .cheers import cheer
from .handchoices import CHOOSING, HandChoices
from .invitations import Invitations
from .messenger import Draft, Messenger, digest, key_of
from .places import Places, linkable, table_url
from .reminders import sync_reminders

log = logging.getLogger(__name__)

__all__ = ["CHOOSING", "HandSync"]


class HandSync:
    """Brings one game's private hand messages up to date, each player's on its own: one
    player's flood wait or blocked chat does not hold back the others' tiles."""

    def __init__(self, messenger: Messenger, service: GameService, pictures: PictureMaker,
                 locks: Locks, request: Callable[[int], None],
                 table_drawn: Callable[[int], Awaitable[None]] | None = None) -> None:
        self.messenger = messenger
        self.service = service
        self.pictures = pictures
        self.locks = locks
        self._request = request  # the publisher's: sync a game soon
        self._table_drawn = table_drawn  # the group's: wait while its table is drawn early
        self.places = Places(service.storage)  # groups' and topics' names, for the way back
        #: The table message the hands of each game in a supergroup last linked to (None:
        #: none yet), so that a table posted anew brings their links up to date.
        self.linked: dict[int, int | None] = {}
        #: The farewells and the ways back offered to players a computer replaced.
        self.offers = BackOffers(messenger, service, locks, self.places, request,
                                 lambda t, game: self._table_link(t, game))
        #: The hand messages' questions (which end, face down?) and back to the tiles.
        self.choices = HandChoices(messenger, service, pictures, locks, request,
                                   lambda t, game: self._table_link(t, game))
        #: A rematch's invitations and its players' old hands, closed once moot.
        self.invitations = Invitations(messenger, service, locks,
                                       lambda t, game: self._table_link(t, game))

    async def sync(self, game_id: int) -> None:
        game = self.service.game(game_id)
        if game is None:
            return
        await self.places.learn(game)
        await self.offers.farewells(game)
        # Private messages speak each player's own language when the bot has it.
        known = await self.service.storage.user_languages(
            p.user_id for p in game.players if not p.is_computer)
        languages = [None if p.is_computer else private_language(known.get(p.user_id),
                                                                  game.language)
                     for p in game.players]
        if self._table_drawn is not None:
            await self._table_drawn(game_id)
        async with self.locks.game(game_id):
            with self.pictures.hands_of(game_id):  # each drawn from its seat's last picture
                hands = {
                    seat: self._hand_draft(game, seat, languages[seat] if seat < len(languages)
                                           else None)
                    for seat in range(len(game.players))
                }
                if any(hands.values()) and linkable(game):  # (no await since the drafts)
                    self.linked[game_id] = game.messages.table_message
        # Each private chat on its own: one player's trouble (a flood wait, a blocked bot)
        # must not hold back the others' tiles.
        seats = [(seat, drafts) for seat, drafts in hands.items() if drafts is not None]
        results = await asyncio.gather(
            *(self._sync_drawn_hand(game, seat, *drafts, languages[seat])
              for seat, drafts in seats),
            self.offers.close_stale(game),  # (a chat's flood wait holds back no one's tiles)
            self.invitations.close_stale(game),
            return_exceptions=True)
        try:  # (its failure is one more error: what the hands changed is saved first)
            results.append(await sync_reminders(
                self.messenger, game, languages, self.service.clock(),
                lambda t: self._table_link(t, game)))
        except Exception as error:
            results.append(error)
        changed = any(result is True for result in results)
        errors = [r for r in results if isinstance(r, BaseException)]
        failed = next((e for e in errors if isinstance(e, RetryAfter)),
                      next(iter(errors), None))
        if isinstance(failed, asyncio.CancelledError):
            raise failed
        if changed:
            async with self.locks.game(game_id):
                await self.service.save_messages(game)
        if failed is not None:
            raise failed

    def links_elsewhere(self, game_id: int, table: int) -> bool:
        """Whether the game's hands were last sent with a link to another table message."""
        return game_id in self.linked and self.linked[game_id] != table

    def _hand_draft(self, game: Game, seat: int, language: str | None
                    ) -> tuple[Draft, Draft | None] | None:
        """The seat's hand message as it should be now, and when the message it has shows a
        hand that has ended since, that message as it ended (see :meth:`_ended_draft`)."""
        if game.players[seat].is_computer:
            return None  # a computer player reads its view from the engine, not from a chat
        match = game.match
        if match is None or not match.hands or game.status in (Status.LOBBY, Status.CANCELLED):
            return None
        if seat in game.messages.announced_unreachable:
            return None  # unreachable seats wait for /start or "My tiles"
        view = player_view(match, seat)
        hand_number = match.hand.number
        t = translator(language or game.language)
        closing = "" if game.status.open else matchendtexts.game_end_line(t, game)
        caption = captions.hand_caption(t, game, view, table_link=self._table_link(t, game),
                                        closing=closing)
        if game.status is Status.PLAYING and view.my_turn:
            # and who sits where: a seat handed to a computer changes no move number, yet
            # the turn's text names the players (edited in place, see :meth:`_sync_hand`);
            # and the table it links to: a turn's hand is often out before its table (it
            # linked the lobby until the move), and /table posts the table anew (it linked
            # the message deleted); and its topic's name, learnt late from a message quoting
            # the topic's creation. Only where there is a link: no other key changes. And
            # the language, where it is not the game's own: a person who chose another in
            # private /language reads their turn in it at once (not keyed otherwise, so that
            # the keys stored before are still current).
            url, topic = table_url(game), self.places.topic(game)
            key = f"{hand_number}:A:{game.move_no}:{digest(game.names)}" + (
                f":{digest(url, topic) if topic else digest(url)}" if url else "") + (
                f":{t.language}" if t.language != game.language else "")
        else:  # a waiting message changes only when what it says changes
            key = f"{hand_number}:W:{digest(caption, len(view.hand))}"
        current = game.messages.hands.get(seat)
        if current is not None and _shows(current.key, key):
            return None
        # Matador: a player may hold no tiles while the hand goes on (no buttons to show)
        markup = keyboards.hand(t, game, view, game.move_no) \
            if game.status.open and view.hand else \
            keyboards.play_again(t, game) if game.status is Status.FINISHED else None
        return (Draft(key, caption, markup, drawing=self.pictures.hand_drawing(view, t.language)),
                self._ended_draft(game, seat, t, current, hand_number))

    def _ended_draft(self, game: Game, seat: int, t: Translator, current: HandMessage | None,
                     hand_number: int) -> Draft | None:
        """The seat's message of an earlier hand, now over, as that hand ended: how, who won
        it and what, the score after it (what the group's result tells), its tiles left, and
        no buttons. It stays in the chat above the next hand's message, as the group's
        finished tables do; None when the message shows the current hand."""
        shown = None if current is None else current.key.split(":")[0]
        match = game.match
        if shown is None or not shown.isdigit() or match is None \
                or not 0 <= int(shown) < min(hand_number, len(match.hands)):
            return None
        view = player_view(match, seat, int(shown))
        if view.table.result is None:
            return None
        caption = captions.hand_caption(t, game, view, table_link=self._table_link(t, game))
        return Draft(f"{shown}:E", caption, None,
                     drawing=self.pictures.hand_drawing(view, t.language))

    async def show_choice(self, game: Game, view: PlayerView, t: Translator,
                          choosing: Tile | None, markup: InlineKeyboardMarkup,
                          move_no: int) -> None:
        """The seat's hand message while its player chooses (see :class:`.HandChoices`)."""
        await self.choices.show(game, view, t, choosing, markup, move_no)

    def _table_link(self, t: Translator, game: Game) -> str:
        """A way back to the table: its group and topic, a link to it where Telegram has one
        (supergroups); kept after the bot was removed from the group, as it names which of
        the player's tables stopped (QA); none once the group was deleted (nothing is
        there to go back to: the game's last words end the caption)."""
        if game.messages.group_gone:
            return ""
        return captions.table_place(t, self.places.group(game), self.places.topic(game),
                                    table_url(game))

    async def _sync_drawn_hand(self, game: Game, seat: int, draft: Draft, ended: Draft | None,
                               language: str | None) -> bool:
        """Draw a hand's picture (in the worker) and bring its message up to date, unless
        the game moved past what it shows meanwhile: the change that did asked for the next
        round, which sends what follows (a stale turn would be one more message, notifying
        the player of a turn already gone, deleted at once)."""
        user_id = game.players[seat].user_id
        drawn = await self.messenger.drawn(draft, Urgency.HAND)
        async with self.locks.hand(game.game_id, seat):  # (not during a choice's edit)
            if not _still_current(game, seat, user_id, drawn.key):
                self._request(game.game_id)
                return False
            if ended is not None:
                ended = await self.messenger.drawn(ended, Urgency.HAND)
            changed = await self._sync_hand(game, seat, drawn, ended)
        if changed and seat not in game.messages.announced_unreachable:
            # (a winner is told when their hand message first shows the match's end)
            t = translator(language or game.language)
            await cheer(self.messenger.bot, game, seat, t, self._table_link(t, game))
        return changed

    async def _sync_hand(self, game: Game, seat: int, draft: Draft, ended: Draft | None = None
                         ) -> bool:
        """Bring the seat's hand message up to ``draft``: edited in place within a hand while
        it waits, else sent anew (a turn, a new hand); the message it replaces is deleted, or
        when its hand is over, first edited to show how that hand ended (``ended``) and kept.
        """
        player = game.players[seat]
        messages = game.messages
        current = messages.hands.get(seat)
        if current is not None and _shows(current.key, draft.key):
            return False  # shown meanwhile (a question asked on this very turn: left alone)
        # A turn is sent anew (it notifies), unless the message shows this very turn already
        # and only who sits where changed since (a seat handed to a computer): edited then.
        fresh = current is None or current.key.split(":")[0] != draft.key.split(":")[0] or (
            ":A:" in draft.key and _turn_of(current.key) != _turn_of(draft.key)
        )
        try:
            if (
                current is not None
                and not fresh
                and await self.messenger.edit(player.user_id, current.message_id, draft,
                                             current.key)
            ):
                if messages.hands.get(seat) != current:
                    # Sent anew meanwhile (a /start, "My tiles": the message edited is
                    # deleted, CI) or adopted: that round sends or keeps what is current.
                    self._request(game.game_id)
                    return False
                messages.hands[seat] = HandMessage(current.message_id, draft.stored)
                return True
            # Told before the next hand's message comes (the one that notifies): a restart
            # between the two edits it again, rather than leave it with its old buttons.
            if current is not None and ended is not None and await self.messenger.edit(
                    player.user_id, current.message_id, ended, current.key):
                messages.hands[seat] = HandMessage(current.message_id, ended.stored)
                current = None  # kept as the record of its hand
                if not _still_current(game, seat, player.user_id, draft.key):
                    # The edit may have waited out a flood limit while the turn was played
                    # (a timer): the round its move asked for sends what is current.
                    self._request(game.game_id)
                    return True
            with self.messenger.sending(game.game_id, seat):
                sent_id = await self.messenger.send(player.user_id, draft.text, draft.photo,
                                                draft.markup)
                # Known before the old one goes: from now on only this message's buttons act.
                messages.hands[seat] = HandMessage(sent_id, draft.stored)
        except Forbidden as refused:  # (blocked, or the chat not found: .privatechats)
            await self._unreachable(game, seat, refused)
            return True
        if current is not None:
            await self.messenger.retire(player.user_id, current.message_id, delete=True)
        if seat in messages.announced_unreachable:
            messages.announced_unreachable.remove(seat)
        note = messages.unreachable_notes.get(seat)
        if note is not None:  # their tiles reach them now: the group's notice is untrue
            await self.messenger.delete(game.chat_id, note)  # (forgotten once deleted)
            if messages.unreachable_notes.get(seat) == note:
                del messages.unreachable_notes[seat]
        return True

    async def _unreachable(self, game: Game, seat: int, refused: Forbidden) -> None:
        """Tell the group once that a player's tiles cannot be sent, and how to fix it."""
        player = game.players[seat]
        await self.service.storage.set_private_ok(player.user_id, False)
        await self.service.reach_changed_everywhere(player.user_id, self.locks)
        if seat in game.messages.announced_unreachable:
            return
        log.info("seat %d of game %s unreachable until /start or My tiles: private chat %s "
                 "refused (Telegram: %s)", seat, game.game_id, player.user_id, refused.message)
        t = translator(game.language)
        name = wording.mention(player.user_id, player.name)
        link = keyboards.deep_link(self.messenger.bot_username, f"hand{game.game_id}")
        if game.turn_seconds:  # the turn timer plays for them meanwhile: say so
            text = t(
                "I cannot send {name} their tiles: they have not started a private chat with "
                "me, or they blocked me. {name}, open {link}, press Start, then tap “My tiles” "
                "here. Until then, when their time runs out, I play for them; the game's "
                "creator can also /stop it.", name=name, link=link)
        else:
            text = t(
                "I cannot send {name} their tiles: they have not started a private chat with "
                "me, or they blocked me. {name}, open {link}, press Start, then tap “My tiles” "
                "here. The game waits; its creator can also /stop it.", name=name, link=link)
        # Marked before the notice goes: a /start or "My tiles" meanwhile unmarks it, and the
        # next sync sends the tiles (marked after its answer, the seat was skipped for good).
        game.messages.announced_unreachable.append(seat)
        try:
            note = await self.messenger.send(game.chat_id, text, None, None, game.thread_id)
        except BaseException:  # the group not told after all: the next sync tells it
            with contextlib.suppress(ValueError):
                game.messages.announced_unreachable.remove(seat)
            raise
        older = game.messages.unreachable_notes.get(seat)
        game.messages.unreachable_notes[seat] = note
        if older is not None:  # told again (blocked once more): one notice stands, the newest
            with contextlib.suppress(TelegramError):
                await self.messenger.delete(game.chat_id, older)

    async def adopt_hand(self, game: Game, seat: int, message_id: int) -> None:
        """A turn's message the game does not know (sent just before a restart, its id never
        saved), tapped at the move it shows: it becomes the seat's hand message, as if its
        send's answer had been kept, so the tap plays. The message it replaces is deleted,
        as a turn's send deletes it, unless it is an ended hand's record (kept)."""
        match = game.match
        assert match is not None
        async with self.locks.game(game.game_id):
            current = game.messages.hands.get(seat)
            hand = str(match.hand.number)
            # (this turn, its players' names unknown: the next sync edits them in place)
            game.messages.hands[seat] = HandMessage(message_id, f"{hand}:A:{game.move_no}:?")
            try:
                await self.service.save_messages(game)
            except Exception as exc:  # (kept in memory, for the next save of the game)
                log.warning("saving the hand message adopted in game %s failed: %r",
                            game.game_id, exc)
        if current is not None and current.message_id != message_id \
                and current.key.split(":")[0] == hand:
            await self.messenger.retire(game.players[seat].user_id, current.message_id,
                                       delete=True)
        self._request(game.game_id)

    async def resend_hand(self, game: Game, seat: int) -> None:
        """Forget the seat's hand message so the next sync sends a fresh one."""
        async with self.locks.game(game.game_id):
            current = game.messages.hands.pop(seat, None)
            if seat in game.messages.announced_unreachable:
                game.messages.announced_unreachable.remove(seat)
        if current is not None:
            await self.messenger.retire(game.players[seat].user_id, current.message_id,
                                       delete=True)
        self._request(game.game_id)


def _shows(stored: str, key: str) -> bool:
    """Whether a hand message whose stored key is ``stored`` shows what ``key`` says. A turn's
    key stored before it named the players (``hand:A:move``, a bot of an earlier version)
    is taken to show them: its message is left as it is (no edit of every turn at once)."""
    shown = key_of(stored) or ""
    if shown.endswith(CHOOSING):
        # A player picking how a tile goes (an end, along or across): a changed link to the
        # table does not take the choice away from under their finger (QA: /table did); the
        # choice made, or Back, brings the link up to date. Who sits where still does.
        shown = shown.removesuffix(CHOOSING)
        return shown.split(":")[:4] == key.split(":")[:4]
    return shown == key or (shown.count(":") == 2 and _turn_of(shown) == _turn_of(key)
                            and ":A:" in key)


def _turn_of(key: str) -> list[str]:
    """What turn a hand message's stored key shows (``hand``, ``A``, ``move``), whoever it
    names; a waiting message's key has no move (only its ``hand``, ``W``, ``digest``)."""
    return (key_of(key) or "").split(":")[:3]


def _still_current(game: Game, seat: int, user_id: int, key: str) -> bool:
    """Whether a hand draft's key (``hand:A:move:names`` on a turn, ``hand:W:digest``
    otherwise), made for ``user_id`` in ``seat``, still fits the game: the same person in the
    seat (not a computer that took it), the same hand, and on a turn, the same move of a game
    still played (a /stop or a topic closed changes no move number)."""
    hand, kind, rest = key.split(":", 2)
    match = game.match
    if game.players[seat].user_id != user_id or match is None or not match.hands \
            or str(match.hand.number) != hand:
        return False
    return kind != "A" or (rest.split(":")[0] == str(game.move_no)
                           and game.status is Status.PLAYING)
