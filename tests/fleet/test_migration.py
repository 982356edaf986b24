"""A group upgraded to a supergroup in the middle of a game, in a fleet: the group's shard is
owned by one worker, the supergroup's (its new chat id's) by the other. The game must follow
the chat to the worker owning its new shard, and only there: the taps after the upgrade (routed
by the game's new chat) answered once and acting once, its table posted in the supergroup, its
timers (computers' moves, a turn's time running out) firing in the new owner, the match
finished with the scores the engine gives for its stored actions.

In-process (two workers and a receiver in this test's event loop, as test_shards' handover),
against a real PostgreSQL and the fake Bot API server delivering by webhook."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from typing import Any

import asyncpg
import pytest
from fleet_kit import in_process, outcomes, until

from bot.app import running
from bot.fleet.routing import shard_of
from bot.fleet.settings import WORKER_KEY
from bot.fleet.worker import FleetWorker
from bot.handlers.runtime import KEY, Runtime
from bot.storage import fleet as fleet_sql
from fakeapi import FakeChat, FakeTelegramServer, FakeUser, StoredMessage, WebhookTiming
from testservers import free_port
from testservers.tables import Table

SHARDS = 4
SECRET = "migration_secret"
SUPERGROUP_BASE = -1001000000000  # the fake server's supergroup ids: this minus a number




@dataclasses.dataclass
class TwoWorkers:
    server: FakeTelegramServer
    database: str
    runtimes: dict[str, Runtime]
    workers: dict[str, FleetWorker]
    owned: Callable[[str], frozenset[int]]

    def owner(self, chat_id: int) -> str:
        shard = shard_of(chat_id, SHARDS)
        return next(name for name in self.runtimes if shard in self.owned(name))

    def holders(self, game_id: int) -> list[str]:
        """The workers holding the game in memory."""
        return [name for name, rt in self.runtimes.items() if rt.service.game(game_id)]


@pytest.fixture
async def two_workers(postgres_url: str) -> AsyncIterator[TwoWorkers]:
    async with FakeTelegramServer() as server, AsyncExitStack() as stack:
        server.webhook.timing = WebhookTiming(timeout=5.0, first_retry=0.02, max_retry=0.2)
        setup = in_process(server, postgres_url, SECRET, SHARDS, computer_pause=0.2)
        apps = {name: setup.worker(name) for name in ("a", "b")}
        for app in apps.values():
            await stack.enter_async_context(running(app))
        await stack.enter_async_context(setup.receiver())
        keepers = {n: app.bot_data[WORKER_KEY].keeper for n, app in apps.items()}
        await until(lambda: all(len(k.owned) == SHARDS // 2 for k in keepers.values()))
        await server.wait_for(lambda: server.webhook.target is not None)
        yield TwoWorkers(server, postgres_url, {n: app.bot_data[KEY] for n, app in apps.items()},
                         {n: app.bot_data[WORKER_KEY] for n, app in apps.items()},
                         lambda name: frozenset(keepers[name].owned))
        for rt in (app.bot_data[KEY] for app in apps.values()):
            await rt.publisher.idle()
        server.assert_no_violations()


def jobs_of(rt: Runtime, game_id: int) -> list[str]:
    """The game's timer jobs waiting in a worker."""
    return [str(job.name) for job in rt.timers.job_queue.jobs()
            if str(job.name).endswith(f":{game_id}")]


def group_in(fleet: TwoWorkers, owner: str, users: list[Any]) -> FakeChat:
    """A group whose shard ``owner`` owns (groups made to fill the others' shards)."""
    while True:
        chat = fleet.server.add_group("Dominoes", members=users, admins=users[:1])
        if fleet.owner(chat.id) == owner:
            return chat


def next_supergroup_goes_to(fleet: TwoWorkers, owner: str) -> None:
    """Make groups until the next id the fake server gives (a supergroup's, on an upgrade)
    falls in a shard of ``owner``."""
    while True:
        probe = fleet.server.add_group("filler")  # takes a number: the next is one more
        number = -4000000000 - probe.id
        if fleet.owner(SUPERGROUP_BASE - (number + 1)) == owner:
            return


