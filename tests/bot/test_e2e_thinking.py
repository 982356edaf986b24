"""Computer players think in the thinker's process pool: matches play through, an answer
counts only at the move it was asked for, and a broken pool never leaves a game stuck."""

from __future__ import annotations

import os
import signal
import time

from bot_kit import Group, lobby_button

from bot.handlers.runtime import Runtime
from bot.models import Status
from fakeapi.players import Table


async def against_computer(group: Group, level: int = 2) -> Table:
    """Ayu opens French to a target of 1 and seats a computer player (2: hard), and starts."""
    ayu = group.users[0]
    ayu.send_private("/start")
    group.send(ayu, "/newgame french target=1")
    lobby = await group.server.wait_for(group._lobby_or_none)
    record = ayu.press(lobby, f"a:{group.game().game_id}:{level}")
    await group.server.wait_for(lambda: record.answered)
    record = ayu.press(lobby, lobby_button(lobby, "s") or "")
    await group.server.wait_for(lambda: record.answered)
    assert record.answer_text == "Let's play!"
    return Table(group.server, [ayu])


def computer_moves(group: Group) -> int:
    game = group.game()
    assert game.match is not None
    return sum(1 for hand in game.match.hands for seat, _ in hand.moves if seat == 1)


def kill_workers(runtime: Runtime) -> None:
    pool = runtime.timers.thinker._pool
    assert pool is not None
    for process in list(pool._processes.values()):  # type: ignore[union-attr]
        if process.pid:
            os.kill(process.pid, signal.SIGKILL)


async def test_a_match_against_the_hard_player_plays_through_the_pool(group: Group) -> None:
    async with group.bot(computer_pause=0) as runtime:
        table = await against_computer(group)
        await table.play_until(group.match_over)
        thinker = runtime.timers.thinker
        assert (thinker.restarts, thinker.inline) == (0, 0)
    assert group.game().status is Status.FINISHED
    assert computer_moves(group) > 0


async def test_a_killed_pool_is_replaced_and_the_match_goes_on(group: Group) -> None:
    async with group.bot(computer_pause=0) as runtime:
        table = await against_computer(group)
        kill_workers(runtime)
        await table.play_until(group.match_over)
        thinker = runtime.timers.thinker
        assert thinker.restarts == 1 and thinker.inline == 1
    assert group.game().status is Status.FINISHED
    assert computer_moves(group) > 1  # after the one made inline, the new pool made more


async def test_an_answer_counts_only_at_the_move_it_was_asked_for(group: Group) -> None:
    async with group.bot(computer_pause=600) as runtime:  # the timers never move here
        table = await against_computer(group)
        game = group.game()
        while True:
            assert game.match is not None
            if game.match.to_move == 1:
                break
            await table.play_one()
        service = runtime.service
        question = service.computer_question(game, game.move_no)
        assert question is not None and question.seat == 1
        choice = await runtime.timers.thinker.choose(question)
        assert choice is not None
        async with runtime.locks.game(game.game_id):
            assert await service.computer_move(game, question, choice)  # played
            after = game.move_no
            assert after != question.move_no
            assert await service.computer_move(game, question, choice) == []  # not twice
        assert game.move_no == after
        assert service.computer_question(game, question.move_no) is None


async def test_a_computer_move_due_while_the_bot_was_busy_is_still_made(group: Group) -> None:
    """A job more than a second late (a loaded machine) runs all the same: else the
    computer's turn would wait for a restart."""
    async with group.bot(computer_pause=1.0):
        table = await against_computer(group, level=0)
        game = group.game()
        assert game.match is not None
        if game.match.to_move != 1:
            await table.play_one()
        assert game.match.to_move == 1  # its move is due in a second
        before = computer_moves(group)
        time.sleep(2.5)  # the event loop is blocked past the job's time, and its grace
        await group.server.wait_for(lambda: computer_moves(group) > before, timeout=10,
                                    message="the late computer move was never made")
