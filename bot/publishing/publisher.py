"""Brings Telegram up to date with the games, from their committed state.

A sync is idempotent: it compares what each message shows (a key stored with its id) with
what it should show, and sends only the difference. So after a restart, one sync per open
game repairs whatever was left unsent; and when moves come faster than a group's rate limit
allows edits, the next edit simply shows the latest state: requests for a game that is
already syncing only mark it dirty, and the running sync goes round once more.

This module runs the syncs (when, how often, what a failure means); the two channels each
game has are :mod:`bot.publishing.groupsync` (announcements, lobby, table) and
:mod:`bot.publishing.handsync` (the private hands), and what they share is
:mod:`bot.publishing.messenger`; a lobby's /notify notices (:mod:`bot.publishing.notices`)
follow its group sync, a group closed to the bot is told to its players in private
(:mod:`bot.publishing.mutednotices`), and a table asked to come down waits for its sync in
:mod:`bot.publishing.tablerequests`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Collection
from typing import Protocol

from telegram import Bot
from telegram.error import Forbidden, RetryAfter

from ..errors import StorageError
from ..gamemessages import HandMessage
from ..models import Game, Status
from ..presentation.pictures import PictureMaker
from ..service import GameService
from ..service.locks import Locks
from ..storage import StorageFailedError, StorageUnavailableError
from ..trim import Trimmer, find_malloc_trim
from ..waiting import wait_set
from .fleetshares import for_game
from .gonechats import GoneChats
from .groupsync import GroupSync, RepostRefusedError
from .handsync import HandSync
from .messenger import (
    ChatGoneError,
    MayNotWriteError,
    Messenger,
    PhotosRefusedError,
    TopicGoneError,
)
from .mutednotices import MUTED, NO_PHOTOS, TABLE_KEPT_NOTE, MutedNotices
from .notices import Notices
from .ratelimit import FloodLimiter, StoppingError, no_retries, seconds_of
from .storagewaits import StorageWaits
from .tablerequests import TableRequests
from .tails import Tails
from .telegramwaits import TelegramWaits, unanswered

log = logging.getLogger(__name__)
#: The key of a hand message a restored backup knows: it matches no hand, so it is sent anew.
RESTORED = "restored"
GROUP, HANDS = "group", "hands"
#: A sync's own failures (a bug, a refusal of Telegram's no retry cures) are tried again this
#: many times, then given up (the game's next change, or the restart, syncs it again). The
#: outages are waited out however long they last, and stop no game: Telegram's 5xx and
#: time-outs, the database away (:class:`StorageUnavailableError`), and the database unusable
#: until the operator acts (:class:`StorageFailedError`: the disk full, the file damaged).
MAX_RETRIES = 5
#: Storage errors a sync waits out (see :data:`MAX_RETRIES`).
OUTAGES = (StorageUnavailableError, StorageFailedError)


class Channel(Protocol):
    async def sync(self, game_id: int) -> None:
        """Bring this channel's messages of one game up to date now."""