async def test_a_game_follows_its_group_upgraded_into_another_workers_shard(
        two_workers: TwoWorkers, caplog: pytest.LogCaptureFixture) -> None:
    fleet, server = two_workers, two_workers.server
    users = [server.add_user(name, language_code="en", started=True) for name in ("Ayu", "Budi")]
    chat = group_in(fleet, "a", users)
    table = Table(server, chat, users, "gaple target=1", random.Random(2311), computers=2)
    await table.open()
    game_id = fleet.runtimes["a"].service.open_game_in(chat.id).game_id  # type: ignore[union-attr]
    assert fleet.holders(game_id) == ["a"]

    playing = asyncio.create_task(table.play())
    await until(lambda: table.moves >= 2 or playing.done(), timeout=60)
    assert not playing.done(), "the match ended before the upgrade"
    next_supergroup_goes_to(fleet, "b")
    supergroup = server.migrate_group(chat)  # while the players go on tapping
    assert fleet.owner(supergroup.id) == "b" and fleet.owner(chat.id) == "a"
    table.chat = supergroup  # the match is over when it is said there
    # The game leaves worker a for b, which owns the supergroup's shard, and stays there.
    await until(lambda: fleet.holders(game_id) == ["b"], timeout=15)
    moves = table.moves
    await until(lambda: table.moves >= moves + 2 or playing.done(), timeout=60)
    assert not playing.done(), "the match ended too soon to be watched"
    playing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await playing
    assert fleet.holders(game_id) == ["b"]
    assert not jobs_of(fleet.runtimes["a"], game_id)  # its timers run in b alone

    # A turn's time running out fires in the new owner: its move is played for the person.
    await server.wait_for(table.whose_turn, timeout=30)
    rt = fleet.runtimes["b"]
    game = rt.service.game(game_id)
    assert game is not None and jobs_of(rt, game_id)
    before = game.move_no
    async with rt.locks.game(game_id):
        game.deadline = time.time()
        rt.timers.schedule(game)
    await until(lambda: game.move_no != before, timeout=15)
    assert fleet.holders(game_id) == ["b"] and not jobs_of(fleet.runtimes["a"], game_id)
    # A tap of the old group's routed before the upgrade, handled by a after it let the game
    # go, reads it back into a's memory: a lets it go again soon.
    await fleet.runtimes["a"].service.find(game_id)
    assert fleet.holders(game_id) == ["a", "b"]
    # (a sweep's wait, then up to two settle graces: 15 s at worst, on a quiet machine)
    await until(lambda: fleet.holders(game_id) == ["b"], timeout=30)
    playing = asyncio.create_task(table.play())
    await asyncio.wait_for(playing, timeout=120)
    await server.wait_idle(quiet=1.0, timeout=30)

    answers = server.tap_answers()
    assert answers.twice == ()
    assert len(answers.unanswered) <= table.retaps
    result, = await outcomes(fleet.database, [supergroup])
    assert result.agrees, result
    over = [m for m in server.bot_messages(supergroup) if "The match is over" in (
        m.text or m.caption or "")]
    assert len(over) == 1 and result.announced_in(over[0].text or over[0].caption or "")
    assert any(m.photo for m in server.bot_messages(supergroup))  # the table, posted there
    assert not [m for m in server.bot_messages(chat) if "The match is over" in (
        m.text or m.caption or "")]
    conn = await asyncpg.connect(fleet.database)
    try:
        assert await conn.fetchval("SELECT count(*) FROM fleet_updates WHERE done_at IS NULL"
                                   ) == 0
        assert await conn.fetchval("SELECT count(*) FROM outbox") == 0
    finally:
        await conn.close()
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_a_game_let_go_whose_notification_was_lost_is_found_on_listening_again(
        two_workers: TwoWorkers, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The NOTIFY telling the new owner is lost (its LISTEN connection was down): when it
    listens again it looks for its shards' open games missing from memory, and runs them."""
    table, _, supergroup, game_id = await upgraded_untold(two_workers, monkeypatch, 2312)
    two_workers.workers["b"]._heard_games(None)  # what the listener says when connected again
    await until(lambda: two_workers.holders(game_id) == ["b"], timeout=15)
    await finished_right(two_workers, table, supergroup, caplog)


async def test_a_game_let_go_whose_new_owner_never_hears_is_found_by_its_sweep(
        two_workers: TwoWorkers, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """The new owner is never told (worker a killed between the commit and its NOTIFY, or
    the NOTIFY's attempts failed) and its listener stays connected: its periodic sweep finds
    the open game of its shard missing from memory and runs it (a /newgame in the supergroup
    is told a game runs there, as anywhere)."""
    fleet, server = two_workers, two_workers.server
    table, users, supergroup, game_id = await upgraded_untold(fleet, monkeypatch, 2314)
    await until(lambda: fleet.holders(game_id) == ["b"], timeout=30)
    await until(lambda: bool(jobs_of(fleet.runtimes["b"], game_id)), timeout=30)
    users[1].send(supergroup, "/newgame gaple")
    await server.wait_for(lambda: any("A game is already running" in (m.text or "")
                                      for m in server.bot_messages(supergroup)), timeout=30)
    await finished_right(fleet, table, supergroup, caplog)


async def test_a_newgame_where_a_game_came_unannounced_is_refused_and_runs_it(
        two_workers: TwoWorkers, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Never told of the game, and before its sweep finds it (here: never), worker b handles
    a /newgame in the supergroup: the database's open game there refuses it, as a game in
    memory would, and b reads the game and runs it (no traceback, no second table)."""
    fleet, server = two_workers, two_workers.server

    unswept(fleet, monkeypatch)
    table, users, supergroup, game_id = await upgraded_untold(fleet, monkeypatch, 2315)
    users[1].send(supergroup, "/newgame gaple")
    await server.wait_for(lambda: any("A game is already running" in (m.text or "")
                                      for m in server.bot_messages(supergroup)), timeout=30)
    assert fleet.holders(game_id) == ["b"]
    await finished_right(fleet, table, supergroup, caplog)


async def test_a_game_a_private_tap_reads_before_its_adoption_runs_at_once(
        two_workers: TwoWorkers, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Never told of the game, and before its sweep finds it (here: never), worker b handles
    a tap on a player's private hand ("Table"), which reads the game into its memory: b runs
    it as it runs a game it adopts, its timers armed (a computer's turn played, a turn's
    time kept) without waiting for anyone's move."""
    fleet, server = two_workers, two_workers.server
    caplog.set_level(logging.INFO, logger="bot.fleet.moves")

    table, users, supergroup, game_id = await unread_on_b(fleet, monkeypatch, 2316)
    hand = next(m for m in reversed(server.bot_messages(users[0].private_chat))
                if m.reply_markup is not None)
    tap = users[0].press_raw(hand, f"m:{game_id}")
    await server.wait_for(lambda: tap.answered, timeout=30)
    await adopted_by_b(fleet, table, supergroup, game_id, caplog)


async def test_a_private_hand_before_its_games_adoption_finds_it_and_runs_it(
        two_workers: TwoWorkers, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Never told of the game, and before its sweep finds it (here: never), worker b handles
    a player's /hand in private (routed by the game's new chat): b reads the player's open
    game from the database, sends the hand, and runs the game as it runs one it adopts,
    rather than answering "You are not playing a game right now"."""
    fleet, server = two_workers, two_workers.server
    caplog.set_level(logging.INFO, logger="bot.fleet.moves")

    table, users, supergroup, game_id = await unread_on_b(fleet, monkeypatch, 2317)
    private = users[0].private_chat
    last = max(m.message_id for m in server.bot_messages(private))
    users[0].send(private, "/hand")

    def fresh() -> list[StoredMessage]:  # (the old hand is deleted, before or after)
        return [m for m in server.bot_messages(private) if m.message_id > last]
    await server.wait_for(lambda: any(m.reply_markup is not None for m in fresh()), timeout=30)
    said = [m.text or m.caption or "" for m in fresh()]
    assert not any("not playing" in text for text in said), said
    await adopted_by_b(fleet, table, supergroup, game_id, caplog)


async def test_a_group_upgraded_found_by_a_refused_edit_before_its_update_is_read(
        two_workers: TwoWorkers, caplog: pytest.LogCaptureFixture) -> None:
    """The upgrade's updates are late (the webhook cannot deliver for a while): worker a learns
    of it from Telegram's answer to its edit of the old group's table (a turn's time ran out
    there), moves the game and lets it go; b runs it, and the late updates change nothing."""
    fleet, server = two_workers, two_workers.server
    users = [server.add_user(name, language_code="en", started=True) for name in ("Ayu", "Budi")]
    chat = group_in(fleet, "a", users)
    table = Table(server, chat, users, "gaple target=1", random.Random(2313), computers=2)
    await table.open()
    rt = fleet.runtimes["a"]
    game = rt.service.open_game_in(chat.id)
    assert game is not None
    await server.wait_for(table.whose_turn, timeout=30)
    await rt.publisher.idle()
    server.webhook.balance([f"http://127.0.0.1:{free_port()}/hook"])  # nobody there
    next_supergroup_goes_to(fleet, "b")
    supergroup = server.migrate_group(chat)
    table.chat = supergroup
    before = game.move_no
    async with rt.locks.game(game.game_id):  # the turn runs out in a, which edits its table
        game.deadline = time.time()
        rt.timers.schedule(game)
    await until(lambda: fleet.holders(game.game_id) == ["b"], timeout=15)
    assert game.move_no != before and game.chat_id == supergroup.id
    assert any(r.chat_id == chat.id and r.status == 400 for r in server.requests)
    server.webhook.balance([])  # the updates go again: the upgrade's are read now
    await finished_right(fleet, table, supergroup, caplog)
    assert not jobs_of(rt, game.game_id)


def unswept(fleet: TwoWorkers, monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker b's sweep never looks for games missing from its memory."""
    async def blind(at_once: bool) -> None:
        return None
    monkeypatch.setattr(fleet.workers["b"], "_look", blind)


async def unread_on_b(fleet: TwoWorkers, monkeypatch: pytest.MonkeyPatch, seed: int
                      ) -> tuple[Table, list[FakeUser], FakeChat, int]:
    """:func:`upgraded_untold`, with worker b's sweep off: b has not read the game."""
    unswept(fleet, monkeypatch)
    found = await upgraded_untold(fleet, monkeypatch, seed)
    assert fleet.runtimes["b"].service.game(found[3]) is None
    return found


async def adopted_by_b(fleet: TwoWorkers, table: Table, supergroup: FakeChat, game_id: int,
                       caplog: pytest.LogCaptureFixture) -> None:
    """Worker b holds the game, runs it as one it adopts (timers armed), and it ends right."""
    assert fleet.holders(game_id) == ["b"]
    await until(lambda: bool(jobs_of(fleet.runtimes["b"], game_id)), timeout=15)
    assert f"took over 1 game of chat {supergroup.id}" in caplog.messages  # (adopted)
    await finished_right(fleet, table, supergroup, caplog)


async def upgraded_untold(fleet: TwoWorkers, monkeypatch: pytest.MonkeyPatch, seed: int
                          ) -> tuple[Table, list[FakeUser], FakeChat, int]:
    """A gaple table (two people, two computers) opened in worker a's shard, its group then
    upgraded into worker b's with the NOTIFY telling b lost: the table, its people, the
    supergroup and the game's id, once a has let the game go."""
    server = fleet.server
    users = [server.add_user(name, language_code="en", started=True) for name in ("Ayu", "Budi")]
    chat = group_in(fleet, "a", users)
    table = Table(server, chat, users, "gaple target=1", random.Random(seed), computers=2)
    await table.open()
    game_id = fleet.runtimes["a"].service.open_game_in(chat.id).game_id  # type: ignore[union-attr]

    async def lost(db: object, chat_id: int) -> None:
        return None
    monkeypatch.setattr(fleet_sql, "games_moved", lost)
    next_supergroup_goes_to(fleet, "b")
    supergroup = server.migrate_group(chat)
    table.chat = supergroup
    await until(lambda: fleet.holders(game_id) == [], timeout=15)  # a let it go
    return table, users, supergroup, game_id


async def finished_right(fleet: TwoWorkers, table: Table, supergroup: FakeChat,
                         caplog: pytest.LogCaptureFixture) -> None:
    """The table plays to its end in the supergroup: every tap answered once, the match as
    the engine scores its moves, the table drawn there, no error logged."""
    server = fleet.server
    await asyncio.wait_for(table.play(), timeout=120)
    await server.wait_idle(quiet=1.0, timeout=30)
    answers = server.tap_answers()
    assert answers.twice == () and len(answers.unanswered) <= table.retaps
    result, = await outcomes(fleet.database, [supergroup])
    assert result.agrees, result
    assert any(m.photo for m in server.bot_messages(supergroup))
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
