"""The thinking pool when something fails: a decision queued when the pool is replaced (for
another game's sake) is still made, as it would have been; a decision that raises for its
position costs neither the pool nor the game's move; a stop still stops (review)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import AsyncIterator

import pytest
from test_thinker import inline, positions, workers

from bot.service import thinker as thinking
from bot.service.thinker import Question, Thinker
from engine import player_view
from engine.ai import safest_action


@pytest.fixture
async def pool() -> AsyncIterator[Thinker]:
    thinker = Thinker(workers=1)
    thinker.start()
    match, seat = positions()[0]
    await thinker.choose(Question.of(match, seat, "easy", "warm", 0))  # the worker is up
    yield thinker
    thinker.close()


def stopped(thinker: Thinker) -> list[int]:
    """The pool's workers stopped (alive, answering nothing): what is asked queues."""
    pids = workers(thinker)
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    return pids


async def test_decisions_queued_when_the_pool_is_replaced_are_made_all_the_same(
        pool: Thinker) -> None:
    """One worker (a two-core machine): other games' decisions wait behind the one it
    thinks about. The pool replaced meanwhile (a decision that hung, a worker killed) took
    them with it: each is asked of the new pool and answered as it would have been."""
    cases = positions()[:5]
    stopped(pool)
    questions = [Question.of(match, seat, "normal", f"queued {n}", n)
                 for n, (match, seat) in enumerate(cases)]
    asked = [asyncio.create_task(pool.choose(question)) for question in questions]
    await asyncio.sleep(0.3)  # all of them queued
    pool._replace()  # what another game's broken or hung decision does
    answers = await asyncio.wait_for(asyncio.gather(*asked), 60)
    assert answers == [inline(match, seat, "normal", f"queued {n}")
                       for n, (match, seat) in enumerate(cases)]
    assert pool.restarts == 1 and pool.inline == 0  # asked again of the new pool


async def test_a_decision_that_raises_costs_neither_the_pool_nor_the_move(
        pool: Thinker, caplog: pytest.LogCaptureFixture) -> None:
    """The pool was replaced for it (every two seconds, for ever, as its game's computer
    move was tried again), and its game waited for a move that never came. Now the seat
    plays the safest move, as a time-out would: the same every time."""
    match, seat = positions()[1]
    question = Question.of(match, seat, "no such level", "s", 3)
    before = workers(pool)
    view = player_view(match, seat)
    with caplog.at_level(logging.WARNING, logger=thinking.log.name):
        assert await pool.choose(question) == view.legal.index(safest_action(view))
    assert pool.restarts == 0 and workers(pool) == before
    said = [r for r in caplog.records if r.name == thinking.log.name]
    assert [r.levelname for r in said] == ["WARNING", "WARNING"]
    assert not any(r.exc_info for r in said)
    assert "unknown level 'no such level'" in said[0].getMessage()
    good = Question.of(match, seat, "hard", "s", 3)
    assert await pool.choose(good) == inline(match, seat, "hard", "s")
    assert pool.restarts == 0 and pool.inline == 1  # the pool answers on


async def test_a_stopped_caller_still_stops_while_its_decision_waits(pool: Thinker) -> None:
    match, seat = positions()[0]
    stopped(pool)
    asked = asyncio.create_task(pool.choose(Question.of(match, seat, "normal", "s", 1)))
    await asyncio.sleep(0.3)
    asked.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asked
    assert pool.restarts == 0 and pool.inline == 0


async def test_a_thinker_closed_while_decisions_wait_makes_no_move(pool: Thinker) -> None:
    """The bot stopping (SIGTERM): the moves are made after its restart."""
    stopped(pool)
    asked = [asyncio.create_task(pool.choose(Question.of(match, seat, "normal", "s", n)))
             for n, (match, seat) in enumerate(positions()[:3])]
    await asyncio.sleep(0.3)
    pool.close()
    assert await asyncio.wait_for(asyncio.gather(*asked), 30) == [None, None, None]
    assert pool.restarts == 0 and pool.inline == 0
