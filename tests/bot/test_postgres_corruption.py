"""A PostgreSQL database damaged on disk (SQLSTATE XX001, data_corrupted: a table's page; XX002,
index_corrupted) is the storage's one line, as SQLite's damaged file is
(:mod:`bot.storage.causes`): the server's words naming the file or the index, and what to do,
never a traceback or "unexpected error" (they took the path of a bug). The damage is real:
pages overwritten on disk while the server is down (:mod:`testservers.corruption`), found by
the server itself."""

from __future__ import annotations

import logging
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest
from bot_kit import Group
from test_postgres_copy import STORED, run
from test_postgres_full_disk import the_game, waited_in_two_lines
from test_postgres_storage import lobby
from test_publisher_outages import quick
from test_startup import bot_process, server_settings
from test_tap_outage import tap_and_hear_back

from bot.handlers.failures import database_failure
from bot.models import Status
from bot.serving.metrics import Metrics
from bot.storage import Storage, StorageFailedError
from bot.storage.causes import unusable
from bot.storage.outages import cause, lost
from fakeapi import FakeTelegramServer
from testservers import PostgresServer
from testservers.corruption import damage_index, damage_table

#: What the storage's line says after the server's words, for each.
TABLE_HINT = "the data on the PostgreSQL server is damaged: restore a backup, see " \
             "docs/OPERATIONS.md"
INDEX_HINT = "an index on the PostgreSQL server is damaged: REINDEX INDEX games_pkey, see " \
             "docs/OPERATIONS.md"
INDEX_WORDS = 'index "games_pkey" contains unexpected zero page at block 0'


def table_cause(path: str) -> str:
    """The storage's line for the games table's first page damaged, after ``cannot use the
    database NAME: ``."""
    return f"invalid page in block 0 of relation {path} ({TABLE_HINT})"


INDEX_CAUSE = f"{INDEX_WORDS} ({INDEX_HINT})"


async def with_games(url: str, games: int = 2) -> str:
    """The bot's tables at ``url``, ``games`` lobbies in them; the storage's name for it."""
    storage = Storage(url)
    await storage.open()
    try:
        for number in range(games):
            await storage.insert_game(lobby(-1 - number), 0.0)
        return storage.engine.name
    finally:
        await storage.close()


async def test_a_damaged_table_fails_a_read_in_the_storages_one_line(
        postgres: PostgresServer, postgres_url: str) -> None:
    name = await with_games(postgres_url)
    path = await damage_table(postgres, postgres_url, "games")
    storage = Storage(postgres_url)
    await storage.open()
    try:
        with pytest.raises(StorageFailedError) as failed:
            await storage.open_games()
        assert str(failed.value) == f"cannot use the database {name}: {table_cause(path)}"
        # docs/OPERATIONS.md's way from the file the line names to its table
        named = await storage.fetch_one("SELECT pg_filenode_relation(0, ?)::text",
                                        (int(path.rpartition("/")[2]),))
        assert named is not None and named[0] == "games"
    finally:
        await storage.close()


async def test_a_damaged_index_fails_in_one_line_and_a_reindex_repairs_it(
        postgres: PostgresServer, postgres_url: str) -> None:
    name = await with_games(postgres_url)
    await damage_index(postgres, postgres_url, "games_pkey")
    storage = Storage(postgres_url)
    await storage.open()
    try:
        with pytest.raises(StorageFailedError) as read:
            await storage.open_games()
        with pytest.raises(StorageFailedError) as written:  # a transaction (write)
            await storage.insert_game(lobby(-3), 0.0)
        assert str(read.value) == str(written.value) \
            == f"cannot use the database {name}: {INDEX_CAUSE}"
        await storage.execute("REINDEX INDEX games_pkey")  # what the line says to do
        assert len(await storage.open_games()) == 2
    finally:
        await storage.close()


async def test_the_servers_own_corruption_errors_are_what_no_retry_cures(
        postgres: PostgresServer, postgres_url: str) -> None:
    """asyncpg's errors as the server raised them: their SQLSTATE, and the one line."""
    await with_games(postgres_url)
    path = await damage_table(postgres, postgres_url, "games")
    await damage_index(postgres, postgres_url, "seats_pkey")
    connection = await asyncpg.connect(postgres_url)
    try:
        with pytest.raises(asyncpg.DataCorruptedError) as data:
            await connection.fetch("SELECT * FROM games")
        with pytest.raises(asyncpg.IndexCorruptedError) as index:  # (any plan reads it)
            await connection.fetch("SELECT * FROM seats")
    finally:
        await connection.close()
    assert (data.value.sqlstate, index.value.sqlstate) == ("XX001", "XX002")
    assert unusable(data.value) == cause(data.value) == table_cause(path)
    assert unusable(index.value) == cause(index.value) == (
        'index "seats_pkey" contains unexpected zero page at block 0 (an index on the '
        "PostgreSQL server is damaged: REINDEX INDEX seats_pkey, see docs/OPERATIONS.md)")
    assert not lost(data.value) and not lost(index.value)  # not an outage: not waited for
    # met on a connection of the fleet's own, not the storage's: a tap's one line too
    metrics = Metrics()
    assert database_failure(data.value, metrics) == table_cause(path)
    assert metrics.registry.get_sample_value("domino_storage_failures_total",
                                             {"cause": "damaged"}) == 1


