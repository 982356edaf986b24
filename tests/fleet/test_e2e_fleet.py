"""The fleet end to end: a real PostgreSQL, the fake Bot API server delivering by webhook
through a load balancer to two receivers, three workers, all separate processes; 30 tables at
once (people tapping their hands, and computer players; six games); one worker SIGKILLed
mid-game and started again, one receiver SIGKILLed. Every match must end with the scores the
engine gives for its stored actions, every tap be answered once, Telegram's limits be kept by
the fleet as a whole, no request break the Bot API's schema, and no log show an error.

The first tests check the fake server's side of this (the balancer and the accounting) alone.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
import telegram
from aiohttp import web
from fleet_kit import outcomes

from fakeapi import FakeTelegramServer, RateLimits, WebhookTiming
from testservers import free_port
from testservers.fleet import Fleet
from testservers.tables import Table, open_tables

GAMES = ("gaple", "pair", "kolbasa", "muggins", "matador", "bergen")
#: 30 tables: two in three of four people, one in three of one person and three computers.
PLAN = tuple((f"{GAMES[n % len(GAMES)]} target=1", 1 if n % 3 == 2 else 4) for n in range(30))


# --- the fake server's balancer and accounting -------------------------------------------------
class Receiver:
    """A receiver that answers ``status`` (or is not there at all when stopped)."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.port = free_port()
        self.got: list[int] = []
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/telegram"

    async def _hook(self, request: web.Request) -> web.Response:
        self.got.append((await request.json())["update_id"])
        return web.Response(status=self.status)

    async def start(self) -> Receiver:
        app = web.Application()
        app.router.add_post("/telegram", self._hook)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegramServer]:
    timing = WebhookTiming(timeout=0.5, first_retry=0.02, max_retry=0.1)
    async with FakeTelegramServer(webhook_timing=timing) as server:
        yield server
        server.assert_no_violations()


@pytest.fixture
async def slow_to_retry() -> AsyncIterator[FakeTelegramServer]:
    """A fake whose webhook backs off 5 s once every receiver failed an update: a gap that
    long between two attempts is a back-off, not the machine's load (CI saw 0.33 s between
    two attempts with a back-off of 0.02 s at most, on a loaded machine)."""
    timing = WebhookTiming(timeout=0.5, first_retry=5.0, max_retry=5.0)
    async with FakeTelegramServer(webhook_timing=timing) as server:
        yield server
        server.assert_no_violations()


async def test_the_balancer_takes_turns_and_skips_a_receiver_that_fails(
    slow_to_retry: FakeTelegramServer
) -> None:
    fake = slow_to_retry
    up, failing, gone = Receiver(), Receiver(503), Receiver()
    await up.start()
    await failing.start()
    alice = fake.add_user("Alice", started=True)
    try:
        async with telegram.Bot(fake.token, base_url=fake.base_url) as ptb:
            await ptb.set_webhook("https://127.0.0.1:8443/telegram", secret_token="s")
        fake.webhook.balance([up.url, failing.url, gone.url])
        for n in range(6):
            alice.send_private(f"m{n}")
        await fake.wait_for(lambda: len(fake.webhook.deliveries) == 6, timeout=5)
    finally:
        await up.stop()
        await failing.stop()
    assert up.got == [1, 2, 3, 4, 5, 6]  # in order, each once, though two in three failed
    urls = [a.url for a in fake.webhook.attempts]
    assert urls[:4] == [up.url, failing.url, gone.url, up.url]  # round-robin, failing skipped
    errors = {a.error for a in fake.webhook.attempts if not a.delivered}
    assert errors == {"Wrong response from the webhook: 503 Service Unavailable",
                      "Connection refused"}
    gaps = [b.at - a.at for a, b in zip(fake.webhook.attempts, fake.webhook.attempts[1:],
                                         strict=False)]
    assert max(gaps) < 2.5  # no back-off while another receiver was left to try


