"""A fleet worker's part of Telegram's limits: what the limiter does only when several
workers send, apart from what a single bot's limiter does.

In a fleet (:mod:`bot.fleet`) each worker sends for the chats of the shards it owns, so a
group's windows are kept by one worker; a person seated at tables of several workers' shards
hears from each, which keeps its part of their private chat's window (``senders``,
:meth:`FleetShares.share_private`): a worker whose part shrinks for a hand (one sender
more), or which sends a game's first hand there, sends nothing counted there for two
periods, until every worker's part is current; beyond as
many senders as the window has slots, each part is one call in a longer period (together the
limit per period, though one window may get a call from each). The overall window is
shared, each worker taking its part (:meth:`FleetShares.share_overall`). The
other workers' sends are never in this one's windows: slots they may have used are counted as
used (:meth:`FleetShares._used_elsewhere`); so a worker taking a shard counts the whole window
of each private chat in it used as of the take (:meth:`FleetShares.took_chats`: their last
owner answered those people until then). A 429 is told to the other workers
(``on_pause``), which pause that chat too (:meth:`FloodLimiter.hold
<bot.publishing.ratelimit.FloodLimiter.hold>`). A worker giving a shard away refuses its
groups' calls from then on, and once their games' syncs settled, every call made for those
games (:meth:`FleetShares.refuse`, :func:`for_game`: their hands go to private chats): a
sync still running there stops before its next call, and the next owner, which counts the
chats' windows full as it takes them (:meth:`FleetShares.taken_over`), sends what is left.

:class:`FleetShares` is a base of :class:`~bot.publishing.ratelimit.FloodLimiter`, whose
windows it changes and whose waiting calls it wakes: the limiter keeps that state, and
this module only what a fleet does with it.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .floodwindows import Limits, Window, private_chat

#: A fleet worker's larger share of the overall limit (a worker left) applies this many
#: periods after it was seen: the one that left may have sent until then, and clocks jitter.
RAISE_MARGIN = 1.1
#: How long a game let go stays refused (:meth:`FleetShares.refuse`): longer than its giving
#: away takes (the graces for its syncs and for a call in flight), after which it has left
#: this worker's memory and no sync of it runs here; then it is forgotten, so the list stays
#: as short as a worker's recent handovers over a long run.
REFUSED_GAME_SECONDS = 60.0

#: A game whose hands went to a private chat no longer than this ago is known there: its
#: next hand is no first one (:meth:`FleetShares._first_hand`); longer than any pause between
#: two hands of a game being played, and it keeps the memory to the games of the last minutes.
HAND_GAME_SECONDS = 900.0

_FOR_GAME: contextvars.ContextVar[int | None] = contextvars.ContextVar("call_for_game",
                                                                      default=None)
#: The handler's task answering an update, and the update's shard (:func:`for_update`).
_FOR_UPDATE: contextvars.ContextVar[tuple[asyncio.Task[Any] | None, int] | None] = \
    contextvars.ContextVar("call_for_update", default=None)
#: Whether the calls are a game's syncs' (its table and hands), not its /notify notices'.
_SYNCING: contextvars.ContextVar[bool] = contextvars.ContextVar("syncing", default=False)


@contextmanager
def for_game(game_id: int) -> Iterator[None]:
    """Inside, and in the tasks started inside, the calls are a sync's of ``game_id``:
    refused once a fleet worker let the game go (:meth:`FleetShares.refuse`), whatever chat
    they go to, and its private calls are its hands (:meth:`FleetShares.share_private`). A
    game's syncs run inside it (:meth:`Publisher._run
    <bot.publishing.publisher.Publisher._run>`)."""
    token, syncing = _FOR_GAME.set(game_id), _SYNCING.set(True)
    try:
        yield
    finally:
        _SYNCING.reset(syncing)
        _FOR_GAME.reset(token)


@contextmanager
def for_update(shard: int) -> Iterator[None]:
    """Inside, the calls of this task answer an update of ``shard`` (not those of the tasks it
    starts: a game's syncs go on): refused once this worker gave that shard away while they
    ran (:meth:`FleetShares.refuse_handlers`)."""
    token = _FOR_UPDATE.set((asyncio.current_task(), shard))
    try:
        yield
    finally:
        _FOR_UPDATE.reset(token)


def context_for_game(game_id: int) -> contextvars.Context:
    """A context of its own (none of the caller's marks) whose calls are made for
    ``game_id``, refused as inside :func:`for_game`, but no hands (a lobby's /notify
    notices): for a task that must not inherit its starter's."""
    context = contextvars.Context()
    context.run(_FOR_GAME.set, game_id)
    return context


class FleetShares:
    """The fleet's methods of the limiter (see the module's docstring)."""

    # The limiter's own, set in its ``__init__``.
    limits: Limits
    clock: Callable[[], float]
    _overall: Window
    _refused: set[int | str]
    _refused_games: dict[int, tuple[int | str, float]]  # a game let go: its chat then, when
    _refused_shards: set[int]  # shards given away: the calls of their updates' handlers
    _hands_for: dict[int, dict[int, float]]  # a private chat: its games' last hands, when
    _took: list[tuple[Callable[[int], bool], float]]  # shards taken lately: their chats, when
    _chats: dict[int | str, tuple[Window, ...]]
    foreign: Callable[[int | str], bool] | None
    _raising: asyncio.TimerHandle | None
    _raising_to: int

    if TYPE_CHECKING:
        def _windows(self, chat: int | str) -> tuple[Window, ...]: ...

        def _notify(self) -> None: ...

    # --- a private chat several workers send to ------------------------------------------
    def share_private(self, chat: int, senders: int) -> None:
        """This worker's part of a private chat's window when ``senders`` workers may send
        there, none knowing the others' sends: up to as many senders as the window has slots,
        ``limit // senders`` slots each (together at most the limit in any window); beyond
        that, one call each per ``period * senders / limit`` (together the limit per
        period over time; one window may still get one call from each, as they cannot see
        each other's).

        A part that shrinks for a hand (a call of a game's sync, :func:`for_game`) closes the
        window two periods (no counted call goes there meanwhile, whatever it is for):
        another worker seating the person may still count fewer senders (each asks once a
        period) and send with its larger part, and what it sent holds a period more; after
        that every part is current, and together they keep the limit. Not for a reply to a
        private command or a /notify notice: the others count only the workers seating the
        person, so a wait there would keep nothing (and a person who just opened the chat
        would wait 6 s for its greeting). The same wait before a game's first hand here
        while another worker sends there, though this part did not shrink: this worker
        counts itself whether it seats the person or not, so a person whose table here ended
        while another's went on, and who sits at this worker's next table, is two senders
        before and after, while the other, alone meanwhile, may keep the whole window for up
        to a period. A game taken over from another worker has had its first hand
        (:meth:`hands_sent`).
        A part that grows (a table elsewhere ended, or this worker took its shard over) gains
        slots that were the other workers': more slots are counted as used
        (:meth:`_used_elsewhere`), a shorter period the whole window."""
        window = self._windows(chat)[0]
        whole, period = self.limits.private
        senders = max(1, senders)
        count, span = max(1, whole // senders), period * max(1.0, senders / whole)
        now = self.clock()
        game = _FOR_GAME.get() if _SYNCING.get() else None
        if game is not None:
            first = self._first_hand(chat, game, now)
            if count < window.count or span > window.period or (first and senders > 1):
                window.close_until(now + 2 * period)
        if span < window.period:
            window.count, window.period = count, span
            self._used_elsewhere(window, count - window.held(now))
        else:
            self._used_elsewhere(window, count - window.count)
            window.count, window.period = count, span

    def _first_hand(self, chat: int, game: int, now: float) -> bool:
        """Whether ``game``'s hands have not gone to ``chat`` from here for
        :data:`HAND_GAME_SECONDS` (its first hand, as far as the other workers' counts
        go); the games known there are those of the last minutes."""
        games = self._hands_for.setdefault(chat, {})
        for old in [g for g, at in games.items() if now - at > HAND_GAME_SECONDS]:
            del games[old]
        first = game not in games
        games[game] = now
        return first

    def hands_sent(self, chats: Iterable[int | str], game: int) -> None:
        """``game``'s hands went to ``chats`` until now, from another worker whose shard this
        one took over: none of its next hands there is a first one (no other worker's count
        of senders changed with the owner)."""
        now = self.clock()
        for chat in chats:
            if private_chat(chat):
                self._hands_for.setdefault(chat, {})[game] = now

    def forget_hands(self, kept: Iterable[int | str]) -> None:
        """Forget the games sent to the chats not in ``kept`` (their windows were forgotten:
        their next hand is as a first one)."""
        keep = set(kept)
        self._hands_for = {chat: games for chat, games in self._hands_for.items()
                           if chat in keep}

    def _used_elsewhere(self, window: Window, slots: int) -> None:
        """Slots another worker may have used are counted as used: its sends are never in
        this worker's windows, so ``slots`` sends answered just now are counted in
        ``window``, and none of those slots is used here until a period has passed. How many
        is the caller's: a private chat whose person another worker answers, one; a part of
        a private window that grows, the slots it gains (a shorter period: the whole
        window but what this worker sent there within it); a chat taken over from a worker
        that died, all of the window but what this worker sent there itself."""
        if slots > 0:
            window.add(slots, self.clock())

    def took_chats(self, chats: Callable[[int], bool]) -> None:
        """This worker took, just now, the shards of the private chats for which ``chats`` is
        true. Their last owner answered their people's commands until it let the shards go
        (its handlers in flight finish first, up to the handover's grace: a /start's
        greeting, maybe a moment before the person's first hand from here), and what it sent
        is in none of this worker's windows: each such chat counts the whole window used as
        of now, one kept here (:meth:`taken_over`) or one made within a period
        (:meth:`_made_private`)."""
        now = self.clock()
        self._took = [(taken, at) for taken, at in self._took
                      if now - at < self.limits.private[1]]
        self._took.append((chats, now))
        for chat in [c for c in self._chats if private_chat(c) and chats(c)]:
            self.taken_over(chat)

    def _made_private(self, window: Window, chat: int) -> None:
        """A private chat's window, just made, counts what other workers may have sent there
        lately: while the chat's own shard is another's, one send just now (that worker
        answers the person's commands: their /start's greeting just before a game, the usual
        case); within a period of this worker taking that shard (:meth:`took_chats`), the
        whole window as of the take (the shard is this worker's by now, but its last owner
        answered them until then)."""
        now = self.clock()
        whole, period = self.limits.private
        taken = [at for chats, at in self._took if now - at < period and chats(chat)]
        if taken:
            window.add(whole, max(taken))
        if self.foreign is not None and self.foreign(chat):
            self._used_elsewhere(window, 1)

    def taken_over(self, chat: int | str) -> None:
        """Another worker sent to ``chat`` until now: its short window (a private chat's 3 in
        3 s, a group's pace) is counted full (:meth:`_used_elsewhere`)."""
        window = self._windows(chat)[-1]
        whole = self.limits.private[0] if private_chat(chat) else window.count  # (a part grows)
        # (this worker's sends of more than a period ago, kept still, are not the last owner's)
        self._used_elsewhere(window, whole - window.held(self.clock()))

    # --- the overall limit ---------------------------------------------------------------
    def share_overall(self, workers: int, delay: float | None = None) -> None:
        """A fleet of ``workers``: this one may send its part of the overall limit (the
        parts never add up to more than the whole). A smaller part applies at once; a larger
        one (a worker left) only ``delay`` later (a period and :data:`RAISE_MARGIN`), since
        what the one that left sent in its last period still counts. Told the same count
        again, a raise already pending keeps its time; no raise comes before one pending
        (a worker joining waits its whole delay)."""
        total, period = self.limits.overall
        count = max(1, total // max(1, workers))
        if count <= self._overall.count:
            self._cancel_raise()
            self._overall.count = count
        elif self._raising is None or self._raising_to != count:
            loop = asyncio.get_running_loop()
            at = loop.time() + (period * RAISE_MARGIN if delay is None else delay)
            if self._raising is not None:  # a smaller part is due when the larger one was
                pending = self._raising.when()
                at = pending if count < self._raising_to else max(at, pending)
            self._cancel_raise()
            self._raising_to = count
            self._raising = loop.call_at(at, self._set_overall, count)

    def join_overall(self, workers: int, delay: float) -> None:
        """A worker joining a fleet of ``workers`` (itself counted): nothing counted goes
        until ``delay`` has passed (the others have seen it and shrunk their parts, and what
        they sent with their larger parts is a period old), then its part."""
        self._cancel_raise()
        self._overall.count = 0
        self.share_overall(workers, delay)

    def _cancel_raise(self) -> None:
        if self._raising is not None:
            self._raising.cancel()
            self._raising = None

    def _set_overall(self, count: int) -> None:
        self._raising = None
        self._overall.count = count
        self._notify()

    # --- shards given away ---------------------------------------------------------------
    def refuse(self, chats: Iterable[int | str],
               games: Mapping[int, int | str] | None = None) -> None:
        """No call goes to ``chats`` any more, nor any made for ``games`` (each with its
        chat; :func:`for_game`) wherever it goes (those waiting end at once), with
        :class:`~bot.publishing.ratelimit.StoppingError`: a fleet worker gave their shard to
        another, whose syncs send what is committed; a call in flight finishes. A game's
        hands go to private chats, which this worker may still serve for other tables and
        commands: not refused as chats, a hand still being synced here after the lock went
        would reach one after the next owner counted its window (:meth:`taken_over`), one call
        too many there."""
        now = self.clock()
        self._refused.update(chats)
        self._refused_games = {game: (chat, at) for game, (chat, at)
                               in self._refused_games.items()
                               if now - at < REFUSED_GAME_SECONDS}
        self._refused_games.update((game, (chat, now)) for game, chat in (games or {}).items())
        self._notify()

    def admit(self, chats: Iterable[int | str]) -> None:
        """Calls to ``chats``, and those for the games refused with them, go again (their
        shard came back)."""
        back = set(chats)
        self._refused.difference_update(back)
        for game in [g for g, (chat, _) in self._refused_games.items() if chat in back]:
            del self._refused_games[game]

    def admit_games(self, games: Iterable[int]) -> None:
        """Calls made for ``games`` go again: this worker runs them now (their shard taken
        back, a game adopted under a supergroup's new id, one let go that came back while
        its syncs ended), whatever chat they were refused with."""
        for game in games:
            self._refused_games.pop(game, None)

    def refuse_handlers(self, shards: Iterable[int]) -> None:
        """No call of a handler of an update of ``shards`` goes any more (:func:`for_update`;
        those waiting end at once): their shards were given away, and the handlers outlived
        the handover's grace (left behind). The next owner handles their updates again, and
        counts the chats of those shards from its take on (:meth:`took_chats`): a reply of
        a handler left behind here (a /start's greeting held by the limits) would reach a
        person after that, and make four in 3 s with the next owner's."""
        self._refused_shards.update(shards)
        self._notify()

    def admit_handlers(self, shards: Iterable[int]) -> None:
        """The handlers of updates of ``shards`` call again (the shards came back)."""
        self._refused_shards.difference_update(shards)

    def refuses_handlers(self, shard: int) -> bool:
        """Whether the handlers of updates of ``shard`` are refused (:meth:`refuse_handlers`):
        one left behind then does not mark its update done, for the next owner to handle."""
        return shard in self._refused_shards

    def _refuses(self, chat: int | str | None, count: bool = True) -> bool:
        """Whether a call to ``chat``, made in this context, is refused (a handler's left
        behind, only when ``count``: Telegram counts it; a tap's answer still goes)."""
        return chat in self._refused or (
            bool(self._refused_games) and _FOR_GAME.get() in self._refused_games) or (
            count and bool(self._refused_shards) and (update := _FOR_UPDATE.get()) is not None
            and update[0] is asyncio.current_task() and update[1] in self._refused_shards)

    @property
    def refused(self) -> frozenset[int | str]:
        """The chats refused, and those of the games refused."""
        return frozenset(self._refused.union(chat for chat, _ in self._refused_games.values()))