@pytest.mark.parametrize(("words", "named"), [
    ('index "games_pkey" contains corrupted page at block 3', "REINDEX INDEX games_pkey"),
    ('index "Spiele Index" contains unexpected zero page at block 0',
     'REINDEX INDEX "Spiele Index"'),
    ("could not read the index", "REINDEX it"),
])
def test_a_damaged_index_is_named_as_sql_names_it(words: str, named: str) -> None:
    assert unusable(asyncpg.IndexCorruptedError(words)) == (
        f"{words} (an index on the PostgreSQL server is damaged: {named}, see "
        "docs/OPERATIONS.md)")


async def test_the_bot_on_a_damaged_postgresql_table_says_so_in_one_line(
        postgres: PostgresServer, postgres_url: str, telegram: FakeTelegramServer,
        tmp_path: Path) -> None:
    """As on SQLite's damaged file: the start reads the games, and stops in its one line."""
    name = await with_games(postgres_url)
    path = await damage_table(postgres, postgres_url, "games")
    settings = server_settings(telegram, DATABASE_URL=postgres_url)
    async with bot_process(tmp_path, **settings) as bot:
        assert await bot.ended() == 1
    assert bot.unstamped() == [
        f"CRITICAL bot: cannot use the database {name}: {table_cause(path)}"], bot.text()


async def test_the_copy_into_a_damaged_postgresql_database_is_one_line(
        postgres: PostgresServer, postgres_url: str) -> None:
    """The copy reads the target's tables before it writes them (are they empty?)."""
    name = await with_games(postgres_url, games=1)
    await damage_index(postgres, postgres_url, "games_pkey")
    code, out, err = await run(str(STORED), postgres_url, "--replace")
    assert (code, out) == (1, "")
    assert err == f"copy failed: cannot use the database {name}: {INDEX_CAUSE}\n"


async def test_a_move_on_a_damaged_postgresql_table_is_one_line_and_an_apology(
        group: Group, postgres: PostgresServer, postgres_url: str,
        caplog: pytest.LogCaptureFixture) -> None:
    """Damaged while the bot runs (the server restarted under it: its connections made
    anew): the move's commit reads the game's page, the tap is one WARNING and the player's
    "Something went wrong", no traceback, nothing applied."""
    async with group.bot(database_url=postgres_url) as runtime:
        table = await group.start("gaple")
        user, hand = await group.server.wait_for(table.whose_turn)
        await runtime.publisher.idle()
        game = the_game(runtime)
        moves = game.move_no
        path = await damage_table(postgres, postgres_url, "games")
        heard = len(group.server.messages(user.private_chat))
        tile, problems = await tap_and_hear_back(group, user, hand, caplog)
        assert game.move_no == moves  # nothing applied
        told = [m.text for m in group.server.messages(user.private_chat)[heard:]]
        assert told == ["Something went wrong. Please try again."]
        name = runtime.service.storage.engine.name
    assert [r.getMessage() for r in problems] == [
        f"button {tile.callback_data!r} not handled: cannot use the database {name}: "
        f"{table_cause(path)}"]
    assert not any(r.exc_info for r in problems)


async def test_a_damaged_postgresql_index_stops_no_game_its_syncs_wait_until_reindexed(
        group: Group, postgres: PostgresServer, postgres_url: str,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with group.bot(database_url=postgres_url) as runtime:
        await group.start("gaple")
        publisher = runtime.publisher
        await publisher.idle()
        game = the_game(runtime)
        old = game.messages.table_message
        quick(monkeypatch, publisher)
        await damage_index(postgres, postgres_url, "games_pkey")
        caplog.clear()
        publisher.tables.bring_down(game.game_id)  # a sync with something to save
        await group.server.wait_for(lambda: publisher.storage_waits.waited(
            (game.game_id, "group")))
        assert game.status is Status.PLAYING
        connection = await asyncpg.connect(postgres_url)
        try:
            await connection.execute("REINDEX INDEX games_pkey")  # what the line says
        finally:
            await connection.close()
        await publisher.idle()
        stored = await runtime.service.storage.load_game(game.game_id)
        assert stored is not None and stored.status is Status.PLAYING
        assert stored.messages.table_message == game.messages.table_message != old
        name = runtime.service.storage.engine.name
    waited_in_two_lines(caplog, game.game_id, name, INDEX_CAUSE)
