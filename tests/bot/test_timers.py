"""Turn timers: the safe move when time runs out, warnings, away players, restarts."""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from bot_kit import Group
from test_games import ANN, BOB, CID, DAN, RecordingComposer, opened_private_chats

from bot.handlers.timers import OVERDUE_STEP, OVERDUE_WAIT, Timers
from bot.models import AWAY_AFTER, Game, Status
from bot.service import GameService
from bot.service.locks import Locks
from bot.service.settings import GroupSettings
from bot.storage import Storage
from engine import player_view
from engine.ai import safest_action


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def timed_game(storage: Storage, clock: Clock) -> tuple[GameService, Game]:
    await opened_private_chats(storage)
    seeds = itertools.count(50)
    service = GameService(storage, RecordingComposer(), lambda: next(seeds).to_bytes(32, "big"),
                          clock=clock)
    game = await service.create(-100, ANN, "gaple", "en", turn_seconds=90)
    for player in (BOB, CID, DAN):
        await service.join(game, player)
    await service.start(game, ANN.user_id)
    return service, game


async def test_a_turn_that_runs_out_gets_the_safe_move(database: Path | str) -> None:
    storage = Storage(database)
    await storage.open()
    clock = Clock()
    service, game = await timed_game(storage, clock)
    assert game.deadline == clock.now + 90
    match = game.match
    assert match is not None
    seat = match.to_move
    assert seat is not None
    expected = safest_action(player_view(match, seat))
    before = game.move_no
    clock.now += 60
    assert await service.expire(game, before) == []  # not due yet: nothing happens
    clock.now += 31
    assert await service.expire(game, before - 1) == []  # a stale timer: nothing happens
    assert await service.expire(game, before)
    assert match.hand.moves[-1].seat == seat and match.hand.moves[-1].action == expected
    assert game.timer.timeouts == {seat: 1}
    assert game.deadline == clock.now + 90  # the next player's clock starts
    await storage.close()


async def test_three_time_outs_in_a_row_mark_a_player_away(database: Path | str) -> None:
    storage = Storage(database)
    await storage.open()
    clock = Clock()
    service, game = await timed_game(storage, clock)
    match = game.match
    assert match is not None
    absent = match.to_move
    while game.timer.timeouts.get(absent, 0) < AWAY_AFTER and game.status is Status.PLAYING:  # type: ignore[arg-type]
        clock.now += 91
        if match.to_move == absent:
            await service.expire(game, game.move_no)
        else:  # the others play themselves
            seat = match.to_move
            assert seat is not None
            await service.act(game, game.players[seat].user_id, game.move_no,
                              match.legal_actions()[0])
    assert absent in game.timer.away
    outbox = await storage.pending_outbox(game.game_id)
    assert any(item.text == f"away {absent}" for item in outbox)
    # Playing again clears the count and the away mark.
    while match.to_move != absent and game.status is Status.PLAYING:
        seat = match.to_move
        assert seat is not None
        await service.act(game, game.players[seat].user_id, game.move_no, match.legal_actions()[0])
    if game.status is Status.PLAYING:
        await service.act(game, game.players[absent].user_id, game.move_no,  # type: ignore[index]
                          match.legal_actions()[0])
        assert absent not in game.timer.away and absent not in game.timer.timeouts
    await storage.close()


async def test_the_last_human_going_away_stops_the_game_without_the_away_offer(
        database: Path | str) -> None:
    """One human among computers: the third time-out in a row leaves nobody at the table, and
    the group hears that the game ends, not also that a computer could take the seat."""
    storage = Storage(database)
    await storage.open()
    try:
        await opened_private_chats(storage)
        clock = Clock()
        seeds = itertools.count(70)
        service = GameService(storage, RecordingComposer(), lambda: next(seeds).to_bytes(32, "big"),
                              clock=clock)
        game = await service.create(-100, ANN, "gaple", "en", turn_seconds=90)
        for _ in range(3):
            await service.add_computer(game, ANN.user_id, "normal")
        await service.start(game, ANN.user_id)
        match = game.match
        assert match is not None
        while game.status is Status.PLAYING:
            clock.now += 91
            if match.to_move == 0:
                await service.expire(game, game.move_no)
            else:  # the computers' moves, as their timers would make them
                seat = match.to_move
                assert seat is not None
                await service.act(game, game.players[seat].user_id, game.move_no,
                                  match.legal_actions()[0])
        assert game.status is Status.STOPPED and game.timer.timeouts[0] == AWAY_AFTER
        texts = [item.text for item in await storage.pending_outbox(game.game_id)]
        assert "stopped by " in texts
        assert "away 0" not in texts
    finally:
        await storage.close()


