"""Shard ownership on a real PostgreSQL: two keepers split the shards; when one's connection
dies (as a SIGKILLed worker's does) the other takes them all within a couple of seconds."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from fleet_pg import database  # noqa: F401  (a fixture)

from bot.fleet.routing import shard_of
from bot.fleet.settings import LOCK_APPLICATION
from bot.fleet.shards import ShardKeeper, lock_key
from bot.models import Game, Messages, Player, Status
from bot.presentation.composer import TextComposer
from bot.presentation.pictures import PictureMaker
from bot.service import GameService
from bot.storage import Storage

SHARDS = 64
KEY = lock_key("123456:" + "A" * 35)


class Recorder:
    """What a keeper was told: the shards it holds by its callbacks' account."""

    def __init__(self) -> None:
        self.loaded: set[int] = set()
        self.given: list[frozenset[int]] = []

    async def take(self, shards: frozenset[int]) -> None:
        assert not shards & self.loaded, "a shard taken twice"
        self.loaded |= shards

    async def give(self, shards: frozenset[int]) -> None:
        self.given.append(shards)
        self.loaded -= shards


def keeper(url: str, name: str, recorder: Recorder, tick: float = 0.2) -> ShardKeeper:
    return ShardKeeper(url, SHARDS, KEY, name, recorder.take, recorder.give, tick=tick)


async def until(condition: object, timeout: float = 10.0) -> float:
    """Wait for ``condition()`` to hold; the seconds it took."""
    start = time.monotonic()
    while not condition():  # type: ignore[operator]
        assert time.monotonic() - start < timeout, "timed out"
        await asyncio.sleep(0.02)
    return time.monotonic() - start


@pytest.fixture
async def two(database: str) -> AsyncIterator[tuple[ShardKeeper, Recorder, ShardKeeper, Recorder]]:  # noqa: F811
    a_rec, b_rec = Recorder(), Recorder()
    a, b = keeper(database, "a", a_rec), keeper(database, "b", b_rec)
    a.start()
    b.start()
    try:
        yield a, a_rec, b, b_rec
    finally:
        await a.stop()
        await b.stop()


async def test_two_keepers_split_the_shards(two: tuple[ShardKeeper, Recorder, ShardKeeper,
                                                       Recorder]) -> None:
    a, a_rec, b, b_rec = two
    await until(lambda: len(a.owned) == len(b.owned) == SHARDS // 2)
    assert a.owned.isdisjoint(b.owned)
    assert a.owned | b.owned == set(range(SHARDS))
    assert a_rec.loaded == a.owned and b_rec.loaded == b.owned
    assert await a.held() == set(a.owned)  # PostgreSQL agrees
    assert await b.held() == set(b.owned)


async def test_a_closing_keeper_gives_its_shards_back(
        two: tuple[ShardKeeper, Recorder, ShardKeeper, Recorder]) -> None:
    a, a_rec, b, b_rec = two
    await until(lambda: len(a.owned) == len(b.owned) == SHARDS // 2)
    mine = a.owned
    await a.stop()
    assert a_rec.given[-1] == mine and not a_rec.loaded  # let go in order: evicted, unlocked
    took = await until(lambda: len(b.owned) == SHARDS, timeout=3.0)
    assert took < 2.0
    assert b_rec.loaded == set(range(SHARDS))


async def test_a_killed_connection_frees_its_shards_at_once(
        two: tuple[ShardKeeper, Recorder, ShardKeeper, Recorder], database: str) -> None:  # noqa: F811
    """What a SIGKILL does to a worker, seen from PostgreSQL: its connection ends."""
    a, _, b, _ = two
    await until(lambda: len(a.owned) == len(b.owned) == SHARDS // 2)
    assert a._task is not None
    a._task.cancel()  # the victim's process is dead: nothing of it runs any more
    conn = await asyncpg.connect(database)
    try:
        pid = await conn.fetchval(
            "SELECT pid FROM pg_stat_activity WHERE application_name=$1 AND pid <> ALL($2)"
            " AND datname=current_database()",
            LOCK_APPLICATION, [await b._conn.fetchval("SELECT pg_backend_pid()")])  # type: ignore[union-attr]
        killed = time.monotonic()
        await conn.execute("SELECT pg_terminate_backend($1)", pid)
    finally:
        await conn.close()
    await until(lambda: len(b.owned) == SHARDS, timeout=3.0)
    took = time.monotonic() - killed
    print(f"takeover after a killed lock connection: {took:.2f} s")
    assert took < 2.0
    assert await b.held() == set(range(SHARDS))


async def test_a_third_keeper_gets_its_share(
        two: tuple[ShardKeeper, Recorder, ShardKeeper, Recorder], database: str) -> None:  # noqa: F811
    a, _, b, _ = two
    await until(lambda: len(a.owned) == len(b.owned) == SHARDS // 2)
    c_rec = Recorder()
    c = keeper(database, "c", c_rec)
    c.start()
    try:
        share = -(-SHARDS // 3)  # ceil: 22, 22 and 20
        await until(lambda: max(len(a.owned), len(b.owned)) <= share
                    and len(a.owned) + len(b.owned) + len(c.owned) == SHARDS)
        assert len(c.owned) >= SHARDS - 2 * share
        assert not (a.owned & c.owned) and not (b.owned & c.owned)
    finally:
        await c.stop()


async def test_a_shards_games_are_loaded_and_evicted_with_it(tmp_path: Path) -> None:
    """What a worker holds: the open games of its shards (the chat's shard, negative ids
    too), loaded into memory when it takes them and forgotten when it gives them back."""
    storage = Storage(tmp_path / "db.sqlite3")
    await storage.open()
    service = GameService(storage, TextComposer(PictureMaker("classic")))
    try:
        chats = [-1001, -1002, -1009, 6, 13]
        ids = {chat: await storage.insert_game(lobby(chat), 0.0) for chat in chats}
        finished = await storage.insert_game(lobby(-1001, thread=4), 0.0)
        done = await storage.load_game(finished)
        assert done is not None
        await storage.save_status(done, Status.FINISHED, [], 1.0)
        shards = 8
        mine = {shard_of(-1001, shards), shard_of(13, shards)}  # 7 and 5: -1009 is in 7 too
        loaded = await service.load_open_games(shards=mine, shard_count=shards)
        expected = {ids[c] for c in chats if shard_of(c, shards) in mine}
        assert {g.game_id for g in loaded} == expected == {ids[-1001], ids[-1009], ids[13]}
        assert {g.game_id for g in service.open_games()} == expected
        assert service.open_game_in(-1001) is not None and service.open_game_in(-1002) is None
        gone = service.evict({shard_of(13, shards)}, shards)
        assert [g.game_id for g in gone] == [ids[13]]
        assert service.open_game_in(13) is None and service.game(ids[13]) is None
        assert {g.game_id for g in service.open_games()} == {ids[-1001], ids[-1009]}
    finally:
        await storage.close()


def lobby(chat_id: int, thread: int | None = None) -> Game:
    return Game(0, chat_id, Status.LOBBY, "gaple", {}, 1, [Player(1, "Ayu")], None, 0, "en",
                Messages(), thread_id=thread)
