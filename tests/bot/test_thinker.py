"""The computer players' process pool: the same decisions as inline, and a pool that breaks
or hangs is replaced without a game ever waiting for it."""

from __future__ import annotations

import asyncio
import multiprocessing.spawn
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from concurrent.futures import BrokenExecutor, Future, ProcessPoolExecutor
from pathlib import Path

import pytest

from benchmarks.memory import descendants
from bot.service import thinker as thinking
from bot.service.thinker import Question, Thinker, decide
from engine import DRAW, KNOCK, Match, ai, match_from_json, match_to_json, player_view


def positions() -> list[tuple[Match, int]]:
    """Matches of three games at several points of their first hand (each a real game
    played so far by the easy player), with the seat to move."""
    found: list[tuple[Match, int]] = []
    for game, seats in (("gaple", 4), ("french", 2), ("muggins", 3)):
        match = Match(game, seats, {})
        rng = random.Random(game)
        match.deal_hand(rng)
        for step in range(12):
            seat = match.to_move
            if match.hand.over or seat is None:
                break
            legal = match.legal_actions()
            if legal not in ((KNOCK,), (DRAW,)) and step % 3 == 0:
                found.append((match_from_json(match_to_json(match)), seat))
            match.apply(seat, ai.player("easy").choose(player_view(match, seat), rng))
    return found


def inline(match: Match, seat: int, level: str, seed: str) -> int:
    view = player_view(match, seat)
    return view.legal.index(ai.player(level).choose(view, random.Random(seed)))


@pytest.fixture
async def pool() -> AsyncIterator[Thinker]:
    thinker = Thinker(workers=1)
    thinker.start()
    yield thinker
    thinker.close()


def workers(thinker: Thinker) -> list[int]:
    pool = thinker._pool
    assert pool is not None
    return [p.pid for p in pool._processes.values() if p.pid]


async def test_the_pool_decides_as_the_player_does_inline(pool: Thinker) -> None:
    cases = positions()
    assert len(cases) >= 6
    for number, (match, seat) in enumerate(cases):
        for level in ai.LEVELS:
            seed = f"{number}:{level}"
            question = Question.of(match, seat, level, seed, move_no=number)
            assert await pool.choose(question) == inline(match, seat, level, seed)
            assert decide(question) == inline(match, seat, level, seed)
    assert pool.restarts == 0 and pool.inline == 0


async def test_a_killed_worker_is_replaced_and_the_move_still_made(pool: Thinker) -> None:
    match, seat = positions()[0]
    question = Question.of(match, seat, "hard", "s", 1)
    expected = inline(match, seat, "hard", "s")
    assert await pool.choose(question) == expected  # the pool works
    for pid in workers(pool):
        os.kill(pid, signal.SIGKILL)
    assert await pool.choose(question) == expected  # made inline while the pool is replaced
    assert pool.restarts == 1 and pool.inline == 1
    assert await pool.choose(question) == expected  # and the new pool answers again
    assert pool.restarts == 1 and pool.inline == 1


async def test_a_hung_worker_is_replaced(pool: Thinker, monkeypatch: pytest.MonkeyPatch) -> None:
    match, seat = positions()[0]
    question = Question.of(match, seat, "normal", "s", 1)
    assert await pool.choose(question) == inline(match, seat, "normal", "s")
    stopped = workers(pool)
    for pid in stopped:
        os.kill(pid, signal.SIGSTOP)  # alive, but never answers
    monkeypatch.setattr(thinking, "PATIENCE", 0.5)
    assert await pool.choose(question) == inline(match, seat, "normal", "s")
    assert pool.restarts == 1 and pool.inline == 1
    for pid in stopped:
        assert await gone(pid)  # the hung worker was killed, not left behind


async def gone(pid: int) -> bool:
    for _ in range(500):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        await asyncio.sleep(0.01)
    return False


async def test_a_closed_thinker_makes_no_move() -> None:
    thinker = Thinker(workers=1)
    thinker.start()
    started = workers(thinker)
    thinker.close()
    match, seat = positions()[0]
    assert await thinker.choose(Question.of(match, seat, "easy", "s", 1)) is None
    for pid in started:
        assert await gone(pid)


# A bot-like parent: a thinker whose pool has answered once, then nothing but waiting.
PARENT = """
import asyncio, sys, time
from bot.service.thinker import Question, Thinker
from engine import Match
match = Match("gaple", 4, {})
match.deal_hand(__import__("random").Random(1))
thinker = Thinker(workers=2)
thinker.start()
asyncio.run(thinker.choose(Question.of(match, match.to_move, "easy", "s", 0)))
print("ready", flush=True)
time.sleep(120)
"""


