"""A call held back by a limit that is no longer wanted when its turn to go comes (what it
says has become untrue meanwhile) is not made: :func:`bot.publishing.ratelimit.only_if`."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.publishing.ratelimit import FloodLimiter, Limits, WithdrawnError, only_if

GROUP = -5


async def test_a_call_no_longer_wanted_when_its_turn_comes_is_not_made() -> None:
    limiter = FloodLimiter(Limits(group=(1, 0.3)))
    made: list[str] = []

    async def call(text: str, **_: Any) -> bool:
        made.append(text)
        return True

    def send(text: str) -> asyncio.Future[Any]:
        return asyncio.ensure_future(limiter.process_request(
            call, (text,), {}, "sendMessage", {"chat_id": GROUP}, None))

    await send("first")  # the group's one slot
    wanted = True
    with only_if(lambda: wanted):
        held = send("held back")  # (the task keeps the context it was made in)
    await asyncio.sleep(0.1)
    assert not held.done()  # it waits for the slot
    wanted = False  # meanwhile, what it says became untrue
    with pytest.raises(WithdrawnError):
        await held
    await send("next")  # the slot was not spent on it
    assert made == ["first", "next"]
    with only_if(lambda: True):
        await send("wanted")
    assert made[-1] == "wanted"
