"""A PostgreSQL server whose disk filled (SQLSTATE 53100, asyncpg's DiskFullError) is the
storage's one line, as SQLite's full disk is (:mod:`bot.storage.causes`): a sync waits it out
in one WARNING and one line when it works again, a tap is one WARNING and the player's "Something
went wrong", no traceback (operator QA: each sync was a failure of its own, five retries and a
traceback each). The server refuses the writes itself (:mod:`testservers.fulldisk`)."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest
from bot_kit import Group
from test_postgres_copy import STORED, run
from test_postgres_storage import lobby
from test_publisher_outages import quick
from test_tap_outage import tap_and_hear_back

from bot.handlers.runtime import Runtime
from bot.models import Game, Status
from bot.publishing.publisher import MAX_RETRIES
from bot.storage import Storage, StorageFailedError
from bot.storage.causes import unusable
from bot.storage.outages import cause, lost
from testservers.fulldisk import CAUSE, WORDS, FullDisk


async def test_a_full_disk_fails_a_write_in_the_storages_one_line_not_tried_again(
        postgres_storage: Storage, postgres_url: str) -> None:
    storage = postgres_storage
    game = lobby(-1)
    game.game_id = await storage.insert_game(game, 0.0)
    disk = FullDisk(postgres_url)
    await disk.install()
    await disk.fill()
    line = f"cannot use the database {storage.engine.name}: {CAUSE}"
    with pytest.raises(StorageFailedError) as single:  # one statement (execute)
        await storage.save_messages(game)
    with pytest.raises(StorageFailedError) as written:  # a transaction (write)
        await storage.insert_game(lobby(-2), 0.0)
    assert str(single.value) == str(written.value) == line
    assert await disk.refusals() == 2  # each once: waiting is its caller's (a sync's)
    assert [g.game_id for g in await storage.open_games()] == [game.game_id]  # reads go on
    await disk.fill(False)
    await storage.save_messages(game)
    assert await storage.insert_game(lobby(-2), 0.0) > game.game_id


@pytest.mark.parametrize(("error", "line"), [
    (asyncpg.DiskFullError(WORDS), CAUSE),
    (asyncpg.OutOfMemoryError("out of memory"),
     "out of memory (the PostgreSQL server is out of memory: see its log)"),
    (asyncpg.InsufficientResourcesError("could not resize shared memory segment"),
     "could not resize shared memory segment (the PostgreSQL server lacks a resource: see "
     "its log)"),
    (asyncpg.ConfigurationLimitExceededError("too many dynamic shared memory segments"),
     "too many dynamic shared memory segments (a limit of the PostgreSQL server's "
     "configuration: see its log)"),
    # too many connections: an outage (a connection freed lets the bot in), waited for
    (asyncpg.TooManyConnectionsError("sorry, too many clients already"), None),
    (asyncpg.UniqueViolationError("duplicate key value"), None),  # the caller's
])
def test_postgresqls_resource_failures_are_one_line(error: Exception, line: str | None
                                                    ) -> None:
    assert unusable(error) == line
    assert cause(error) == (line or str(error))
    assert lost(error) == isinstance(error, asyncpg.TooManyConnectionsError)


def the_game(runtime: Runtime) -> Game:
    games = runtime.service.open_games()
    assert len(games) == 1
    return games[0]


async def test_a_full_disk_on_postgresql_stops_no_game_and_its_syncs_wait_in_one_line(
        group: Group, postgres_url: str, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    disk = FullDisk(postgres_url)
    async with group.bot(database_url=postgres_url) as runtime:
        await group.start("gaple")
        publisher = runtime.publisher
        await publisher.idle()
        game = the_game(runtime)
        old = game.messages.table_message
        quick(monkeypatch, publisher)
        await disk.install()
        await disk.fill()
        caplog.clear()
        publisher.tables.bring_down(game.game_id)  # a sync with something to save
        await group.server.wait_for(lambda: publisher.storage_waits.waited(
            (game.game_id, "group")))
        deadline = time.monotonic() + 30
        while await disk.refusals() <= MAX_RETRIES + 2:  # (past a failure's own retries)
            assert time.monotonic() < deadline, "the sync was not tried again"
            await asyncio.sleep(0.05)
        assert game.status is Status.PLAYING
        await disk.fill(False)
        await publisher.idle()
        stored = await runtime.service.storage.load_game(game.game_id)
        assert stored is not None and stored.status is Status.PLAYING
        assert stored.messages.table_message == game.messages.table_message != old
        name = runtime.service.storage.engine.name
    waited_in_two_lines(caplog, game.game_id, name, CAUSE)


def waited_in_two_lines(caplog: pytest.LogCaptureFixture, game_id: int, name: str, why: str
                        ) -> None:
    """The group sync of ``game_id`` waited for the database ``name`` unusable for ``why``
    in one WARNING and one INFO line, with no error or traceback."""
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    told = [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name == "bot.publishing.publisher" and r.levelno >= logging.INFO]
    assert told == [
        ("WARNING", f"group sync of game {game_id} waits for the database: cannot use "
                    f"the database {name}: {why}"),
        ("INFO", "the database works again after 0 s: the syncs waiting for it went through"),
    ]


async def test_a_move_on_a_full_postgresql_disk_is_one_line_an_apology_and_plays_once_freed(
        group: Group, postgres_url: str, caplog: pytest.LogCaptureFixture) -> None:
    disk = FullDisk(postgres_url)
    async with group.bot(database_url=postgres_url) as runtime:
        table = await group.start("gaple")
        user, hand = await group.server.wait_for(table.whose_turn)
        await runtime.publisher.idle()
        game = the_game(runtime)
        moves = game.move_no
        await disk.install()
        await disk.fill()
        heard = len(group.server.messages(user.private_chat))
        tile, problems = await tap_and_hear_back(group, user, hand, caplog)
        assert game.move_no == moves  # nothing applied, in memory or stored
        stored = await runtime.service.storage.load_game(game.game_id)
        assert stored is not None and stored.move_no == moves
        told = [m.text for m in group.server.messages(user.private_chat)[heard:]]
        assert told == ["Something went wrong. Please try again."]
        await disk.fill(False)
        again = user.press(hand, tile.text)
        await group.server.wait_for(lambda: again.answered)
        await group.server.wait_for(lambda: game.move_no > moves)
        name = runtime.service.storage.engine.name
    assert [r.getMessage() for r in problems] == [
        f"button {tile.callback_data!r} not handled: cannot use the database {name}: {CAUSE}"]
    assert not any(r.exc_info for r in problems)


async def test_the_copy_into_a_full_postgresql_disk_is_one_line(
        postgres_url: str, tmp_path: Path) -> None:
    target = Storage(postgres_url)  # the target's tables made, empty: the copy fills them
    await target.open()
    name = target.engine.name
    await target.close()
    disk = FullDisk(postgres_url)
    await disk.install()
    await disk.fill()
    code, out, err = await run(str(STORED), postgres_url)
    assert (code, out) == (1, "")
    assert err == f"copy failed: cannot use the database {name}: {CAUSE}\n"