async def test_answers_per_tap_and_the_limits_over_the_whole_bot() -> None:
    limits = RateLimits(overall_per_second=None, group_per_minute=None, private_per_period=3)
    async with FakeTelegramServer(rate_limits=limits) as fake:
        alice = fake.add_user("Alice", started=True)
        async with telegram.Bot(fake.token, base_url=fake.base_url) as ptb:
            markup = telegram.InlineKeyboardMarkup(
                [[telegram.InlineKeyboardButton("Tap", callback_data="t")]])
            sent = await ptb.send_message(alice.id, "one", reply_markup=markup)
            message = fake.message(alice.private_chat, sent.message_id)
            once, twice, never = (alice.press(message, "Tap") for _ in range(3))
            await ptb.answer_callback_query(once.id)
            await ptb.answer_callback_query(twice.id)
            with pytest.raises(telegram.error.BadRequest, match="too old"):
                await ptb.answer_callback_query(twice.id)
            await ptb.send_message(alice.id, "two")
            await ptb.send_message(alice.id, "three")
            with pytest.raises(telegram.error.RetryAfter):
                await ptb.send_message(alice.id, "four: the fourth in 3 s")
        answers = fake.tap_answers()
        assert (answers.taps, answers.twice, answers.unanswered) == (3, (twice.id,), (never.id,))
        report = fake.limit_report()
        assert (report.private_window, report.too_many) == (3, 1)
        assert report.broken() == [] and report.broken(private=2) != []


# --- the fleet ------------------------------------------------------------------------------
async def chaos(fleet: Fleet, tables: list[Table], events: dict[str, Any]) -> None:
    """Mid-game: SIGKILL a worker, start it again seconds later; then SIGKILL a receiver."""

    async def moves_reach(count: int) -> None:
        while sum(t.moves for t in tables) < count:
            await asyncio.sleep(0.1)

    await moves_reach(40)
    await fleet.members["worker-2"].kill()
    events["worker_killed_at_moves"] = sum(t.moves for t in tables)
    await asyncio.sleep(6)
    await fleet.members["worker-2"].start()
    await moves_reach(events["worker_killed_at_moves"] + 60)
    await fleet.members["receiver-1"].kill()
    events["receiver_killed_at_moves"] = sum(t.moves for t in tables)


async def test_thirty_tables_finish_right_through_a_dying_worker_and_receiver(
    fleet: Fleet, bot_api: FakeTelegramServer
) -> None:
    started = time.monotonic()
    await fleet.add_receiver("receiver-1")
    await fleet.add_receiver("receiver-2")
    for name in ("worker-1", "worker-2", "worker-3"):
        await fleet.add_worker(name)
    await fleet.wait_workers(3)
    tables = await open_tables(bot_api, PLAN, seed=2300)
    events: dict[str, Any] = {}
    trouble = asyncio.create_task(chaos(fleet, tables, events))
    await asyncio.gather(*(table.play() for table in tables))
    await trouble
    await bot_api.wait_idle(quiet=1.0, timeout=60)

    answers = bot_api.tap_answers()
    report = bot_api.limit_report()
    retaps = sum(t.retaps for t in tables)
    summary = {"seconds": round(time.monotonic() - started, 1), "moves": sum(
        t.moves for t in tables), "taps": answers.taps, "retaps": retaps,
        "unanswered": len(answers.unanswered), "answered_twice": len(answers.twice),
        "limits": report.__dict__, **events}
    print("fleet e2e:", json.dumps(summary))

    results = await outcomes(fleet.database_url or "", [t.chat for t in tables])
    assert [r for r in results if not r.agrees] == []
    for table, result in zip(tables, results, strict=True):
        announced = [m.text or m.caption or "" for m in bot_api.bot_messages(table.chat)
                     if "The match is over" in (m.text or m.caption or "")]
        assert len(announced) == 1, f"{table.chat.name}: the match's end said {len(announced)}x"
        assert result.announced_in(announced[0]), (table.chat.name, announced[0], result)
    assert answers.twice == ()
    assert len(answers.unanswered) <= retaps  # each one left by a death was tapped again
    assert report.broken(group=20, overall=30, private=3) == [], \
        bot_api.crowded_private_windows()
    assert report.too_many == 0
    bot_api.assert_no_violations()
    assert fleet.log_problems() == []
