"""python -m bot.storage.copy: a bot's SQLite database, made by an older bot, moved into
PostgreSQL; the PostgreSQL bot finds the same games and the same scoreboard, and new ids go on
after the old ones."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.fleet.secretprint import SECRET_PRINT, fingerprint, matches
from bot.gamemessages import Messages
from bot.i18n import Speech
from bot.models import Game, Player, Status
from bot.service.scoreboards import player_stats, scoreboard
from bot.storage import Storage
from bot.storage.backup import back_up
from bot.storage.claim import DatabaseClaim
from bot.storage.owner import BOT_ID, BOT_USERNAME, agree_bot
from bot.storage.postgres import PostgresEngine
from bot.storage.restores import take_mark
from engine import match_to_json
from testservers import free_port

ROOT = Path(__file__).parents[2]
STORED = ROOT / "tests" / "bot" / "stored" / "before-refactor.sqlite3"
GROUP = -4000000001  # the stored group with a finished match
PLAYERS = (1001, 1002, 1003, 1004)


@contextlib.asynccontextmanager
async def copied(source: Path, postgres_url: str) -> AsyncIterator[Storage]:
    """``source`` copied by the tool into the database at ``postgres_url``, opened."""
    code, _, err = await run(str(source), postgres_url)
    assert (code, err) == (0, "")
    pg = Storage(postgres_url)
    await pg.open()
    try:
        yield pg
    finally:
        await pg.close()


async def run(*args: str, token: str | None = None) -> tuple[int, str, str]:
    """The tool as an operator runs it, in a process of its own (with ``token`` as its
    TELEGRAM_BOT_TOKEN, as in the fleet's container)."""
    env = {"PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT)}
    if token is not None:
        env["TELEGRAM_BOT_TOKEN"] = token
    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "bot.storage.copy", *args], cwd=ROOT,
        env=env, capture_output=True,
        text=True, timeout=120, check=False)
    return done.returncode, done.stdout, done.stderr


def facts(games: list[Game]) -> list[tuple[object, ...]]:
    return [(g.game_id, g.chat_id, g.thread_id, g.status, g.game_name, g.options, g.players,
             g.move_no, g.language, g.messages, g.turn_seconds, g.deadline, g.timer,
             g.seat_changes, g.pending, g.match and match_to_json(g.match)) for g in games]


async def test_an_old_bots_database_moves_to_postgresql_whole(
    postgres_url: str, tmp_path: Path
) -> None:
    source = tmp_path / "bot.sqlite3"
    shutil.copyfile(STORED, source)
    before = source.read_bytes()
    code, out, err = await run(str(source), postgres_url)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert "games: 11 rows" in lines and "users: 32 rows" in lines and "outbox: 0 rows" in lines
    assert "seats: 32 rows" in lines  # who sat at its games (people: no computer)
    assert lines[-1].startswith("copied 91 rows in ") and "postgres@" not in lines[-1]
    assert source.read_bytes() == before  # the source is only read

    lite, pg = Storage(source), Storage(postgres_url)  # the SQLite bot migrates its own file
    await lite.open()
    await pg.open()
    try:
        assert facts(await pg.open_games()) == facts(await lite.open_games())
        assert len(await pg.open_games()) == 10
        for storage in (lite, pg):
            assert (await scoreboard(storage, GROUP)).matches == 1
        assert await scoreboard(pg, GROUP) == await scoreboard(lite, GROUP)
        for user in PLAYERS:
            assert await player_stats(pg, user) == await player_stats(lite, user)
        assert any([(await player_stats(pg, user)).games for user in PLAYERS])
        assert await pg.chat_settings(GROUP) == await lite.chat_settings(GROUP)
        # New ids follow the old: games after the last, the outbox after SQLite's high mark
        # (its sent items were deleted, their ids are not given again).
        lobby = Game(0, -1, Status.LOBBY, "gaple", {}, 1, [Player(1, "A")], None, 0, "en",
                     Messages())
        assert await pg.insert_game(lobby, 0.0) == 12
        async with pg.transaction() as tx:
            row = await tx.fetch_one("INSERT INTO outbox (game_id, chat_id, text, created_at)"
                                     " VALUES (12, -1, 'x', 0) RETURNING id")
        assert row is not None and row[0] == 16
    finally:
        await lite.close()
        await pg.close()


