"""A worker adopting games it was not told of, without Telegram: the service and a worker's
game moves (:class:`~bot.fleet.moves.GameMoves`) on a real database, the rest of the worker
stood in for. What fails is logged once and tried again; what is read is the chat's alone,
with the messages its row names; a table opened where the database has an open game memory
lacks is refused as any second table is."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fleet_kit import game_moves

from bot.errors import UserError
from bot.fleet.moves import GameMoves
from bot.fleet.routing import shard_of
from bot.fleet.worker import FleetWorker
from bot.gamemessages import Messages
from bot.models import Game, Player, Status
from bot.publishing.tails import Tails
from bot.service import GameService
from bot.service.lobby import TABLE_OPEN
from bot.service.locks import Locks
from bot.storage import Storage
from bot.storage.tx import StorageUnavailableError

ANN, BOB = Player(1, "Ann"), Player(2, "Bob")
SHARDS = 4
OLD, NEW = -100, -1001000000007


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    store = Storage(database)
    await store.open()
    for player in (ANN, BOB):
        await store.remember_user(player.user_id, player.name, None, "en", private_ok=True)
    yield store
    await store.close()


def service_for(storage: Storage, changed: list[int] | None = None) -> GameService:
    service = GameService(storage, Any, lambda: bytes(32), clock=lambda: 0.0)  # type: ignore[arg-type]
    if changed is not None:
        service.on_change = lambda game: changed.append(game.game_id)
    return service


class Moves(GameMoves):
    """A worker's game moves holding every shard, its games run as they are adopted."""

    def __init__(self, storage: Any, service: GameService) -> None:
        self.rt = SimpleNamespace(storage=storage, service=service,  # type: ignore[assignment]
                                  locks=Locks())
        self.settings = SimpleNamespace(shards=SHARDS)  # type: ignore[assignment]
        self.feeder = SimpleNamespace(owned=frozenset(range(SHARDS)))  # type: ignore[assignment]
        self.holding = frozenset(range(SHARDS))
        self._leaving, self._writes, self._missing, self._unrun = {}, set(), set(), set()
        self._adopting = {}
        self.ran: list[list[int]] = []

    async def _run_games(self, games: list[Game], repair: set[int]) -> None:
        self.ran.append(sorted(g.game_id for g in games))


