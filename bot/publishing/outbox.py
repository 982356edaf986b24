"""A game's announcements, sent to its group in order from the outbox the service commits
them to, each once: what a lobby's calls and an away player's offers are posted as is kept
with the game's messages (for the group sync to close them later)."""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, NetworkError

from ..models import Game, Status
from ..presentation.callbacks import decode
from ..presentation.gamebuttons import ReplaceAway
from ..service import GameService
from ..service.locks import Locks
from .delivery import outcome_unknown
from .messenger import Messenger, PhotosRefusedError
from .ratelimit import WithdrawnError, only_if

log = logging.getLogger(__name__)
#: The lists of a game's messages an announcement posted may be kept in (:meth:`Outbox._keep`).
CALLS, OFFERS = "calls", "offers"


def _offered_seat(buttons: list[list[list[str]]] | None) -> int | None:
    """The seat an announcement's buttons offer a computer for (its player away), or None:
    no such offer."""
    return next((tap.seat for row in buttons or () for _, data in row
                 if isinstance(tap := decode(data), ReplaceAway)), None)


class Outbox:
    """Sends one game's pending announcements (the group sync drains it first)."""

    def __init__(self, messenger: Messenger, service: GameService, locks: Locks) -> None:
        self.messenger = messenger
        self.service = service
        self.locks = locks
        #: Announcements sent whose mark as sent failed (the database away): the retried
        #: sync marks them, and does not send them again.
        self.sent_not_done: set[int] = set()
        #: Announcements this process marked in flight (their sends may be tried again here,
        #: where a failure's outcome is known): one marked by an earlier life is never sent.
        self.marked: set[int] = set()
        #: Games whose last drain held back an away player's offer, the last of their
        #: announcements (``hold_offer``), for the group's sync to post once its table
        #: shows the timed-out move that made it (player QA: "seems to be away" came just
        #: before the table's edit that showed the move).
        self.held: set[int] = set()

    async def drain(self, game_id: int, hold_offer: bool = False) -> bool:
        """Send the game's announcements in order. The id of a lobby's call or an away
        player's offer is saved as soon as it is posted (for the call's deletion once the
        lobby is closed, the offer's buttons' removal once the game is over): a sync failing
        later must not leave it in memory alone, where a restart would lose it. Each is
        marked sent once Telegram took it, whether that save fails or not (then the game's
        messages are left to the sync's own save: True). ``hold_offer``: an away player's
        offer that is the last announcement waits (:attr:`held`): nothing it must come
        before follows it (a hand's result that follows it is told before the next hand's
        table, and it before that)."""
        unsaved = False
        game = self.service.game(game_id)
        if game is not None and game.messages.topic_gone and game.status.open:
            # Its topic went and the stop's commit, which drops the topic's outbox, is in
            # flight (the status changes only once it is committed): rows read now may be
            # that outbox's, and the thread already reads as General's. The commit syncs.
            return unsaved
        thread_id = game.thread_id if game is not None else None
        items = await self.service.storage.pending_outbox(game_id)
        if hold_offer and game is not None and game.status.open and items \
                and _offered_seat(items[-1].buttons) is not None:
            items = items[:-1]
            self.held.add(game_id)
        if game is not None and game.thread_id != thread_id:
            # Its topic went while the outbox was read (a topic gone changes the game in
            # memory before its commit drops that outbox): these rows may be the dropped
            # ones, which were the topic's and not General's. Its commit syncs it again.
            return unsaved
        # What a lobby queues calls its players to the start (the table is ready, or open
        # the private chat first). Read while the game is still a lobby, these rows are its
        # calls: Start, and a topic gone, change the game in memory before their commit, so
        # their own announcements never read as the lobby's, and a cancel queues none. Held
        # back by the group's budget until the lobby has closed, a call is dropped unsent.
        lobby = game if game is not None and game.status is Status.LOBBY \
            and not game.messages.topic_gone else None
        for item in items:
            if item.id in self.sent_not_done:  # (sent, its mark failed: marked now, not sent)
                await self._done(item.id)
                continue
            if item.sending and item.id not in self.marked:
                # Its send began in an earlier life of the bot, killed before the mark as
                # sent: perhaps shown (a match's end with its Play again), never sent twice.
                log.warning("announcement %s of game %s was in flight at a stop: not sent"
                            " again", item.id, game_id)
                await self._done(item.id)
                continue
            if item.id not in self.marked:  # (durable before the send goes)
                await self.service.storage.outbox_sending(item.id, True)
                self.marked.add(item.id)
            markup = None
            if item.buttons:
                markup = InlineKeyboardMarkup(
                    [[InlineKeyboardButton(label, callback_data=data) for label, data in row]
                     for row in item.buttons]
                )
            kept: tuple[Game, str, int, int] | None = None
            seat: int | None = None
            try:
                with only_if(lambda: lobby is None or lobby.status is Status.LOBBY):
                    sent_id = await self._announce(item.chat_id, item.text, item.photo,
                                                   markup, thread_id)
                if lobby is not None and item.chat_id == lobby.chat_id:
                    kept = (lobby, CALLS, item.chat_id, sent_id)
                elif game is not None and item.chat_id == game.chat_id \
                        and (seat := _offered_seat(item.buttons)) is not None:
                    kept = (game, OFFERS, item.chat_id, sent_id)
            except WithdrawnError:
                # (every quick start does this to its "press Start" call: nothing to act on)
                log.debug("announcement %s of game %s dropped: the lobby has closed",
                          item.id, game_id)
            except BadRequest:
                # Telegram refuses this one for good: a single bad announcement must not
                # block every later sync of the game.
                log.exception("dropping announcement %s of game %s", item.id, game_id)
            except NetworkError as exc:
                if not outcome_unknown(exc):
                    await self._unmark(item.id)
                    raise  # surely not shown: the retried sync sends it
                # Perhaps shown: the table's caption repeats what matters, so an
                # announcement is better lost than doubled (at most once).
                log.warning("announcement %s of game %s may be lost", item.id, game_id)
            except Exception as exc:
                if not outcome_unknown(exc):  # (a stop before the call left, a chat gone)
                    await self._unmark(item.id)
                raise
            self.sent_not_done.add(item.id)  # sent (or never to be): never again, even
            await self._done(item.id)           # should its mark fail (a database away)
            if kept is not None and not await self._keep(*kept, seat):
                unsaved = True
        return unsaved

    async def _done(self, item_id: int) -> None:
        await self.service.storage.outbox_done(item_id)
        self.sent_not_done.discard(item_id)
        self.marked.discard(item_id)

    async def _unmark(self, item_id: int) -> None:
        """An announcement surely not shown is no longer in flight: a later life sends it
        (this one does, by :attr:`marked`, should this write fail)."""
        try:
            await self.service.storage.outbox_sending(item_id, False)
        except Exception as exc:
            log.warning("unmarking announcement %s failed: %r", item_id, exc)

    async def _announce(self, chat_id: int, text: str, photo: bytes | None,
                        markup: InlineKeyboardMarkup | None, thread_id: int | None) -> int:
        """Post an announcement; its words alone where the group refuses the bot's photos
        (a hand's result is told all the same; the table's caption says the rest)."""
        try:
            return await self.messenger.send(chat_id, text, photo, markup, thread_id)
        except PhotosRefusedError:
            if photo is None:
                raise
            return await self.messenger.send(chat_id, text, None, markup, thread_id)

    async def _keep(self, game: Game, kind: str, chat_id: int, sent_id: int,
                    seat: int | None) -> bool:
        """A call or an offer (``kind``) posted in ``chat_id`` (of ``seat``: the offer's,
        kept so that it goes once that player is back): its id kept with the game's
        messages, saved now; whether the save went (else it stays in memory, for the next
        save of the game). Not where the game has left that chat meanwhile (a group's move
        to a supergroup, saved while this was sent: review): that id names another message
        there, which a later clean-up would delete."""
        async with self.locks.game(game.game_id):
            if game.chat_id != chat_id:
                return True  # (left behind in the old group, as the move leaves the rest)
            ids = game.messages.calls if kind == CALLS else game.messages.offers
            ids.append(sent_id)
            if seat is not None:
                game.messages.offer_seats[sent_id] = seat
            try:
                await self.service.save_messages(game)
            except Exception as exc:
                log.warning("saving the id of game %s's announcement %s failed: %r",
                            game.game_id, sent_id, exc)
                return False
        return True
