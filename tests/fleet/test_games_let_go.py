"""A game a worker let go (its shard given away, or the game gone to another owner's shard): its
syncs' calls are refused from then on, so that its hands do not go beside the next owner's and
overfill a person's private window (tests/fleet/test_private_limit.py), while the worker still
answers the person otherwise; a game that runs here again goes again."""

from __future__ import annotations

import asyncio
import math
from contextlib import nullcontext
from dataclasses import replace
from types import SimpleNamespace

import pytest
from fleet_kit import game_moves, seated

from bot.fleet.routing import shard_of
from bot.fleet.worker import FleetWorker
from bot.publishing.fleetshares import REFUSED_GAME_SECONDS, context_for_game, for_game, for_update
from bot.publishing.floodwindows import Limits
from bot.publishing.publisher import Publisher
from bot.publishing.ratelimit import FloodLimiter, StoppingError
from bot.publishing.storagewaits import StorageWaits
from bot.publishing.tails import Tails
from bot.publishing.telegramwaits import TelegramWaits
from bot.service.locks import Locks
from bot.storage import fleet as sql
from fakeapi.ratelimit import max_in_window

SHARDS = 4


async def test_a_hand_of_a_game_given_away_goes_no_more_once_the_next_owner_took_it() -> None:
    # Seen in the fleet's end-to-end run on a loaded machine: a worker gave a table's shard
    # away while a sync of its game was still drawing a hand (its group refused, but not its
    # players' private chats), evicted the game after the grace and let the lock go; the next
    # owner counted the person's window full as it took the shard, and sent its three a
    # window later, but the old owner's hand went out in between: four in 3 s.
    now = [0.0]
    arrived: list[tuple[str, float]] = []  # who sent to the person's chat, when
    old = FloodLimiter(Limits(), clock=lambda: now[0])
    new = FloodLimiter(Limits(), clock=lambda: now[0])
    group, person, game, other_game = -100, 7, 26, 27

    async def send(limiter: FloodLimiter, game_id: int | None = None) -> None:
        async def call() -> bool:
            arrived.append(("old" if limiter is old else "new", now[0]))
            return True

        with for_game(game_id) if game_id is not None else nullcontext():
            await limiter.process_request(call, (), {}, "sendPhoto", {"chat_id": person}, None)

    for _ in range(3):
        await send(old, game)
    hand = asyncio.create_task(send(old, game))  # the next round: waits for a slot
    await asyncio.sleep(0)
    now[0] = 1.0
    old.refuse({group}, {game: group})  # the shard given away
    new.taken_over(person)  # its next owner took it
    now[0] = 3.1  # the old owner's window has a slot again
    old._notify()
    with pytest.raises(StoppingError):  # (the hand went otherwise)
        await hand
    now[0] = 4.1
    for _ in range(3):
        await send(new, game)
    assert max_in_window(sorted(at for _, at in arrived), 3.0) == 3
    assert [who for who, _ in arrived] == ["old"] * 3 + ["new"] * 3

    # The old owner still serves the person otherwise: a reply, a table it keeps.
    now[0] = 10.0
    await send(old)
    await send(old, other_game)
    assert old.refused == {group}
    old.admit({group})  # the shard came back: its game's calls go again
    await send(old, game)
    assert len(arrived) == 9


async def test_a_games_syncs_make_their_calls_for_it_so_that_letting_it_go_stops_their_hands(
        ) -> None:
    # The publisher runs each sync of a game inside for_game: whatever chat its calls go to
    # (the hands: private chats, which this worker may still serve for other tables), a
    # worker that let the game go refuses them; the kept game's calls go.
    limiter = FloodLimiter(Limits())
    limiter.refuse(set(), {9: 1})  # game 9 let go (game 10 kept)
    results: dict[int, object] = {}

    async def answer() -> bool:
        return True

    class HandChannel:  # a game's hand sync: one hand to person 7
        async def sync(self, game_id: int) -> None:
            try:
                results[game_id] = await limiter.process_request(
                    answer, (), {}, "sendPhoto", {"chat_id": 7}, None)
            except StoppingError as refused:
                results[game_id] = refused
                raise

    publisher = SimpleNamespace(_dirty=set(), _channels={"hands": HandChannel()},
                                _tasks={(9, "hands"): None, (10, "hands"): None},
                                _stopping=asyncio.Event(), limiter=limiter,
                                telegram_waits=TelegramWaits(), storage_waits=StorageWaits(),
                                _closing=lambda error: False)
    for game_id in (9, 10):
        await Publisher._run(publisher, (game_id, "hands"))  # type: ignore[arg-type]
    assert isinstance(results[9], StoppingError)
    assert results[10] is True


