"""A person's private chat as several workers' parts, on a fake clock: a worker whose part
shrinks for a game's hands waits until every worker's part is current; more senders than
slots share the limit's rate; a part that grows gains nothing another may have used; a reply
or a notice goes at once; a game's first hand here waits, a game taken over has had it; a
chat of a shard taken counts what its last owner may have sent there, and a handler that the
last owner left behind sends nothing more."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from itertools import pairwise

import pytest

from bot.publishing.fleetshares import context_for_game, for_game, for_update
from bot.publishing.floodwindows import Limits
from bot.publishing.ratelimit import FloodLimiter, StoppingError
from fakeapi.ratelimit import max_in_window

PERSON = 7


def sending(limiter: FloodLimiter, name: str, now: list[float], senders: object,
            log: list[tuple[str, float]]) -> asyncio.Task[None]:
    """A worker sending hands to :data:`PERSON` as fast as ``limiter`` lets it, on the fake
    clock ``now[0]``, into ``log``; it counts the senders with ``senders(now)``."""
    assert callable(senders)

    async def count(chat: int) -> int:
        return int(senders(now[0]))

    async def call() -> bool:
        log.append((name, now[0]))
        return True

    async def send_for_ever() -> None:
        while True:
            await limiter.process_request(call, (), {}, "sendPhoto", {"chat_id": PERSON}, None)
    limiter.senders = count
    return synced(send_for_ever(), GAME)


GAME = 5  # the game whose hands the workers send (its table's, in each one's shard)


def synced(calls: Coroutine[object, object, None], game: int) -> asyncio.Task[None]:
    """``calls`` made as a sync of ``game`` makes them (its hands, in a private chat)."""
    async def sync() -> None:
        with for_game(game):
            await calls
    return asyncio.create_task(sync())


class Person:
    """This worker's calls to :data:`PERSON`, counting ``senders`` workers, on a fake clock."""

    def __init__(self, senders: int) -> None:
        self.now = [0.0]
        self.log: list[tuple[str, float]] = []
        self.limiter = FloodLimiter(Limits(), clock=lambda: self.now[0])

        async def count(chat: int) -> int:
            return senders

        self.limiter.senders = count

    async def _call(self, what: str) -> bool:
        self.log.append((what, self.now[0]))
        return True

    async def send(self, what: str, endpoint: str = "sendPhoto") -> None:
        await self.limiter.process_request(self._call, (what,), {}, endpoint,
                                           {"chat_id": PERSON}, None)

    def hand(self, game: int) -> asyncio.Task[None]:
        return synced(self.send(f"hand {game}"), game)

    async def until(self, to: float) -> None:
        await advance(self.now, to, [self.limiter])

    def sent(self, what: str) -> list[float]:
        return [at for who, at in self.log if who == what]


async def advance(now: list[float], to: float, limiters: list[FloodLimiter]) -> None:
    """The fake clock moves to ``to`` in small steps, the waiting calls looking each time."""
    while True:
        for _ in range(5):
            await asyncio.sleep(0)
        if now[0] >= to:
            return
        now[0] = round(now[0] + 0.05, 3)
        for limiter in limiters:
            limiter._notify()


def times(log: list[tuple[str, float]], name: str | None = None) -> list[float]:
    return [at for who, at in log if name in (None, who)]


async def test_a_worker_counting_a_new_sender_waits_until_the_others_counts_are_current(
        ) -> None:
    # Worker A alone sent to the person (its count, 1, asked at 1.5, is kept until 4.5).
    # At 2 they sat at a table of B's shard: B found two senders and sent at once, while A
    # still sent its three: four in 3 s. B now waits two periods (A's count may be a period
    # old, and its sends then hold a period more); A, learning it at 4.5, waits as well.
    now, log = [0.0], []
    a, b = (FloodLimiter(Limits(), clock=lambda: now[0]) for _ in range(2))
    tasks = [sending(a, "a", now, lambda t: 1 if t < 4.5 else 2, log)]
    await advance(now, 2.0, [a])
    tasks.append(sending(b, "b", now, lambda t: 2, log))
    await advance(now, 30.0, [a, b])
    for task in tasks:
        task.cancel()
    assert max_in_window(sorted(times(log)), 3.0) == 3
    assert times(log, "b")[0] >= 2.0 + 6.0
    assert times(log, "a")[:6] == [0.0] * 3 + [3.0] * 3  # (its stale part: its own window)
    assert times(log, "a")[6] >= 4.5 + 6.0


async def test_a_call_that_waited_goes_with_the_part_of_when_it_goes() -> None:
    # A call that came while this worker was alone waited for a slot; meanwhile a second
    # sender was counted: it goes with the smaller part, not with the one it came with.
    now, log = [0.0], []
    limiter = FloodLimiter(Limits(), clock=lambda: now[0])
    task = sending(limiter, "a", now, lambda t: 1 if t < 2.0 else 2, log)
    await advance(now, 12.0, [limiter])
    task.cancel()
    assert times(log)[:3] == [0.0] * 3 and times(log)[3] >= 2.0 + 6.0


