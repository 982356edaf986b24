"""The picture thread: the group's table is drawn before the hands that queued earlier."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest

from bot.presentation.painter import Painter, Steps, Urgency


def _drawing(name: str, order: list[str], started: threading.Event | None = None,
             wait: threading.Event | None = None) -> Callable[[], bytes]:
    def draw() -> bytes:
        if started is not None and wait is not None:
            started.set()
            assert wait.wait(10)
        order.append(name)
        return name.encode()
    return draw


async def test_the_table_is_drawn_before_hands_asked_for_earlier() -> None:
    painter = Painter()
    order: list[str] = []
    started, busy = threading.Event(), threading.Event()
    first = painter.draw(_drawing("hand under way", order, started, busy), Urgency.HAND)
    assert await asyncio.to_thread(started.wait, 10)
    queued = [painter.draw(_drawing(f"hand {n}", order), Urgency.HAND) for n in (1, 2)]
    table = painter.draw(_drawing("table", order), Urgency.TABLE)
    busy.set()
    assert await table == b"table"
    await asyncio.gather(first, *queued)
    assert order == ["hand under way", "table", "hand 1", "hand 2"]
    painter.close()


async def test_a_failed_drawing_raises_in_the_caller_and_the_thread_goes_on() -> None:
    painter = Painter()

    def broken() -> bytes:
        raise ValueError("no such theme")

    with pytest.raises(ValueError, match="no such theme"):
        await painter.draw(broken, Urgency.TABLE)
    assert await painter.draw(lambda: b"next", Urgency.HAND) == b"next"
    painter.close()


async def test_a_closed_painter_finishes_what_it_was_asked_then_its_thread_ends() -> None:
    painter = Painter(name="pictures-test")
    drawn = painter.draw(lambda: b"last", Urgency.HAND)
    painter.close()
    assert await drawn == b"last"
    for _ in range(100):
        if not any(t.name == "pictures-test" for t in threading.enumerate()):
            break
        await asyncio.sleep(0.01)
    assert not any(t.name == "pictures-test" for t in threading.enumerate())


async def test_a_table_asked_for_during_a_replay_is_drawn_between_its_steps() -> None:
    painter = Painter()
    order: list[str] = []
    started, go_on = threading.Event(), threading.Event()

    def replay() -> Steps:
        order.append("replay 1")
        started.set()
        assert go_on.wait(10)  # the table is asked for while this step runs
        yield
        order.append("replay 2")
        yield
        order.append("replay 3")
        return b"gif"

    replayed = painter.draw_steps(replay(), Urgency.REPLAY)
    later_replay = painter.draw(_drawing("another replay", order), Urgency.REPLAY)
    assert await asyncio.to_thread(started.wait, 10)
    table = painter.draw(_drawing("table", order), Urgency.TABLE)
    hand = painter.draw(_drawing("hand", order), Urgency.HAND)
    go_on.set()
    assert await asyncio.gather(replayed, later_replay, table, hand) == [
        b"gif", b"another replay", b"table", b"hand"]
    # The replay's first step ends before the table; its rest comes after the table and the
    # hand, and before the replay asked for after it.
    assert order == ["replay 1", "table", "hand", "replay 2", "replay 3", "another replay"]
    painter.close()


async def test_a_replay_that_fails_at_a_step_raises_in_the_caller() -> None:
    painter = Painter()

    def replay() -> Steps:
        yield
        raise ValueError("a hand not finished")

    with pytest.raises(ValueError, match="a hand not finished"):
        await painter.draw_steps(replay(), Urgency.REPLAY)
    assert await painter.draw(lambda: b"next", Urgency.TABLE) == b"next"
    painter.close()