def test_a_game_let_go_goes_again_when_it_runs_here_and_is_forgotten_after_a_while() -> None:
    now = [1000.0]
    limiter = FloodLimiter(Limits(), clock=lambda: now[0])
    limiter.refuse((), {9: -1001, 10: -1002})
    with for_game(9):
        assert not limiter.free_now(7)  # a hand of game 9, to person 7
    limiter.admit_games([9])  # (a supergroup's new id in a shard held here: runs here)
    with for_game(9):
        assert limiter.free_now(7)
    with for_game(10):
        assert not limiter.free_now(7)
    assert not context_for_game(10).run(limiter.free_now, 7)  # (a /notify delivery's task)
    now[0] += REFUSED_GAME_SECONDS  # long after game 10's giving away ended
    limiter.refuse((), {11: -1003})  # the next handover forgets it
    with for_game(10):
        assert limiter.free_now(7)
    with for_game(11):
        assert not limiter.free_now(7)
    assert limiter.refused == frozenset({-1003})


async def test_games_a_worker_runs_are_admitted_though_it_let_them_go_before() -> None:
    # Game 9 was let go from here (to another shard's owner, or its shard given away); now
    # it runs here again (its shard taken, or adopted under a supergroup's new id): its
    # syncs' calls go, or its players would see a table and hands that never move.
    limiter = FloodLimiter(Limits())
    limiter.refuse((), {9: -1001})
    requested: list[int] = []
    game = SimpleNamespace(game_id=9, chat_id=-1009, players=[], seat_changes=[])
    moves = game_moves(limiter, SimpleNamespace(game=lambda game_id: game), requested,
                       SHARDS)
    await moves._run_games([game], set())  # type: ignore[list-item]
    assert requested == [9]
    with for_game(9):
        assert limiter.free_now(7)


async def test_a_worker_giving_a_table_away_stops_its_hands_and_shrinks_a_part_it_keeps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A person at two tables of this worker's shards: it alone sends to them (their whole
    # window, and the count it asked says so for a period). One table's shard goes to another
    # worker, which sends that table's hands from the lock's release on: this worker's part is
    # one of two from then, not when it asks again. The given table's hands being sent go on
    # until its syncs settle, then no call for it goes any more.
    kept_chat = next(-c for c in range(1000, 1100) if shard_of(-c, SHARDS) == 0)
    given_chat = next(-c for c in range(1000, 1100) if shard_of(-c, SHARDS) == 1)
    kept, given = replace(seated(kept_chat, 7), game_id=1), replace(seated(given_chat, 7, 8),
                                                                    game_id=2)
    memory = [kept, given]
    limiter = FloodLimiter(Limits())

    async def chats_of_player(pool: object, person: int) -> list[int]:
        return [c for c in (kept_chat, given_chat) if person == 7 or c == given_chat]

    async def release(shards: object, grace: float) -> None:
        return None  # (the feeder lets the shards go)

    during: list[bool] = []

    async def settled(game_ids: object, grace: float) -> bool:
        with for_game(given.game_id):  # the given game's hands go until its syncs settle
            during.append(limiter.free_now(8))
        return True
    monkeypatch.setattr(sql, "chats_of_player", chats_of_player)
    worker = FleetWorker.__new__(FleetWorker)
    worker.rt = SimpleNamespace(  # type: ignore[assignment]
        limiter=limiter, locks=Locks(), timers=SimpleNamespace(cancel=lambda game_id: None),
        publisher=SimpleNamespace(settled=settled,
                                  tables=SimpleNamespace(forget=lambda game_ids: None),
                                  group=SimpleNamespace(tails=Tails())),
        service=SimpleNamespace(
            games_in=lambda shards, count: [g for g in memory
                                            if shard_of(g.chat_id, count) in shards],
            open_games=lambda: memory, evict=lambda shards, count: None),
        status_lines=SimpleNamespace(forget=lambda game_ids: None))
    worker.settings = SimpleNamespace(shards=SHARDS)  # type: ignore[assignment]
    worker.feeder = SimpleNamespace(release=release)  # type: ignore[assignment]
    worker.keeper = SimpleNamespace(owned=frozenset({0, 1}))  # type: ignore[assignment]
    worker.holding = frozenset({0, 1})
    worker.pool = None
    worker._giving = frozenset()
    worker._senders_of = {7: (1, math.inf), 8: (1, math.inf)}  # asked a moment ago

    async def answer() -> bool:
        return True
    limiter.share_private(7, await worker._senders(7))
    await limiter.process_request(answer, (), {}, "sendPhoto", {"chat_id": 7}, None)
    assert limiter.free_now(7)  # the whole window: two more may go
    await worker.give(frozenset({1}))
    with for_update(1):  # (a handler of its updates left behind)
        assert not limiter.free_now(8)
    with for_game(given.game_id):
        assert during == [True] and not limiter.free_now(8)  # then none goes any more
    assert limiter.free_now(8) and limiter.refused == {given_chat}  # (a reply still goes)
    assert not limiter.free_now(7)  # one of two, and used
    assert worker._senders_of[7][0] == 2
    assert worker._senders_of[8] == (1, math.inf)  # (seated here no more: not asked)