async def test_a_copy_of_a_live_bot_is_no_restored_backup(postgres_url: str, tmp_path: Path
                                                          ) -> None:
    """The copy reads its source through a backup's snapshot, which it must not mark as one
    to restore: the PostgreSQL bot's first start would send every game's messages anew."""
    source = tmp_path / "bot.sqlite3"
    lite = Storage(source)  # today's schema, where a backup is marked
    await lite.open()
    await lite.close()
    async with copied(source, postgres_url) as pg:
        assert await take_mark(pg) is None


async def meta_of(url: str) -> dict[str, str]:
    pg = Storage(url)
    await pg.open()
    try:
        return {r["name"]: r["value"] for r in await pg.fetch_all("SELECT * FROM fleet_meta")}
    finally:
        await pg.close()


async def test_a_backup_moved_over_as_the_readme_says_is_no_restore_and_stays_its_bots(
        postgres_url: str, tmp_path: Path) -> None:
    """Operator QA: the README's way over (a backup, copied) carried the backup's mark into
    PostgreSQL; the fleet ignored it, and a single bot started on the database weeks later
    told four groups "moves made since then are undone". The copy leaves the mark behind,
    and the bot the source belongs to comes with it."""
    live = tmp_path / "bot.sqlite3"
    lite = Storage(live)
    await lite.open()
    await agree_bot(lite, "7000000001", "domino_test_bot")  # the single bot's start
    await lite.close()
    backup = back_up(live, tmp_path / "backup.sqlite3").path  # marked, as a backup is
    code, out, err = await run(str(backup), postgres_url, token="7000000002:AAsecretOther")
    assert (code, err) == (0, "")
    assert "bot: 7000000001 (@domino_test_bot), as the source records it" in out.splitlines()
    assert "AAsecret" not in out
    assert await meta_of(postgres_url) == {BOT_ID: "7000000001",
                                           BOT_USERNAME: "domino_test_bot"}


async def test_a_fleets_webhook_secret_comes_with_its_bot(postgres_url: str, tmp_path: Path
                                                         ) -> None:
    """The copy carries ``fleet_meta`` as the source holds it (a backup's mark aside): with
    the bot, the fleet's webhook secret's fingerprint (:mod:`bot.fleet.secretprint`), so a
    receiver with another secret is refused on the target as on the source."""
    source = tmp_path / "bot.sqlite3"
    lite = Storage(source)
    await lite.open()
    await agree_bot(lite, "7000000001", "domino_test_bot")
    await lite.execute("INSERT INTO fleet_meta (name, value) VALUES (?, ?)",
                       (SECRET_PRINT, fingerprint("fleet_secret-1")))
    await lite.close()
    code, _, err = await run(str(source), postgres_url)
    assert (code, err) == (0, "")
    meta = await meta_of(postgres_url)
    assert meta[BOT_ID] == "7000000001" and matches("fleet_secret-1", meta[SECRET_PRINT])


async def test_a_source_without_its_bot_takes_the_tokens_bot_else_none(
        postgres_url: str, tmp_path: Path) -> None:
    source = tmp_path / "bot.sqlite3"
    shutil.copyfile(STORED, source)  # an older bot's: no bot recorded
    code, out, _ = await run(str(source), postgres_url)
    assert code == 0
    assert "bot: none recorded: the first bot started on the target is" in out.splitlines()
    assert BOT_ID not in await meta_of(postgres_url)
    code, out, err = await run(str(source), postgres_url, "--replace",
                               token="7000000001:AAsecretPart")
    assert (code, err) == (0, "")
    assert "bot: 7000000001, TELEGRAM_BOT_TOKEN's (the source records none)" in out
    assert "AAsecretPart" not in out
    assert (await meta_of(postgres_url))[BOT_ID] == "7000000001"


async def test_a_target_with_rows_is_refused_unless_replaced(
    postgres_url: str, tmp_path: Path
) -> None:
    source = tmp_path / "bot.sqlite3"
    shutil.copyfile(STORED, source)
    assert (await run(str(source), postgres_url))[0] == 0
    code, out, err = await run(str(source), postgres_url)
    assert (code, out) == (1, "")
    assert err.startswith("copy failed: 127.0.0.1:") and "already holds rows (" in err
    assert "--replace" in err and err.count("\n") == 1
    code, out, err = await run(str(source), postgres_url, "--replace")
    assert (code, err) == (0, "") and "games: 11 rows" in out
    pg = Storage(postgres_url)
    await pg.open()
    assert len(await pg.open_games()) == 10
    await pg.close()


@pytest.mark.parametrize("case", ["no source", "not sqlite", "no server", "no database",
                                  "not postgresql"])
