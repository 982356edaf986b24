"""The fake server's webhook: registration as the Bot API words it, and delivery as Telegram does
it (POST with the secret header, in order, retried with back-off until a 2xx), over real HTTP to
an aiohttp receiver on 127.0.0.1."""

from __future__ import annotations

import asyncio
import socket
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import telegram
from aiohttp import web

from fakeapi import SECRET_HEADER, FakeTelegramServer, ProtocolViolationError, WebhookTiming
from fakeapi.webhook import Webhook

FAST = WebhookTiming(timeout=0.5, first_retry=0.02, max_retry=0.1)


class Receiver:
    """A webhook endpoint: answers each POST as ``script`` says (a status, or "slow" to outlast
    the fake's timeout), then 200; keeps every body and secret header it got, in order."""

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self.script: deque[int | str] = deque()
        self.received: list[tuple[str | None, dict[str, Any]]] = []
        self._runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    @property
    def texts(self) -> list[str]:
        return [body["message"]["text"] for _, body in self.received if "message" in body]

    async def _hook(self, request: web.Request) -> web.Response:
        self.received.append((request.headers.get(SECRET_HEADER), await request.json()))
        step = self.script.popleft() if self.script else 200
        if step == "slow":
            await asyncio.sleep(5)
            step = 200
        return web.Response(status=int(step))

    async def start(self) -> Receiver:
        app = web.Application()
        app.router.add_post("/hook", self._hook)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer(webhook_timing=FAST) as fake:
        yield fake
        fake.assert_no_violations()


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    started = await Receiver().start()
    yield started
    await started.stop()


@pytest.fixture
async def ptb(server: FakeTelegramServer) -> AsyncIterator[telegram.Bot]:
    bot = telegram.Bot(server.token, base_url=server.base_url, base_file_url=server.base_file_url)
    async with bot:
        yield bot


@pytest.fixture
def alice(server: FakeTelegramServer) -> Any:
    return server.add_user("Alice", started=True)


async def test_updates_arrive_in_order_with_the_secret_and_polling_is_refused(
    server: FakeTelegramServer, receiver: Receiver, ptb: telegram.Bot, alice: Any
) -> None:
    alice.send_private("before")
    assert await ptb.set_webhook(
        receiver.url,
        secret_token="s3cr-et_",
        max_connections=5,
        allowed_updates=["message", "callback_query"],
    )
    for n in range(5):
        alice.send_private(f"after {n}")
    await server.wait_for(lambda: len(receiver.received) == 6, timeout=5)
    assert receiver.texts == ["before", *(f"after {n}" for n in range(5))]
    assert {secret for secret, _ in receiver.received} == {"s3cr-et_"}
    ids = [body["update_id"] for _, body in receiver.received]
    assert ids == sorted(ids) and ids == [a.update_id for a in server.webhook.deliveries]
    info = await ptb.get_webhook_info()
    assert (info.url, info.pending_update_count, info.max_connections) == (receiver.url, 0, 5)
    assert info.allowed_updates == ("callback_query", "message")
    assert info.last_error_date is None and not info.has_custom_certificate
    with pytest.raises(telegram.error.Conflict, match="while webhook is active"):
        await ptb.get_updates()


async def test_a_failed_delivery_is_retried_and_holds_back_the_next(
    server: FakeTelegramServer, receiver: Receiver, ptb: telegram.Bot, alice: Any
) -> None:
    receiver.script.extend([500, 502, 403])
    await ptb.set_webhook(receiver.url)
    alice.send_private("first")
    alice.send_private("second")
    await server.wait_for(lambda: len(server.webhook.deliveries) == 2, timeout=5)
    assert receiver.texts == ["first"] * 4 + ["second"]
    assert [a.status for a in server.webhook.attempts] == [500, 502, 403, 200, 200]
    attempts = server.webhook.attempts
    assert attempts[1].at - attempts[0].at >= FAST.first_retry
    assert attempts[2].at - attempts[1].at >= 2 * FAST.first_retry  # the back-off doubles
    assert {secret for secret, _ in receiver.received} == {None}  # no secret set, no header
    info = await ptb.get_webhook_info()
    assert info.last_error_message == "Wrong response from the webhook: 403 Forbidden"
    assert info.last_error_date is not None and info.pending_update_count == 0


async def test_refused_and_slow_receivers_keep_the_update_until_it_lands(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any
) -> None:
    late = Receiver(free_port())
    await ptb.set_webhook(late.url, secret_token="abc")
    alice.send_private("kept")
    await server.wait_for(lambda: len(server.webhook.attempts) >= 2, timeout=5)
    info = await ptb.get_webhook_info()
    assert (info.pending_update_count, info.last_error_message) == (1, "Connection refused")
    late.script.append("slow")
    await late.start()
    try:
        await server.wait_for(lambda: server.webhook.deliveries, timeout=5)
    finally:
        await late.stop()
    assert "Read timeout expired" in {a.error for a in server.webhook.attempts}
    assert late.texts == ["kept", "kept"]  # the timed-out POST arrived too: sent again
    assert (await ptb.get_webhook_info()).pending_update_count == 0