class Failing:
    """A storage whose reads fail with ``error``."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise self.error


@pytest.mark.parametrize("engine", ["sqlite"])
async def test_adopting_a_game_a_copy_was_read_of_before_it_moved_takes_its_rows_messages(
        storage: Storage) -> None:
    here = service_for(storage)  # the worker that moves it
    game = await here.create(OLD, ANN, "gaple", "en")
    game.messages.lobby = 77
    await storage.save_messages(game)
    there = service_for(storage)
    stale = await there.find(game.game_id)  # a private command read it in the new owner
    assert stale is not None and stale.messages.lobby == 77
    await here.migrate_chat(OLD, NEW)  # the old group's messages forgotten, then the move
    moves = Moves(storage, there)
    await moves._adopt(NEW)
    assert moves.ran == [[game.game_id]]
    assert there.game(game.game_id) is stale  # (the object a tap may hold is kept)
    assert stale.chat_id == NEW and stale.messages.lobby is None
    assert there.open_game_in(NEW) is stale


@pytest.mark.parametrize("engine", ["sqlite"])
async def test_an_open_game_read_into_memory_by_any_path_but_a_take_is_run_once(
        storage: Storage) -> None:
    here = service_for(storage)
    game = await here.create(NEW, ANN, "gaple", "en")
    other = await here.create(OLD, BOB, "gaple", "en")
    there, changed, loaded = service_for(storage), [], []
    there.on_change = lambda g: changed.append(g.game_id)
    assert await there.find(game.game_id) is not None  # a tap naming it
    assert there.open_game_in(NEW) is there.game(game.game_id)
    assert await there.reload(other.game_id) is not None  # (unset: on_change is told)
    assert changed == [game.game_id, other.game_id]
    there.on_load = lambda g: loaded.append(g.game_id)
    await there.find(game.game_id)
    await there.reload(game.game_id)
    await there.load_open_games()  # (a take runs what it loads)
    assert loaded == []
    there.forget([game.game_id])
    assert await there.reload(game.game_id) is not None
    assert loaded == [game.game_id] and changed == [game.game_id, other.game_id]


async def test_a_private_command_reads_the_players_game_memory_lacks_and_runs_it(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """/hand in private, handled by the worker whose shards a group's game just moved into
    (a supergroup upgrade), before its sweep adopted it: the game is read and run."""
    here = service_for(storage)
    game = await here.create(NEW, ANN, "gaple", "en")
    there = service_for(storage)
    read: list[str] = []
    fetch = storage.fetch_all

    async def counting(sql: str, params: Sequence[Any] = ()) -> list[Any]:
        read.append(sql)
        return await fetch(sql, params)
    monkeypatch.setattr(storage, "fetch_all", counting)
    assert await there.read_games_of_user(ANN.user_id) == []  # one process: memory is all
    assert read == []
    loaded: list[int] = []
    there.on_load = lambda g: loaded.append(g.game_id)  # a fleet worker
    games = await there.read_games_of_user(ANN.user_id)
    assert [g.game_id for g in games] == [game.game_id] and loaded == [game.game_id]
    assert games[0] is there.game(game.game_id)
    assert await there.read_games_of_user(BOB.user_id) == []
    read.clear()
    assert await there.read_games_of_user(ANN.user_id) == games  # memory has it: no query
    assert read == [] and loaded == [game.game_id]


@pytest.mark.parametrize("engine", ["sqlite"])
async def test_adopting_reads_the_chats_games_only(storage: Storage,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    here = service_for(storage)
    mine = await here.create(NEW, ANN, "gaple", "en")
    other = await here.create(NEW - SHARDS, BOB, "gaple", "en")  # the same shard
    there = service_for(storage)
    read: list[int] = []
    fetch = storage.fetch_all

    async def counting(sql: str, params: Sequence[Any] = ()) -> list[Any]:
        rows = await fetch(sql, params)
        read.extend(int(r["game_id"]) for r in rows if "SELECT *" in sql)
        return rows
    monkeypatch.setattr(storage, "fetch_all", counting)
    moves = Moves(storage, there)
    await moves._adopt(NEW)
    assert moves.ran == [[mine.game_id]] and set(read) == {mine.game_id}
    assert there.game(other.game_id) is None


@pytest.mark.parametrize("engine", ["sqlite"])
async def test_the_sweep_adopts_a_game_missing_at_two_looks_and_no_match_read_before(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    here = service_for(storage)
    game = await here.create(NEW, ANN, "gaple", "en")
    there = service_for(storage)
    moves = Moves(storage, there)
    adopted: list[int] = []

    async def adopt(chat: int) -> None:
        adopted.append(chat)
    monkeypatch.setattr(moves, "_adopt", adopt)
    await moves._look(at_once=False)  # (a table being opened: in memory a moment later)
    assert adopted == []
    await moves._look(at_once=False)
    assert adopted == [NEW]
    await moves._look(at_once=True)  # (the listener connected again: at once)
    assert adopted == [NEW, NEW]
    monkeypatch.undo()
    await moves._look(at_once=False)
    assert moves.ran == [[game.game_id]] and there.game(game.game_id) is not None
    await moves._look(at_once=False)
    assert moves.ran == [[game.game_id]]  # in memory now: not read again


@pytest.mark.parametrize("error", [StorageUnavailableError("PostgreSQL lost"),
                                   OSError("connection reset")])
async def test_a_lost_database_while_adopting_is_one_warning_and_tried_again(
        error: Exception, caplog: pytest.LogCaptureFixture) -> None:
    moves = Moves(Failing(error), service_for(None))  # type: ignore[arg-type]
    moves._heard_games(str(NEW))
    moves._heard_games(None)
    await asyncio.gather(*moves._writes)
    await moves._look(at_once=False)
    lines = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "bot.fleet.moves"]
    assert [level for level, _ in lines] == [logging.WARNING] * 3, lines
    assert all(str(error) in line for _, line in lines)


async def test_anything_else_failing_while_adopting_is_logged_once_and_tried_again(
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    moves = Moves(None, service_for(None))  # type: ignore[arg-type]
    found = SimpleNamespace(game_id=5, chat_id=NEW)

    async def games_in(storage: object, chat: int) -> list[Any]:
        return [found]

    async def outbox_in(storage: object, chat: int) -> list[int]:
        raise ValueError("a row nobody can read")
    monkeypatch.setattr("bot.storage.fleet.open_games_in", games_in)
    monkeypatch.setattr("bot.storage.fleet.outbox_games_in", outbox_in)
    moves._heard_games(str(NEW))
    await asyncio.gather(*moves._writes)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None
    assert moves._unrun == {5}  # the next sweep adopts it again, in memory or not

    async def chats(storage: object, shards: object, count: int) -> dict[int, int]:
        return {5: NEW}
    monkeypatch.setattr("bot.storage.fleet.open_game_chats", chats)
    adopted: list[int] = []

    async def adopt(chat: int) -> None:
        adopted.append(chat)
    monkeypatch.setattr(moves, "_adopt", adopt)
    await moves._look(at_once=False)
    assert adopted == [NEW]


async def test_a_background_task_that_fails_is_logged_once(
        caplog: pytest.LogCaptureFixture) -> None:
    moves = Moves(None, service_for(None))  # type: ignore[arg-type]

    async def fails() -> None:
        raise RuntimeError("boom")
    moves._spawn(fails(), "failing")
    while moves._writes:
        await asyncio.sleep(0)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == ["failing failed"]
    assert errors[0].exc_info is not None


async def test_a_give_that_fails_leaves_the_shards_not_held() -> None:
    worker = FleetWorker.__new__(FleetWorker)

    async def release(shards: object, grace: float) -> None:
        raise OSError("lost")
    worker.rt = SimpleNamespace()  # type: ignore[assignment]
    worker.settings = SimpleNamespace(shards=SHARDS)  # type: ignore[assignment]
    worker.feeder = SimpleNamespace(release=release)  # type: ignore[assignment]
    worker.holding = worker._giving = frozenset({0, 1})
    with pytest.raises(OSError):
        await worker.give(frozenset({1}))
    assert worker.holding == worker._giving == {0}


async def test_a_shard_given_away_forgets_its_tables_waiting_and_its_chats_newest() -> None:
    """What this worker knew of the shard's chats (their newest messages, which it read in
    full) and of its games' tables asked to come down goes with the shard: the next owner
    hears what is said there now, and posts the tables asked for."""
    game = SimpleNamespace(game_id=9, chat_id=1)
    given = shard_of(game.chat_id, SHARDS)
    kept = next(c for c in range(2, 99) if shard_of(c, SHARDS) != given)
    tails = Tails()
    forgotten: list[list[int]] = []
    tails.saw(game.chat_id, None, 5, unprompted=True)
    tails.saw(kept, None, 6, unprompted=True)

    async def release(shards: object, grace: float) -> None:
        pass

    async def done(*args: object) -> bool:
        return True
    worker = FleetWorker.__new__(FleetWorker)
    worker.rt = SimpleNamespace(  # type: ignore[assignment]
        service=SimpleNamespace(games_in=lambda shards, count: [game],
                                evict=lambda shards, count: [game]),
        timers=SimpleNamespace(cancel=lambda game_id: None),
        limiter=SimpleNamespace(refuse=lambda chats: None,
                                refuse_handlers=lambda shards: None), locks=Locks(),
        status_lines=SimpleNamespace(forget=lambda game_ids: None),
        publisher=SimpleNamespace(tables=SimpleNamespace(forget=forgotten.append),
                                  group=SimpleNamespace(tails=tails)))
    worker.settings = SimpleNamespace(shards=SHARDS)  # type: ignore[assignment]
    worker.feeder = SimpleNamespace(release=release)  # type: ignore[assignment]
    worker._reshare = worker._stop_syncs = done  # type: ignore[method-assign, assignment]
    worker.holding = worker._giving = frozenset(range(SHARDS))
    await worker.give(frozenset({given}))
    assert forgotten == [[game.game_id]]
    assert tails.newest(game.chat_id, None) is None and not tails.reads_all(game.chat_id)
    assert tails.newest(kept, None) == 6 and tails.reads_all(kept)


async def test_games_of_a_shard_given_back_meanwhile_are_not_run() -> None:
    requested: list[int] = []
    resumed: list[list[Game]] = []

    async def resume(games: list[Game]) -> None:
        resumed.append(list(games))
    game = SimpleNamespace(game_id=9, chat_id=1, players=[])  # shard 1, given back
    moves = game_moves(SimpleNamespace(taken_over=lambda chat: None),
                       SimpleNamespace(game=lambda game_id: game), requested, SHARDS,
                       holding={0}, resume=resume)
    await moves._run_games([game], {9})  # type: ignore[list-item]
    assert requested == [] and resumed == [[]]


async def test_a_table_opened_where_the_database_has_an_open_game_memory_lacks(
        storage: Storage) -> None:
    """On either engine: the place's game is read and the bot told (it runs it), and the
    opener is told a table is open there, as when memory has it."""
    here = service_for(storage)
    game = await here.create(OLD, ANN, "gaple", "en")
    changed: list[int] = []
    there = service_for(storage, changed)  # its game came from another worker, not read yet
    with pytest.raises(UserError) as refused:
        await there.create(OLD, BOB, "pair", "en")
    assert refused.value.message == TABLE_OPEN
    held = there.open_game_in(OLD)
    assert held is not None and held.game_id == game.game_id and changed == [game.game_id]
    with pytest.raises(UserError):
        await there.create(OLD, BOB, "pair", "en")  # from memory now
    assert changed == [game.game_id]
    assert await there.create(OLD, BOB, "pair", "en", thread_id=5) is not None  # a topic


async def test_taking_shards_syncs_their_games_closed_lately(storage: Storage) -> None:
    """Review: a worker killed just after a match ended left its table's closing edit undone
    ("My tiles" on a finished table, a rematch's Join live), and the worker taking its shard
    over synced open games and those with announcements only. It syncs the games of its
    shards closed in the last hour too, as a start does; not another shard's, nor older."""
    taken = shard_of(OLD, SHARDS)
    other = next(c for c in range(-101, -200, -1) if shard_of(c, SHARDS) != taken)
    closed = {}
    for name, chat, when in (("lately", OLD, time.time()), ("elsewhere", other, time.time()),
                             ("long ago", OLD, 10.0)):
        game = Game(0, chat, Status.PLAYING, "gaple", {}, 1, [ANN, BOB], None, 0, "en",
                    Messages())
        game.game_id = await storage.insert_game(game, 0.0)
        await storage.save_status(game, Status.FINISHED, [], when)
        closed[name] = game.game_id
    run: list[set[int]] = []

    async def none(*args: object, **kwargs: object) -> list[Any]:
        return []

    async def ran(games: list[Game], repair: set[int]) -> None:
        run.append(repair)
    worker = FleetWorker.__new__(FleetWorker)
    service = GameService(storage, Any, lambda: bytes(32), clock=time.time)  # type: ignore[arg-type]
    worker.rt = SimpleNamespace(  # type: ignore[assignment]
        service=SimpleNamespace(load_open_games=none, outbox_games=none,
                                closed_lately=service.closed_lately),
        limiter=SimpleNamespace(refused=[], admit=lambda chats: None,
                                took_chats=lambda owned: None,
                                admit_handlers=lambda shards: None))
    worker.settings = SimpleNamespace(shards=SHARDS)  # type: ignore[assignment]
    worker.feeder = SimpleNamespace(own=lambda shards: None)  # type: ignore[assignment]
    worker.keeper = SimpleNamespace(owned=frozenset())  # type: ignore[assignment]
    worker.holding, worker._senders_of = frozenset(), {}
    worker._run_games = ran  # type: ignore[method-assign]
    await worker.take(frozenset({taken}))
    assert run == [{closed["lately"]}]
