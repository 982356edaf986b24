"""The rate limiter's own bookkeeping, with no sleep and no timing: what it forgets
of the chats it sent to (on a fake clock), and when a larger part of the overall limit is
due (read from its schedule)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.publishing.floodwindows import Limits
from bot.publishing.ratelimit import FloodLimiter

MANY = 4100  # more chats than the limiter keeps windows for without looking


def on_fake_clock(now: list[float]) -> tuple[FloodLimiter, Callable[[int], Awaitable[object]]]:
    """A limiter on the clock ``now[0]`` whose overall limit never holds a call back, and a
    send to a chat through it."""
    limiter = FloodLimiter(Limits(overall=(10 * MANY, 1.0)), clock=lambda: now[0])

    async def call() -> bool:
        return True

    async def send(chat: int) -> object:
        return await limiter.process_request(call, (), {}, "sendMessage", {"chat_id": chat},
                                             None)
    return limiter, send


async def test_chats_sent_to_long_ago_are_forgotten() -> None:
    # Each chat sent to kept the end of its last send for ever (only a look at that chat
    # dropped it), so no chat was ever forgotten: the windows grew with every person and
    # group the bot ever wrote to, and past 4096 each new chat looked through them all.
    now = [0.0]
    limiter, send = on_fake_clock(now)
    for chat in range(1, MANY // 2 + 1):
        await send(chat)
        await send(-chat)
    now[0] = 61.0  # a group's minute and a private chat's 3 s are over for every one
    await send(MANY)
    assert len(limiter._chats) == 1


async def test_a_private_chats_part_is_kept_while_its_windows_are_forgotten() -> None:
    # A part of a private window (another worker sends there too) is kept, even when nothing
    # of it is held: forgotten, the window would come back whole, and its growth (the other
    # table ended) would go unseen, with no slot counted for what the other worker sent.
    now = [0.0]
    limiter, send = on_fake_clock(now)
    senders = {7: 2}

    async def count(chat: int) -> int:
        return senders.get(chat, 1)

    limiter.senders = count
    await send(7)  # one send in 3 s: this worker's part
    for chat in range(1, MANY):
        await send(-chat)
    now[0] = 61.0
    await send(-MANY)
    assert set(limiter._chats) == {7, -MANY}
    senders[7] = 1  # the other table ended: the whole window, but the other part was used
    await send(7)
    assert not limiter.free_now(7)


async def test_a_worker_joining_waits_its_delay_whatever_part_it_is_told_meanwhile() -> None:
    # A worker joining sends nothing counted until the others have seen it and shrunk their
    # parts (join_overall's delay). Told a larger part meanwhile (a third worker left), it
    # raised its part a period after that, before the others may have seen it.
    limiter = FloodLimiter(Limits(overall=(30, 1.0)))
    limiter.join_overall(3, 5.0)
    assert limiter._raising is not None
    due = limiter._raising.when()
    limiter.share_overall(2)
    assert limiter._overall.count == 0
    assert limiter._raising is not None and limiter._raising.when() >= due
    limiter.share_overall(4)  # a smaller part (another joined): due as the larger one was
    assert limiter._raising is not None and limiter._raising.when() == due