async def test_delete_webhook_stops_delivery_and_polling_resumes(
    server: FakeTelegramServer, receiver: Receiver, ptb: telegram.Bot, alice: Any
) -> None:
    poll = asyncio.create_task(ptb.get_updates(timeout=5))
    await server.wait_for(lambda: server.world.updates.polls_waiting, timeout=2)
    await ptb.set_webhook(receiver.url)
    with pytest.raises(telegram.error.Conflict, match="terminated by setWebhook"):
        await poll
    receiver.script.extend([500] * 1000)
    alice.send_private("never delivered")
    await server.wait_for(lambda: server.webhook.attempts, timeout=5)
    assert await ptb.delete_webhook()
    attempts = len(server.webhook.attempts)
    alice.send_private("polled")
    updates = await ptb.get_updates(timeout=1)
    assert [u.message.text for u in updates if u.message] == ["never delivered", "polled"]
    assert len(server.webhook.attempts) == attempts
    info = await ptb.get_webhook_info()
    assert (info.url, info.pending_update_count) == ("", 2)
    await ptb.set_webhook(receiver.url, drop_pending_updates=True)
    await ptb.delete_webhook(drop_pending_updates=True)
    assert (await ptb.get_webhook_info()).pending_update_count == 0


async def test_allowed_updates_leave_out_other_kinds(
    server: FakeTelegramServer, receiver: Receiver, ptb: telegram.Bot, alice: Any
) -> None:
    sent = await ptb.send_message(
        alice.id,
        "lobby",
        reply_markup=telegram.InlineKeyboardMarkup(
            [[telegram.InlineKeyboardButton("Join", callback_data="join")]]
        ),
    )
    await ptb.set_webhook(receiver.url, allowed_updates=["callback_query"])
    alice.send_private("ignored")
    alice.press(server.message(alice.private_chat, sent.message_id), "Join")
    await server.wait_for(lambda: server.webhook.deliveries, timeout=5)
    await server.wait_idle(quiet=0.1)
    assert [next(k for k in body if k != "update_id") for _, body in receiver.received] == [
        "callback_query"
    ]


@pytest.mark.parametrize(
    ("params", "description"),
    [
        ({"url": "http://example.com/hook"}, "An HTTPS URL must be provided"),
        ({"url": "https://example.com:8080/hook"}, "only on ports 80, 88, 443 or 8443"),
        ({"url": "ftp://example.com/hook"}, "bad webhook"),
        ({"url": "https://example.com/", "secret_token": "no spaces"}, "unallowed characters"),
        ({"url": "https://example.com/", "secret_token": "x" * 257}, "1-256 characters"),
        ({"url": "https://example.com/", "max_connections": 0}, "between 1 and 100"),
    ],
)
async def test_bad_webhooks_are_refused(params: dict[str, Any], description: str) -> None:
    async with FakeTelegramServer() as server, aiohttp.ClientSession() as http:
        url = f"{server.base_url}{server.token}/setWebhook"
        async with http.post(url, json=params) as response:
            body = await response.json()
        assert response.status == 400 and description in body["description"]
        assert server.webhook.target is None


async def test_https_on_an_allowed_port_is_accepted_and_empty_url_removes_it(
    server: FakeTelegramServer, ptb: telegram.Bot
) -> None:
    await ptb.set_webhook("https://bot.example.com:8443/hook", ip_address="203.0.113.5")
    info = await ptb.get_webhook_info()
    assert (info.url, info.ip_address, info.max_connections) == (
        "https://bot.example.com:8443/hook",
        "203.0.113.5",
        40,
    )
    await ptb.set_webhook("")
    assert (await ptb.get_webhook_info()).url == ""
    assert await ptb.get_updates() == ()


async def test_a_crash_of_the_delivery_fails_the_wait_at_once(
    receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: Any) -> None:
        raise KeyError("bug")

    monkeypatch.setattr(Webhook, "_post", broken)
    async with FakeTelegramServer(webhook_timing=FAST) as server:
        async with aiohttp.ClientSession() as http:
            url = f"{server.base_url}{server.token}/setWebhook"
            async with http.post(url, json={"url": receiver.url}) as response:
                assert response.status == 200
        server.add_user("Alice", started=True).send_private("hello")
        with pytest.raises(ProtocolViolationError, match="webhook delivery crashed: KeyError"):
            await server.wait_for(lambda: server.webhook.deliveries, timeout=5)