def running(pid: int) -> bool:
    """Whether the process is there and not a zombie (an orphan's zombie may wait for a
    reaper that never comes: it is gone all the same)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_no_worker_outlives_a_killed_bot_and_none_writes_a_line() -> None:
    """Nor does the resource tracker, which removes the pool's semaphores, warn of them
    ("There appear to be 5 leaked semaphore objects") in the bot's log."""
    root = Path(__file__).resolve().parents[2]
    parent = subprocess.Popen([sys.executable, "-c", PARENT], cwd=root, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE,
                              env={**os.environ, "PYTHONPATH": str(root)}, text=True)
    try:
        assert parent.stdout is not None and parent.stdout.readline() == "ready\n"
        left = descendants(parent.pid)  # the forkserver, its two workers, the resource tracker
        assert len(left) >= 3
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while any(running(pid) for pid in left) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = [pid for pid in left if running(pid)]
    for pid in survivors:  # not to leave them to the next test either
        os.kill(pid, signal.SIGKILL)
    assert parent.stderr is not None
    written = parent.stderr.read()  # to its end: every process holding it has ended
    assert survivors == []
    assert written == "", written


async def test_where_no_process_pool_can_be_made_the_players_think_in_a_thread(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A container without a writable /dev/shm cannot make the pool's locks: the bot starts
    all the same, says so in one line, and makes every decision as the pool would."""
    def refused(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(thinking, "ProcessPoolExecutor", refused)
    thinker = Thinker(workers=1)
    thinker.start()
    match, seat = positions()[0]
    for number in range(2):
        question = Question.of(match, seat, "hard", f"seed {number}", move_no=number)
        assert await thinker.choose(question) == inline(match, seat, "hard", f"seed {number}")
    thinker.close()
    assert thinker.inline == 2 and thinker.restarts == 0
    said = [r for r in caplog.records if r.name == thinking.log.name]
    assert [r.levelname for r in said] == ["WARNING"] and not any(r.exc_info for r in said)
    assert "[Errno 13] Permission denied" in said[0].getMessage()


@pytest.mark.parametrize("refusal", [ConnectionRefusedError(111, "Connection refused"),
                                     BrokenPipeError(32, "Broken pipe"),
                                     BrokenExecutor("A child process terminated")])
async def test_a_pool_whose_workers_cannot_start_leaves_the_players_thinking_in_a_thread(
        refusal: Exception, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Operator QA: where the workers cannot start (the venv's python not runnable by the
    service user), the pool is made but its first submit() raises: the bot crashed with a
    traceback. It now says so in the one WARNING and thinks in a thread."""
    class Refusing(ProcessPoolExecutor):
        def submit(self, *args: object, **kwargs: object) -> Future[int]:  # type: ignore[override]
            raise refusal

    monkeypatch.setattr(thinking, "ProcessPoolExecutor", Refusing)
    thinker = Thinker(workers=1)
    thinker.start()
    match, seat = positions()[0]
    question = Question.of(match, seat, "easy", "seed", move_no=0)
    assert await thinker.choose(question) == inline(match, seat, "easy", "seed")
    thinker.close()
    assert thinker.inline == 1 and thinker.restarts == 0
    said = [r for r in caplog.records if r.name == thinking.log.name]
    assert [r.levelname for r in said] == ["WARNING"] and not any(r.exc_info for r in said)
    assert "think in a thread of the bot" in said[0].getMessage()
    assert type(refusal).__name__ in said[0].getMessage()


async def test_a_python_the_bot_cannot_run_is_said_before_any_pool_is_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Operator QA: the workers' python not runnable by the service user. Said at once, in
    the one WARNING, before the pool's locks and resource tracker are made (whose failures
    at exit were lines of noise)."""
    python = tmp_path / "python"
    python.write_text("")
    python.chmod(0o644)

    def made(*args: object, **kwargs: object) -> None:
        raise AssertionError("a pool was made")

    monkeypatch.setattr(multiprocessing.spawn, "get_executable", lambda: os.fsencode(python))
    monkeypatch.setattr(thinking, "ProcessPoolExecutor", made)
    thinker = Thinker(workers=1, method="spawn")
    thinker.start()
    thinker.close()
    said = [r for r in caplog.records if r.name == thinking.log.name]
    assert [r.getMessage() for r in said] == [
        "computer players think in a thread of the bot, not in worker processes: the system "
        f"gave no process pool (its python {str(python)!r} cannot be run by this user)"]