async def test_failures_are_one_line_without_the_password(
    case: str, tmp_path: Path, postgres_url: str
) -> None:
    source, target = tmp_path / "bot.sqlite3", postgres_url
    shutil.copyfile(STORED, source)
    expected = {
        "no source": (1, f"copy failed: no database at {tmp_path}/gone.sqlite3"),
        "not sqlite": (1, "copy failed: cannot read "),
        "no server": (1, "copy failed: cannot connect to PostgreSQL at 127.0.0.1:"),
        "no database": (1, "copy failed: cannot connect to PostgreSQL at "),
        "not postgresql": (2, "usage: python -m bot.storage.copy"),
    }[case]
    if case == "no source":
        source = tmp_path / "gone.sqlite3"
    elif case == "not sqlite":
        source.write_text("not a database")
    elif case == "no server":
        target = f"postgresql://bot:sekret@127.0.0.1:{free_port()}/bot"
    elif case == "no database":  # the hint names the URL given, not the bot's DATABASE_URL
        target = postgres_url.rsplit("/", 1)[0] + "/no_such_database"
    else:
        target = "mysql://bot:sekret@127.0.0.1/bot"
    code, out, err = await run(str(source), target)
    assert (code, out) == (expected[0], "")
    assert err.startswith(expected[1]) and "sekret" not in err
    if code == 1:
        assert err.count("\n") == 1
    if case == "no database":
        assert err.endswith("(create it (createdb), or fix the target URL)\n"), err


@pytest.mark.parametrize("fleet", [False, True])
async def test_a_database_a_bot_runs_on_is_refused_even_with_replace(
    postgres_url: str, tmp_path: Path, fleet: bool
) -> None:
    """--replace emptied the tables under a running bot (operator QA): the copy holds the
    bot's claim on the database (its advisory lock) while it copies, and is refused, in one
    line naming who runs there, while a bot or a fleet's worker holds it."""
    source = tmp_path / "bot.sqlite3"
    shutil.copyfile(STORED, source)
    assert (await run(str(source), postgres_url))[0] == 0
    running = DatabaseClaim(PostgresEngine(postgres_url), shared=fleet, on_taken=print)
    await running.take(wait=0)
    try:
        for args in ((), ("--replace",)):
            code, out, err = await run(str(source), postgres_url, *args)
            assert (code, out) == (1, "")
            holder = "a fleet worker" if fleet else "a bot"
            assert re.fullmatch(
                rf"copy failed: cannot copy into 127\.0\.0\.1:\d+/\w+: {holder} \(PostgreSQL "
                r"pid \d+( from [\d.:a-f]+)?\) is running on it: stop it first \(the copy "
                r"never writes into a database in use\)\n", err), err
    finally:
        await running.release()
    pg = Storage(postgres_url)
    await pg.open()
    try:
        assert len(await pg.open_games()) == 10  # the bot's rows are all there
    finally:
        await pg.close()
    code, out, err = await run(str(source), postgres_url, "--replace")  # the bot stopped
    assert (code, err) == (0, "") and "games: 11 rows" in out


async def test_a_target_the_server_refuses_a_row_of_is_one_line_and_left_as_it_was(
    postgres_url: str, tmp_path: Path
) -> None:
    """A refusal of the server's while copying (here a column the source has no value for)
    was a traceback: it is one line, and nothing is copied."""
    target = Storage(postgres_url)
    await target.open()
    try:
        await target.execute("ALTER TABLE users ADD COLUMN extra TEXT NOT NULL")
        name = target.engine.name
    finally:
        await target.close()
    code, out, err = await run(str(STORED), postgres_url)
    assert (code, out) == (1, "")
    assert err.startswith(f"copy failed: cannot copy into {name}: null value in column ")
    assert err.count("\n") == 1
    pg = Storage(postgres_url)
    await pg.open()
    try:
        assert await pg.open_games() == []
    finally:
        await pg.close()


async def test_a_persons_chosen_language_moves_with_them(postgres_url: str, tmp_path: Path
                                                         ) -> None:
    """users.chosen_language (private /language, migration 16) is copied with its row."""
    source = tmp_path / "bot.sqlite3"
    lite = Storage(source)
    await lite.open()
    await lite.remember_user(7, "Ari", None, "en", private_ok=True)
    await lite.choose_language(7, "is")
    await lite.remember_user(8, "Ivan", None, "ru")
    await lite.close()
    async with copied(source, postgres_url) as pg:
        assert await pg.user_languages([7, 8]) == {7: Speech("en", "is"), 8: Speech("ru")}