async def test_settings_apply_to_new_games_only(group: Group) -> None:
    async with group.bot() as runtime:
        await group.start("pair")
        running = group.game()
        await runtime.storage.save_chat_settings(
            group.chat.id,
            GroupSettings().with_option("pair", "target", 150).with_option("pair", "block_count",
                                                                            "all")
            .with_general("turn_seconds", 0).to_json())
        assert running.options == {} and running.turn_seconds == 90
        group.users[0].send(group.chat, "/stop")
        ask = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Yes, stop the game" in str(m.button_texts)), None))
        group.users[0].press(ask, "Yes, stop the game")
        await group.server.wait_for(lambda: running.status is Status.STOPPED)
        group.users[1].send(group.chat, "/newgame pair")
        await group.server.wait_for(lambda: group.service.open_game_in(group.chat.id) is not None)
        fresh = group.game()
    assert fresh.options == {"target": 150, "block_count": "all"} and fresh.turn_seconds == 0
    assert fresh.deadline is None


async def test_the_timer_runs_out_warns_and_moves_in_the_group(group: Group) -> None:
    async with group.bot():
        table = await group.start("gaple")
        game = group.game()
        game.turn_seconds = 2  # a short clock, so the test waits seconds, not minutes
        await table.play_one()
        absent = game.players[game.match.to_move]  # type: ignore[index, union-attr]
        message = group.server.message(group.chat, game.messages.table_message)  # type: ignore[arg-type]
        await group.server.wait_for(
            lambda: any("second left" in (v.caption or "") for v in message.versions),
            timeout=5, message="no half-time warning in the caption")
        await group.server.wait_for(lambda: "time ran out" in (message.caption or ""),
                                    timeout=5, message="the timer did not move")
    assert game.timer.timeouts == {game.players.index(absent): 1}


async def test_a_restart_resolves_an_overdue_turn(group: Group) -> None:
    async with group.bot() as runtime:
        table = await group.start("pair")
        await table.play_one()
        game = group.game()
        before = game.move_no
        await runtime.storage.execute(
            "UPDATE games SET deadline=? WHERE game_id=?", (time.time() - 5, game.game_id))
        runtime.timers.schedule = lambda game: None  # type: ignore[method-assign]
    async with group.bot():
        game = group.game()
        await group.server.wait_for(lambda: game.move_no > before,
                                    message="the overdue turn was not resolved")
        assert game.timer.auto_moves
        await group.server.wait_for(lambda: "time ran out" in (group.server.message(
            group.chat, game.messages.table_message).caption or ""))  # type: ignore[arg-type, union-attr]


async def test_the_games_with_a_stock_get_their_safe_move_and_draws(
    new_database: Callable[[], Awaitable[Path | str]],
) -> None:
    """A stuck player's draws are the bot's; when the turn runs out, the safe move of that
    game is made (an end and a way, or a cut), and the next player's clock starts."""
    for name in ("kolbasa", "matador", "six-matador", "french", "muggins", "bergen"):
        storage = Storage(await new_database())
        await storage.open()
        await opened_private_chats(storage)
        clock = Clock()
        seeds = itertools.count(70)
        service = GameService(storage, RecordingComposer(),
                              lambda s=seeds: next(s).to_bytes(32, "big"), clock=clock)
        game = await service.create(-100, ANN, name, "en", turn_seconds=90)
        await service.join(game, BOB)
        await service.start(game, ANN.user_id)
        match = game.match
        assert match is not None
        for _ in range(4):  # two turns a seat: nobody is marked away yet
            seat = match.to_move
            assert seat is not None and not match.over, name
            view = player_view(match, seat)
            assert view.legal and not view.must_draw(), name  # the bot already drew for them
            expected = safest_action(view)
            hand, moves = match.hand, len(match.hand.moves)
            clock.now += 91
            assert await service.expire(game, game.move_no), name
            assert hand.moves[moves] == (seat, expected), name
            assert game.deadline == clock.now + 90 or match.to_move is None, name
        assert game.status is Status.PLAYING, name
        await storage.close()


