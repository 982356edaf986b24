"""Bot API calls counted by method and outcome around a real rate limiter, against the fake
Bot API server: an answer, a 429 retried, a refusal, and no answer at all."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
import telegram
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.ext import AIORateLimiter, ExtBot

from bot.publishing.metering import MeteredLimiter, outcome_of
from bot.serving.metrics import ApiOutcome, Metrics
from fakeapi import FakeTelegramServer


def calls(metrics: Metrics) -> dict[tuple[str, str], float]:
    return {
        (sample.labels["method"], sample.labels["outcome"]): sample.value
        for family in metrics.registry.collect()
        if family.name == "domino_bot_api_calls"
        for sample in family.samples
        if sample.name.endswith("_total")
    }


@pytest.fixture
async def telegram_server() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer() as server:
        yield server


def metered_bot(base: str, metrics: Metrics, token: str) -> ExtBot[Any]:
    limiter = MeteredLimiter(AIORateLimiter(max_retries=1), metrics)
    return ExtBot(token, base_url=f"{base}/bot", rate_limiter=limiter)


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_each_attempt_is_counted_with_its_outcome(
    telegram_server: FakeTelegramServer,
) -> None:
    metrics = Metrics()
    alice = telegram_server.add_user("Alice", started=True)
    carol = telegram_server.add_user("Carol")
    async with metered_bot(telegram_server.api_root, metrics, telegram_server.token) as bot:
        telegram_server.fail_next("sendMessage", retry_after=1)
        await bot.send_message(alice.id, "after one flood wait")  # AIORateLimiter retries
        with pytest.raises(Forbidden):
            await bot.send_message(carol.id, "never started the bot")
        telegram_server.fail_next("sendChatAction")
        with pytest.raises(BadRequest):
            await bot.send_chat_action(alice.id, "typing")
    assert calls(metrics) == {
        ("getMe", "ok"): 1,
        ("sendMessage", "retry_after"): 1,
        ("sendMessage", "ok"): 1,
        ("sendMessage", "refused"): 1,
        ("sendChatAction", "refused"): 1,
    }
    assert metrics.telegram_answered_within(60)


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_a_failing_answer_hook_does_not_fail_the_call(
    telegram_server: FakeTelegramServer, caplog: pytest.LogCaptureFixture,
) -> None:
    """The message was sent: a fault in what notes its answer is logged, and the send still
    returns its message (failed, it could be sent twice)."""
    def broken(endpoint: str, answer: object) -> None:
        raise KeyError("tails")
    alice = telegram_server.add_user("Alice", started=True)
    limiter = MeteredLimiter(AIORateLimiter(max_retries=1), Metrics(), on_answer=broken)
    async with ExtBot(telegram_server.token, base_url=f"{telegram_server.api_root}/bot",
                      rate_limiter=limiter) as bot:
        sent = await bot.send_message(alice.id, "hello")
    assert sent.text == "hello"
    assert [r for r in caplog.records if "noting the answer to sendMessage" in r.getMessage()]


async def test_no_answer_is_a_network_outcome_and_not_an_answer() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    metrics = Metrics()
    bot = metered_bot(f"http://127.0.0.1:{port}", metrics, "123456:" + "A" * 35)
    with pytest.raises(NetworkError):
        await bot.initialize()  # getMe, to a port nobody listens on
    assert calls(metrics) == {("getMe", "network"): 1}
    assert not metrics.telegram_answered_within(60)


def test_outcome_of_each_telegram_error() -> None:
    assert outcome_of(None) is ApiOutcome.OK
    assert outcome_of(RetryAfter(3)) is ApiOutcome.RETRY_AFTER
    assert outcome_of(TimedOut()) is ApiOutcome.NETWORK
    assert outcome_of(NetworkError("reset")) is ApiOutcome.NETWORK
    assert outcome_of(BadRequest("message is not modified")) is ApiOutcome.REFUSED
    assert outcome_of(Forbidden("bot was blocked by the user")) is ApiOutcome.REFUSED
    assert outcome_of(telegram.error.Conflict("terminated")) is ApiOutcome.REFUSED
