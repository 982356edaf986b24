"""What a fleet process writes while PostgreSQL is away, without a server: the connections
are fakes that fail as asyncpg's do in a restart. A connection lost under a query (asyncpg's
InternalClientError, "cannot switch to state 12; another operation (2) is in progress") is an
outage like any other: a WARNING line without a traceback, naming the lost connection rather
than asyncpg's state machine (operator QA: the shard keeper logged it as an ERROR with a
traceback, and the LISTEN loop died of it)."""

from __future__ import annotations

import logging
from typing import Any

import asyncpg
import pytest
from fleet_kit import until

from bot.errors import StorageError
from bot.fleet import listener as listener_module
from bot.fleet import receiver as receiver_module
from bot.fleet.listener import Listener
from bot.fleet.receiver import UpdateStore
from bot.fleet.shards import ShardKeeper
from bot.storage.outages import CONNECTION_LOST, cause, lost

URL = "postgresql://u:secret@127.0.0.1:5/db"
STATE_TEXT = "cannot switch to state 12; another operation (2) is in progress"


def state_error() -> Exception:
    return asyncpg.InternalClientError(STATE_TEXT)


class FakeConnection:
    def __init__(self) -> None:
        self.closed = False
        self.listening: list[str] = []

    def is_closed(self) -> bool:
        return self.closed

    def terminate(self) -> None:
        self.closed = True

    async def close(self) -> None:
        self.closed = True

    async def add_listener(self, channel: str, callback: Any) -> None:
        self.listening.append(channel)

    async def fetchval(self, query: str) -> int:
        return 1


async def no_shards(shards: frozenset[int]) -> None:
    """The keeper's callbacks for shards taken or given back: these tests own no games."""


async def no_balance(self: ShardKeeper) -> None:
    """The keeper's balancing, left out: these tests look at its connection only."""


def test_a_connection_lost_mid_query_is_an_outage_said_plainly() -> None:
    error = state_error()
    assert lost(error)
    assert cause(error) == CONNECTION_LOST
    assert cause(asyncpg.InterfaceError("cannot call Connection.fetch(): connection is closed")
                 ) == CONNECTION_LOST


async def test_the_shard_keeper_says_a_lost_connection_in_one_warning(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def connect(*args: object, **kwargs: object) -> FakeConnection:
        return FakeConnection()

    ticks = 0

    async def balance(self: ShardKeeper) -> None:
        nonlocal ticks
        ticks += 1
        if ticks == 1:
            raise state_error()

    monkeypatch.setattr(asyncpg, "connect", connect)
    monkeypatch.setattr(ShardKeeper, "balance", balance)
    caplog.set_level(logging.INFO)
    keeper = ShardKeeper(URL, 4, 1, "t", no_shards, no_shards, tick=0.01)
    keeper.start()
    try:
        await until(lambda: ticks >= 3)
    finally:
        await keeper.stop()
    failed = [r for r in caplog.records if r.name == "bot.fleet.shards"
              and r.levelno >= logging.WARNING]
    assert [r.levelname for r in failed] == ["WARNING"], [r.getMessage() for r in failed]
    assert failed[0].exc_info is None
    assert "unreachable (the connection was lost)" in failed[0].getMessage()
    assert "state 12" not in caplog.text


async def test_the_listener_outlives_a_connection_lost_mid_query(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    connections: list[FakeConnection] = []

    async def connect(*args: object, **kwargs: object) -> FakeConnection:
        connection = FakeConnection()
        connections.append(connection)
        if len(connections) == 1:
            raise state_error()
        return connection

    monkeypatch.setattr(asyncpg, "connect", connect)
    monkeypatch.setattr(listener_module, "HEARTBEAT", 0.01)
    lines = await listened(caplog)
    assert lines[0][0] == "WARNING" and "(the connection was lost)" in lines[0][1]
    assert lines[1] == ("INFO", "listening again after 1 attempt")


async def test_a_receiver_answers_503_for_a_connection_lost_mid_query(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def route_key(*args: object) -> int:
        raise state_error()

    monkeypatch.setattr(receiver_module, "route_key", route_key)
    store = UpdateStore(URL, 4)
    store.pool = object()  # (route_key fails first)
    store.agreed = True
    for update_id in (1, 2):
        with pytest.raises(StorageError, match="the connection was lost"):
            await store.put({"update_id": update_id})
    lines = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert lines == [("WARNING", "cannot store updates (the connection was lost): answering "
                                 "503 until the database is back")]


def refuse_connections(monkeypatch: pytest.MonkeyPatch, failures: int) -> None:
    """asyncpg.connect refused ``failures`` times (PostgreSQL down), then connected."""
    attempts = 0

    async def connect(*args: object, **kwargs: object) -> FakeConnection:
        nonlocal attempts
        attempts += 1
        if attempts <= failures:
            raise ConnectionRefusedError(111, "Connection refused")
        return FakeConnection()

    monkeypatch.setattr(asyncpg, "connect", connect)


async def listened(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    """The listener's lines from its start until it first hears (its start's heartbeat)."""
    heard: list[str | None] = []
    caplog.set_level(logging.INFO)
    listener = Listener(URL, {"ch": heard.append})
    listener.start()
    try:
        await until(lambda: heard == [None], timeout=5.0)
    finally:
        await listener.stop()
    return lines_of(caplog, "bot.fleet.listener")


def lines_of(caplog: pytest.LogCaptureFixture, logger: str) -> list[tuple[str, str]]:
    return [(r.levelname, r.getMessage()) for r in caplog.records if r.name == logger]


async def test_the_shard_keepers_attempts_are_one_warning_and_one_line_back(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    refuse_connections(monkeypatch, 4)
    monkeypatch.setattr(ShardKeeper, "balance", no_balance)
    caplog.set_level(logging.INFO)
    keeper = ShardKeeper(URL, 4, 1, "t", no_shards, no_shards, tick=0.01)
    keeper.start()
    try:
        await until(lambda: keeper.connected)
    finally:
        await keeper.stop()
    lines = lines_of(caplog, "bot.fleet.shards")
    assert [level for level, _ in lines] == ["WARNING", "INFO"], lines
    assert "(attempt 1)" in lines[0][1]
    assert lines[1][1] == "shard locks: connected again after 4 attempts"


async def test_the_listeners_attempts_are_one_warning_and_one_line_back(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    refuse_connections(monkeypatch, 2)
    lines = await listened(caplog)
    assert [level for level, _ in lines] == ["WARNING", "INFO"], lines
    assert lines[1][1] == "listening again after 2 attempts"