class RecordingJobs:
    """Enough of PTB's job queue for :class:`Timers`: the jobs armed, by name."""

    def __init__(self) -> None:
        self.armed: list[str] = []
        self.when: dict[str, float] = {}  # by name: in how many seconds it runs

    def get_jobs_by_name(self, name: str) -> list[object]:
        return []

    def run_once(self, callback: object, when: float, name: str, data: object,
                 job_kwargs: object) -> None:
        self.armed.append(name)
        self.when[name] = when


async def moved_first_elsewhere(storage: Storage
                                 ) -> tuple[GameService, Game, int, RecordingJobs, Timers]:
    """A timed game whose overdue turn another process (a second service on the same
    database) has just moved: this one's service, its game, the move number before, and
    timers on recorded jobs."""
    clock = Clock()
    service, game = await timed_game(storage, clock)
    before = game.move_no
    other = GameService(storage, RecordingComposer(), lambda: bytes(32), clock=clock)
    [theirs] = await other.load_open_games()
    clock.now += 91
    assert await other.expire(theirs, before)  # the other process moved first
    jobs = RecordingJobs()
    timers = Timers(jobs, service, Locks(), clock=clock)  # type: ignore[arg-type]
    return service, game, before, jobs, timers


async def test_a_timer_move_another_process_made_first_is_one_info_line(
    database: Path | str, caplog: pytest.LogCaptureFixture,
) -> None:
    """Two processes raced for a turn's time-out (a fleet's shard changing hands): the commit
    check refuses the second one. That is expected, so it is one INFO line, no ERROR and no
    traceback, and the timers are armed again from the game as the database has it."""
    storage = Storage(database)
    await storage.open()
    service, game, before, jobs, timers = await moved_first_elsewhere(storage)
    job = SimpleNamespace(name=f"turn:{game.game_id}", data=(game.game_id, before))
    with caplog.at_level(logging.DEBUG, logger="bot.handlers.timers"):
        await timers._job(SimpleNamespace(job=job))  # type: ignore[arg-type]
    lines = [r for r in caplog.records if r.name == "bot.handlers.timers"]
    assert [r.levelno for r in lines] == [logging.INFO], lines
    assert lines[0].exc_info is None and "out of date" in lines[0].getMessage()
    assert service.game(game.game_id) is game and game.move_no > before  # read again
    assert f"turn:{game.game_id}" in jobs.armed  # the next turn's timer
    await storage.close()


async def test_a_resume_times_out_an_overdue_turn_after_a_grace_not_at_once(
    database: Path | str,
) -> None:
    """What a restart and a fleet worker taking shards both call: a turn that ran out while no
    process ran its game is not timed out at once, as its player's tap may be waiting to be
    read (at Telegram, in the fleet's queue); its time-out job runs after the grace, and a
    turn due later at its deadline."""
    storage = Storage(database)
    await storage.open()
    clock = Clock()
    service, game = await timed_game(storage, clock)
    before = game.move_no
    clock.now += 91
    jobs = RecordingJobs()
    timers = Timers(jobs, service, Locks(), clock=clock, overdue_grace=4.0)  # type: ignore[arg-type]
    await timers.resume([game])
    assert game.move_no == before and not game.timer.timeouts
    assert jobs.when == {f"turn:{game.game_id}": 4.0}
    game.deadline = clock.now + 60  # a turn due later: at its deadline, warned at half-time
    await timers.resume([game])
    assert jobs.when == {f"turn:{game.game_id}": 60.0, f"warn:{game.game_id}": 15.0}
    await storage.close()