async def test_more_senders_than_slots_send_the_limit_per_period_together() -> None:
    # A person at four tables of four workers' shards: each worker's part is one call per
    # 4 s, not one per 3 s (four in any 3 s together, for ever). What that bounds is the
    # rate, three a period together; their sends may still line up in one window (here
    # four in 3 s once every 4 s), since they cannot see each other's: only a schedule
    # shared by the workers would keep every window.
    now, log = [0.0], []
    limiters = [FloodLimiter(Limits(), clock=lambda: now[0]) for _ in range(4)]
    tasks = []
    for index, limiter in enumerate(limiters):  # (they learned of each other in turn)
        tasks.append(sending(limiter, str(index), now, lambda t: 4, log))
        await advance(now, index * 0.5 + 0.5, limiters)
    await advance(now, 40.0, limiters)
    for task in tasks:
        task.cancel()
    sent = sorted(times(log))
    assert sent[0] >= 6.0 and len(sent) > 20
    assert max_in_window(sent, 4.0) == 4  # three per 3 s: over any 4 s, four
    for index in range(4):
        assert all(later - earlier > 4.0 - 1e-6
                   for earlier, later in pairwise(times(log, str(index))))


async def test_a_count_that_falls_back_to_one_gives_the_whole_window_again() -> None:
    # Four senders, then five (a longer period: a smaller part), then three (a shorter one),
    # then the other tables ended: the whole window again. A part that grows gains slots the
    # others may have used just now: a shorter period counts the window full, more slots
    # count those gained as used (this worker's own slot is its own still).
    now, log = [0.0], []
    limiter = FloodLimiter(Limits(), clock=lambda: now[0])
    counts = [(0.0, 4), (15.0, 5), (30.0, 3), (40.0, 1)]
    task = sending(limiter, "a", now, lambda t: [n for at, n in counts if at <= t][-1], log)
    await advance(now, 50.0, [limiter])
    task.cancel()
    sent = times(log)
    assert sent[:3] == pytest.approx([6.0, 10.0, 14.0])  # one per 4 s once two periods passed
    assert [at for at in sent if 15.0 <= at < 30.0] == pytest.approx([21.0, 26.0])  # 2 more, 5 s
    assert [at for at in sent if 30.0 <= at < 40.0] == pytest.approx([33.0, 36.0, 39.0])
    back = [at for at in sent if at >= 40.0]
    assert back[:3] == pytest.approx([42.0, 43.0, 43.0]) and max_in_window(back, 3.0) == 3
    assert (limiter._windows(PERSON)[0].count, limiter._windows(PERSON)[0].period) \
        == Limits().private


async def test_a_reply_or_a_notice_is_not_held_back_by_a_new_sender() -> None:
    # The person opened their private chat (a /start from a lobby's link) and its worker
    # answers, while their table is in another's shard: that one counts only the workers
    # seating the person, so a wait here would keep nothing; the greeting goes at once, with
    # this worker's part; a lobby's /notify notice likewise (made for its game, no hand of
    # it: the game's first hand, when the person sits there, still waits).
    person = Person(senders=2)
    await asyncio.wait_for(person.send("greeting", "sendMessage"), 1.0)
    assert person.limiter._windows(PERSON)[0].count == 1  # its part: one of three
    person.now[0] = 4.0
    notice = asyncio.create_task(person.send("notice", "sendMessage"),
                                 context=context_for_game(GAME))
    await person.until(4.5)
    await asyncio.wait_for(notice, 1.0)  # (held back, it would wait for a clock that stands)
    hand = person.hand(GAME)
    await person.until(12.0)
    await hand
    assert person.sent("greeting") == [0.0] and person.sent("notice") == [4.0]
    assert person.sent(f"hand {GAME}") == [pytest.approx(10.5)]  # its first hand: 4.5 + 6


async def test_a_workers_next_table_of_a_person_seated_elsewhere_waits_though_the_count_did_not(
        ) -> None:
    # This worker's table of the person ended while another worker's went on: both count two
    # senders (each counts itself), and the other, alone meanwhile, may keep the whole window
    # for up to a period. The person sits at this worker's next table: its first hand waits
    # two periods, though its count did not change; the next hands of that game do not.
    person = Person(senders=2)
    first = person.hand(GAME)
    await person.until(7.0)
    await first
    assert person.log == [(f"hand {GAME}", 6.0)]  # it knew nothing of the chat
    person.now[0] = 20.0
    again = person.hand(GAME)
    await person.until(21.0)
    await asyncio.wait_for(again, 1.0)
    assert person.sent(f"hand {GAME}")[-1] == 20.0  # the same game: at once
    following = person.hand(GAME + 1)
    await person.until(30.0)
    await following
    assert person.sent(f"hand {GAME + 1}") == [pytest.approx(27.0)]  # its first: two periods