class Publisher:
    """Runs each game's syncs, one channel at a time per game, retrying what fails."""

    def __init__(
        self, bot: Bot, service: GameService, pictures: PictureMaker, locks: Locks,
        bot_username: str = "", limiter: FloodLimiter | None = None,
        tails: Tails | None = None,
    ) -> None:
        self.service = service
        #: Telegram's outages as the syncs meet them (their own lines: :mod:`.telegramwaits`).
        self.telegram_waits = TelegramWaits()  # syncs Telegram does not answer
        self.storage_waits = StorageWaits()  # syncs waiting for the database to work
        self.locks = locks
        self.limiter = limiter
        self.messenger = Messenger(bot, service, pictures.painter, bot_username)
        self.group = GroupSync(self.messenger, service, pictures, locks, limiter,
                               tails if tails is not None else Tails())
        self.hands = HandSync(self.messenger, service, pictures, locks, self.request,
                              self.group.early.table_drawn)
        self.group.on_table_posted = self._table_posted
        self.notices = Notices(self.messenger, service, locks, limiter, self.request)
        self._channels: dict[str, Channel] = {GROUP: self.group, HANDS: self.hands}
        self._tasks: dict[tuple[int, str], asyncio.Task[None]] = {}
        self._dirty: set[tuple[int, str]] = set()
        self._stopping = asyncio.Event()
        #: The players told that the bot may not write in their group (or not send photos
        #: there), and those notices.
        self.muted = MutedNotices(self.messenger, service, self.hands.places, self._stopping)
        #: The tables asked to come down (/table), and why one cannot.
        self.tables = TableRequests(self.group, self.muted, self.request, self._stopping)
        # The C heap's free memory back after games leave memory.
        self.trimmer = Trimmer(find_malloc_trim())
        self.gone = GoneChats(service, locks, self.messenger)

    # --- scheduling --------------------------------------------------------------------
    # Two channels per game: the group (announcements, lobby, table) and the private hands.
    # A flood wait in the group must not hold back the next player's tiles.
    def request(self, game_id: int, channels: Collection[str] = ()) -> None:
        """Sync ``game_id`` soon (``channels``: those alone); coalesces with a sync already
        running."""
        for channel in channels or self._channels:
            key = (game_id, channel)
            if key in self._tasks:
                self._dirty.add(key)
            else:
                self._tasks[key] = asyncio.create_task(
                    self._holding(key), name=f"sync-{game_id}-{channel}"
                )

    def _table_posted(self, game_id: int, message_id: int) -> None:
        """A new table message: the private hands that link to another table follow it
        (a hand's first message is often out before its table is)."""
        if self.hands.links_elsewhere(game_id, message_id):
            self.request(game_id, (HANDS,))

    def repost_lobby(self, game_id: int) -> None:
        """The game's lobby message is gone (an admin deleted it): post it anew, soon."""
        self.group.lobby_lost(game_id)
        self.request(game_id)

    def send_anew(self, game: Game) -> None:
        """The game was restored from a backup: the messages its chats show may be newer
        than those it knows, and those it knows may be gone. At its next sync its hands are
        sent anew (the player to move gets their turn; each old one is deleted after, as a
        turn's is), its table is posted again at the bottom of the group, and its lobby is
        edited whatever it shows."""
        messages = game.messages
        for seat, hand in list(messages.hands.items()):
            messages.hands[seat] = HandMessage(hand.message_id, RESTORED)
        if game.status is Status.PLAYING:
            self.group.reposts.ask(game.game_id)
        messages.lobby_key = None
        self.request(game.game_id)

    def _busy(self, game_id: int) -> bool:
        return any((game_id, channel) in self._tasks for channel in self._channels)

    async def settled(self, game_ids: Collection[int], grace: float) -> bool:
        """Wait until no sync of ``game_ids`` runs (one under way finishes, and so does any
        round it goes again), at most ``grace`` seconds; whether none runs. Nothing is
        cancelled: a fleet worker letting games go first makes their syncs stop before their
        next call (:meth:`FloodLimiter.refuse <bot.publishing.ratelimit.FloodLimiter.refuse>`).
        """
        wanted = frozenset(game_ids)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while True:
            running = [task for (game_id, _), task in self._tasks.items() if game_id in wanted]
            left = deadline - loop.time()
            if not running or left <= 0:
                return not running
            await asyncio.wait(running, timeout=left)

    async def _holding(self, key: tuple[int, str]) -> None:
        """One channel's syncs with the game held in memory: a finished game is read back
        from the database for them, and leaves memory once neither channel needs it."""
        game_id = key[0]
        try:
            try:
                await self.service.hold(game_id)
            except OUTAGES as away:  # (said once: by the engine, or by the sync that follows)
                log.debug("reading game %s for its sync failed: %s", game_id, away)
            except Exception as failed:  # the sync reads the game itself, and retries
                if self._closing(failed):
                    log.debug("reading game %s for its sync failed: %s", game_id, failed)
                else:
                    log.exception("reading game %s for its sync failed", game_id)
            await self._run(key)
        finally:
            # Whatever ended the syncs (an error nothing caught too), the channel is free
            # again: a key left behind would hold every later request and keep idle() waiting.
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]
            # (a sync stopped while it waited for the database: the outage's end is not
            # known, the next start meets it if it lasts)
            self.storage_waits.forget(key)
            self._let_go(game_id)  # no await since _run's last check: no request is lost

    def _let_go(self, game_id: int) -> None:
        """A finished game leaves memory when neither channel syncs it (each sync saved the
        messages it sent; a sync that gave up after its retries is repaired at restart)."""
        game = self.service.game(game_id)
        if game is None or game.status.open or self._busy(game_id):
            return
        self.service.release(game_id)
        self.notices.forget(game_id)
        self.tables.forget([game_id])  # a /table the game's end made moot
        self.group.lost_lobbies.discard(game_id)
        self.muted.forget(game_id)
        self.group.no_photos.discard(game_id)
        self.group.kept.pop(game_id, None)
        self.group.early.forget(game_id)
        self.hands.linked.pop(game_id, None)
        # The chat's names go once no game there is open, nor synced: games stopped together
        # still draw their hands, whose way back names the group (QA: it lost its names)
        chat = game.chat_id
        if not any(g.chat_id == chat for g in self.service.open_games()) and not any(
                (other := self.service.game(gid)) is not None and other.chat_id == chat
                for gid, _ in self._tasks):
            self.hands.places.forget(chat)
        self.trimmer.after_release()

    async def _run(self, key: tuple[int, str]) -> None:
        game_id, channel = key
        failures = 0
        away = 0  # failed attempts in a row while the database or Telegram was away
        heard_at: int | None = None  # Telegram's answers when its network failures began
        # A flood wait ends this round (the next one draws the latest state); every call is
        # made for the game (a fleet worker that let it go refuses them: fleetshares.for_game).
        with no_retries(), for_game(game_id), self.telegram_waits.watching():
            while True:
                self._dirty.discard(key)
                try:
                    await self._channels[channel].sync(game_id)
                    if self.storage_waits.waited(key):
                        await self._save_again(game_id)
                    failures = away = 0
                    heard_at = None
                    self.storage_waits.worked(key)
                    self.telegram_waits.worked()
                    if channel == GROUP:  # the lobby is up: now its /notify notices
                        # (and the bot writes there again, unless its edits alone go: a
                        # /table refused, the players told once)
                        if game_id not in self.group.reposts.refusals:
                            self.muted.forget(game_id)
                        self.notices.after_group_sync(game_id)
                except RetryAfter as exc:
                    # The limiter holds the chat for retry_after; without one, wait here.
                    if self.limiter is None:
                        await self._pause(seconds_of(exc))
                    if not self._stopping.is_set():
                        self._dirty.add(key)
                except StoppingError:
                    pass  # committed state waits in the database for the restart
                except OUTAGES as outage:
                    # PostgreSQL is away (the engine's own lines say when it goes and comes
                    # back; each storage call already waited for it up to retry_for), or the
                    # disk is full: this sync is tried again until the database works,
                    # however long, not given up after MAX_RETRIES as a failure of its own
                    # would be; the game goes on (operator QA: a full disk's sync was an
                    # ERROR and a traceback, each).
                    away += 1
                    await self._wait_out(key, outage, away)
                except ChatGoneError as gone:
                    # The group was deleted (no update says so): its games end as when the
                    # bot is removed from it.
                    failures = 0
                    away = await self._stop_gone(key, self.gone.chat_gone(game_id, gone),
                                                 "group", away)
                except Forbidden as refused:
                    # The bot was removed from the group (or may not post there): not a blip
                    # to retry; the member update that says so stops the game.
                    log.info("%s sync of game %s refused: %s", channel, game_id, refused)
                except (MayNotWriteError, PhotosRefusedError) as refused:
                    # An admin took the bot's right to send there (or to send photos: the
                    # group had the rest): the game goes on in private, its players are told
                    # once, and the next sync (the next move, or the right given back) sends
                    # what waits (the outbox keeps it, the table's key is unchanged).
                    # (a /table refused, the table above kept: they hear it cannot come
                    # down, and so do those who asked)
                    words = NO_PHOTOS if isinstance(refused, PhotosRefusedError) else \
                        TABLE_KEPT_NOTE if isinstance(refused, RepostRefusedError) else MUTED
                    askers = refused.askers if isinstance(refused, RepostRefusedError) else ()
                    # (once a line: each move's sync is refused the same way until then)
                    (log.debug if self.muted.told.get(game_id) == words else log.info)(
                        "%s sync of game %s refused: %s", channel, game_id, refused)
                    try:
                        await self.muted.tell_players(game_id, words, askers)
                    except Exception:  # (reading the group's title or the players' languages)
                        log.exception("telling game %s's players the group is closed to the "
                                      "bot failed", game_id)
                except TopicGoneError as gone:
                    # Not a blip to retry: the game ends, and its last words go to General
                    # (its stop marks the game dirty again, which sends them).
                    failures = 0
                    away = await self._stop_gone(key, self.gone.topic_gone(
                        game_id, gone.thread_id, gone.deleted), "topic", away)
                except Exception as failed:
                    if self._closing(failed):  # the bot stops: the restart syncs
                        log.debug("%s sync of game %s ends: %s", channel, game_id, failed)
                    elif self.telegram_waits.outage(failed, heard_at):
                        # Telegram's 5xx, a time-out: its trouble, waited out however long
                        # it lasts, as the database's is (:mod:`.telegramwaits`)
                        away += 1
                        heard_at = self.telegram_waits.failed(channel, game_id, away, failed)
                        await self._again(key, away)
                    else:
                        # A sync's own failure (a bug, a refusal no retry cures, Telegram's
                        # trouble with this call alone): tried again, backing off, a few
                        # times; a later change of the game syncs again anyway.
                        failures += 1
                        if unanswered(failed):
                            log.warning("%s sync of game %s failed (%d) while Telegram "
                                        "answers other calls: %s", channel, game_id,
                                        failures, failed)
                        else:
                            log.exception("%s sync of game %s failed (%d): %s: %s", channel,
                                          game_id, failures, type(failed).__name__, failed)
                        if failures <= MAX_RETRIES:
                            await self._again(key, failures)
                if key not in self._dirty:
                    del self._tasks[key]  # no await since the check: no request is lost
                    return

    async def _stop_gone(self, key: tuple[int, str], stopping: Awaitable[None], where: str,
                         away: int) -> int:
        """Stop a game whose group or topic is gone (``stopping``); a database that cannot
        is waited out (not stopped: the next try stops it). The database's failures in a row
        after it."""
        try:
            await stopping
            self.storage_waits.worked(key)
            return 0
        except OUTAGES as outage:
            await self._wait_out(key, outage, away + 1)
            return away + 1
        except Exception:
            log.exception("stopping game %s after its %s went failed", key[0], where)
            return away

    async def _wait_out(self, key: tuple[int, str], outage: StorageError, tries: int) -> None:
        """The database cannot do a sync's work (``tries`` times in a row): try again later,
        backing off up to 30 s a try, for as long as it lasts (said in :class:`StorageWaits`)."""
        self.storage_waits.failed(key, outage)
        await self._again(key, tries)

    async def _again(self, key: tuple[int, str], tries: int) -> None:
        """``key``'s sync failed ``tries`` times in a row: it runs again after a pause that
        doubles a try up to 30 s (unless the bot stops meanwhile: the restart syncs)."""
        if not self._stopping.is_set():
            await self._pause(min(30.0, 2.0 ** min(tries, 5)))
            if not self._stopping.is_set():
                self._dirty.add(key)

    async def _save_again(self, game_id: int) -> None:
        """A sync got through after the database failed it: the messages it sent before
        (their ids, kept in memory) are saved now, though this round changed nothing (a
        restart edits them, rather than posting them again)."""
        game = self.service.game(game_id)
        if game is not None:
            async with self.locks.game(game_id):
                await self.service.save_messages(game)

    def _closing(self, error: Exception) -> bool:
        """Whether ``error`` is the storage closing under a stopping bot (a sync still
        running then ends quietly: what is committed waits for the restart)."""
        return self._stopping.is_set() and isinstance(error, StorageError)

    async def _pause(self, seconds: float) -> None:
        """Sleep before a retry; cut short when the bot is stopping."""
        await wait_set(self._stopping, seconds)

    def stop_retrying(self) -> None:
        """The bot is stopping: a sync that fails is not tried again (the restart syncs), and
        a table waiting to come down stays where it is."""
        self._stopping.set()
        self.tables.stop()

    async def abandon(self) -> None:
        """The start failed: every sync and notice still running is cancelled now, before
        the storage closes under it (operator QA: each was an ERROR and a traceback before
        the start's one line). What is committed waits in the database for the next start."""
        self.stop_retrying()
        while running := [*self._tasks.values(), *self.notices.tasks, *self.muted.tasks]:
            for task in running:
                task.cancel()
            await asyncio.gather(*running, return_exceptions=True)
            # (a sync cancelled before it began never ran the finally that frees its key)
            self._tasks = {key: task for key, task in self._tasks.items() if not task.done()}

    def close(self) -> None:
        """The bot has stopped: the picture thread ends once it is idle."""
        self.messenger.close()

    async def idle(self) -> None:
        """Wait until no sync is running, nor any notice (/notify's, the group closed to the bot)
        (tests and shutdown)."""
        while self._tasks or self.notices.tasks or self.muted.tasks:
            await asyncio.gather(*self._tasks.values(), *self.notices.tasks, *self.muted.tasks,
                                 return_exceptions=True)