async def test_an_overdue_turn_waits_for_its_games_queued_updates_for_a_while_only(
    database: Path | str,
) -> None:
    """A fleet worker that took a shard after the whole fleet was down may still be handling
    a group's backlog when the grace ends: the turn's time-out then waits while that group's
    updates are queued (a tap among them may be the move), a step at a time, but not past
    its wait: a group that goes on chatting does not hold the turn for ever."""
    storage = Storage(database)
    await storage.open()
    clock = Clock()
    service, game = await timed_game(storage, clock)
    before = game.move_no
    clock.now += 91
    jobs = RecordingJobs()
    timers = Timers(jobs, service, Locks(), clock=clock, overdue_grace=4.0)  # type: ignore[arg-type]
    timers.queued = lambda queued: queued is game
    await timers.resume([game])
    turn = SimpleNamespace(job=SimpleNamespace(name=f"turn:{game.game_id}",
                                               data=(game.game_id, before)))
    clock.now += 4
    await timers._job(turn)  # type: ignore[arg-type]
    assert game.move_no == before and jobs.when[f"turn:{game.game_id}"] == OVERDUE_STEP
    clock.now += OVERDUE_WAIT
    await timers._job(turn)  # type: ignore[arg-type]
    assert game.move_no > before and game.timer.timeouts  # its wait is over: timed out
    await storage.close()


async def test_timers_find_their_jobs_by_name_without_scanning_the_queue(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A move re-arms its game's jobs by their names, kept by the timers: the job queue's own
    search by name wraps every job it holds (1.7 ms a move with 1,000 jobs). Re-arming
    replaces the game's jobs and leaves other games' alone; a job that has run is not removed
    again (the scheduler dropped it when it ran)."""
    from telegram.ext import ApplicationBuilder, JobQueue

    ran: list[str] = []
    application = ApplicationBuilder().token("1:A").build()
    jobs = application.job_queue
    assert jobs is not None
    jobs.set_application(application)
    await jobs.start()
    try:
        timers = Timers(jobs, SimpleNamespace(), Locks(), clock=lambda: 0.0,  # type: ignore[arg-type]
                        computer_pause=0.01)

        async def job(context: object) -> None:
            ran.append(context.job.name)  # type: ignore[attr-defined]

        timers._job = job  # type: ignore[method-assign]

        def game(game_id: int, move_no: int, computer: bool) -> Game:
            return SimpleNamespace(  # type: ignore[return-value]
                game_id=game_id, move_no=move_no, status=Status.PLAYING, deadline=3600.0,
                turn_seconds=90, timer=SimpleNamespace(warned=False),
                match=SimpleNamespace(to_move=0),
                players=[SimpleNamespace(is_computer=computer)])

        for game_id in range(1, 201):
            timers.schedule(game(game_id, 0, computer=False))
        assert len(jobs.jobs()) == 400  # a turn and a half-time warning each
        monkeypatch.setattr(JobQueue, "get_jobs_by_name",
                            lambda self, name: pytest.fail("scanned the queue"))
        timers.schedule(game(7, 1, computer=True))  # a computer's turn now
        assert len(jobs.jobs()) == 401
        assert {j.data for j in jobs.jobs() if j.name and j.name.endswith(":7")} == {(7, 1)}
        await asyncio.sleep(0.2)  # the computer's job runs and leaves the scheduler
        assert ran == ["computer:7"]
        timers.schedule(game(7, 2, computer=False))  # re-armed after it ran: no error
        timers.cancel(8)
        names = [j.name for j in jobs.jobs()]
        assert len(names) == 398 and "turn:8" not in names and names.count("turn:7") == 1
    finally:
        await jobs.stop(wait=False)


async def test_a_player_back_with_the_matchs_last_move_is_not_said_to_be_back(
        database: Path | str) -> None:
    """Every move of this match is made by a seat that was away, by its own hand: each is
    said to be back, but for the move that ends the match (its result says the rest)."""
    storage = Storage(database)
    await storage.open()
    try:
        service, game = await timed_game(storage, Clock())
        match = game.match
        assert match is not None
        match.options = replace(match.options, target=1)  # the first hand won ends it
        moves = 0
        while game.status is Status.PLAYING:
            seat = match.to_move
            assert seat is not None
            game.timer.away[:] = [seat]
            await service.act(game, game.players[seat].user_id, game.move_no,
                              match.legal_actions()[0])
            moves += 1
        texts = [item.text for item in await storage.pending_outbox(game.game_id)]
        backs = [text for text in texts if text.startswith("back ")]
        assert game.status is Status.FINISHED and texts[-1].startswith("match over")
        assert len(backs) == moves - 1 and not texts[-2].startswith("back ")
    finally:
        await storage.close()