async def test_a_game_taken_over_has_had_its_first_hand() -> None:
    # A worker takes a shard over from one that died: the games' hands went to the person
    # from the last owner, and no other worker's count of senders changed with the owner.
    person = Person(senders=2)
    first = person.hand(GAME)
    await person.until(7.0)
    await first
    person.now[0] = 20.0
    person.limiter.hands_sent([PERSON, -100], GAME + 1)  # (a group's chat: no hands)
    taken = person.hand(GAME + 1)
    await person.until(21.0)
    await asyncio.wait_for(taken, 1.0)
    assert person.sent(f"hand {GAME + 1}") == [20.0]


async def test_many_tables_of_one_person_keep_their_hands_going() -> None:
    # A person at nine tables of this worker while another worker sends to them too: each
    # table's hands go in turn at this worker's part, one call per period, none held back
    # again and again as a first hand.
    person = Person(senders=2)
    tables = [synced(hands_for_ever(person, game), game) for game in range(1, 10)]
    await person.until(66.0)
    for table in tables:
        table.cancel()
    sent = sorted(at for _, at in person.log)
    assert sent[0] == pytest.approx(6.0) and len(sent) == 21  # 6, 9, ... 66
    assert all(later - earlier == pytest.approx(3.0) for earlier, later in pairwise(sent))


async def hands_for_ever(person: Person, game: int) -> None:
    while True:
        await person.send(f"hand {game}")


async def test_a_chat_of_a_shard_taken_counts_what_its_last_owner_answered() -> None:
    # The fleet's start on a loaded machine: worker A, holding every shard at first, answers
    # a person's /start while it gives the shard of their chat away (a handler in flight
    # finishes first). B takes that shard and the one of the person's table a moment later,
    # and sends the game's first hands: its window of a chat of its own shard (so not one of
    # another's, with one send counted) started empty, and A's greeting made four in 3 s. B
    # counts the whole window used as of its take: in a window made within a period of it,
    # and in one it kept.
    now, log = [0.0], []
    a, b = (FloodLimiter(Limits(), clock=lambda: now[0]) for _ in range(2))

    async def say(limiter: FloodLimiter, chat: int) -> None:
        async def call() -> bool:
            log.append(("a" if limiter is a else "b", now[0], chat))
            return True
        await limiter.process_request(call, (), {}, "sendMessage", {"chat_id": chat}, None)

    kept = PERSON + 1  # a person B sent to already, from a table of its own
    await say(b, kept)
    now[0] = 0.5
    await say(a, PERSON)  # the greeting
    await say(a, kept)  # a reply
    now[0] = 1.0
    b.took_chats(lambda chat: chat in (PERSON, kept))
    b.foreign = lambda chat: False  # (their shard is B's now)
    now[0] = 1.5
    calls = [asyncio.create_task(say(b, chat)) for chat in (PERSON, kept) for _ in range(3)]
    await advance(now, 6.0, [b])
    await asyncio.gather(*calls)
    for chat in (PERSON, kept):
        assert max_in_window(sorted(at for _, at, to in log if to == chat), 3.0) == 3
    assert [at for who, at, to in log if who == "b" and to == PERSON] == [4.0] * 3
    assert [at for who, at, to in log if who == "b" and to == kept] == [0.0, 3.0, 4.0, 4.0]
    now[0] = 20.0  # a window made more than a period after the take starts empty
    b._chats.clear()
    assert b.free_now(PERSON)


async def test_a_handler_left_behind_by_a_shard_given_away_sends_nothing_more() -> None:
    # Seen in the fleet's end-to-end run (its workers starting as the tables opened, on a
    # loaded machine): the first worker gave shards away while four /start handlers still
    # waited for slots to greet; past the handover's grace it let them go on, and a greeting
    # reached a person 0.3 s after the next owner had answered the same /start again and
    # counted the chat from its take on: its first hands made four in 3 s. A handler left
    # behind sends nothing more; another shard's, and the tasks it started, still do.
    person = Person(senders=1)
    person.limiter._windows(PERSON)[0].close_until(1.0)  # (a slot at 1 s)
    started: list[asyncio.Task[None]] = []

    async def handler(shard: int, what: str) -> None:
        with for_update(shard):
            started.append(asyncio.create_task(person.send(f"{what}'s sync")))
            await person.send(what, "sendMessage")

    left, other = (asyncio.create_task(handler(shard, what))
                   for shard, what in ((1, "left"), (2, "other")))
    await asyncio.sleep(0)
    person.limiter.refuse_handlers([1])
    assert person.limiter.refuses_handlers(1) and not person.limiter.refuses_handlers(2)
    with pytest.raises(StoppingError):
        await asyncio.wait_for(left, 1.0)  # (held back, it would wait for a clock that stands)
    await person.until(1.5)
    await asyncio.gather(other, *started)
    assert sorted(what for what, _ in person.log) == ["left's sync", "other", "other's sync"]
    with for_update(1):
        assert not person.limiter.free_now(PERSON + 1)
        person.limiter.admit_handlers([1])  # the shard came back
        assert person.limiter.free_now(PERSON + 1)
