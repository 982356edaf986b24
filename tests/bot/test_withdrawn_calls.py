"""A call held back by a limit that is no longer wanted when its turn to go comes (what it
says has become untrue meanwhile) is not made: :func:`bot.publishing.ratelimit.only_if`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.publishing.floodwindows import Limits
from bot.publishing.ratelimit import FloodLimiter, WithdrawnError, only_if

GROUP = -5


def sender(limiter: FloodLimiter, made: list[str]
           ) -> Callable[..., asyncio.Future[Any]]:
    """A send to the group in a task of its own, asking ``wanted`` (if any) as it goes."""
    async def call(text: str, **_: Any) -> bool:
        made.append(text)
        return True

    def send(text: str, wanted: Callable[[], bool] | None = None) -> asyncio.Future[Any]:
        async def go() -> Any:
            request = limiter.process_request(call, (text,), {}, "sendMessage",
                                              {"chat_id": GROUP}, None)
            if wanted is None:
                return await request
            with only_if(wanted):
                return await request
        return asyncio.ensure_future(go())
    return send


async def test_a_call_no_longer_wanted_when_its_turn_comes_is_not_made() -> None:
    made: list[str] = []
    send = sender(FloodLimiter(Limits(group=(1, 0.3))), made)
    await send("first")  # the group's one slot
    wanted = True
    held = send("held back", lambda: wanted)
    await asyncio.sleep(0.1)
    assert not held.done()  # it waits for the slot
    wanted = False  # meanwhile, what it says became untrue
    with pytest.raises(WithdrawnError):
        await held
    await send("next")  # the slot was not spent on it
    assert made == ["first", "next"]
    await send("wanted", lambda: True)
    assert made[-1] == "wanted"


async def test_a_task_started_while_a_call_asks_does_not_inherit_its_question() -> None:
    """A send started from inside ``only_if`` (a sync requested while the lobby's call goes)
    is its own: the lobby's question must not withdraw a hand or a table."""
    made: list[str] = []
    send = sender(FloodLimiter(Limits(group=(1, 0.3))), made)
    await send("first")
    with only_if(lambda: False):
        other = send("another sync's")  # the task copies this context
    await other
    assert made == ["first", "another sync's"]
