"""The bot's HTTP side on a real port of 127.0.0.1: health, metrics, and the webhook, fed end to
end by the fake Bot API server's webhook delivery into a python-telegram-bot Application."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from typing import Any

import aiohttp
import pytest
from telegram import Update
from telegram.ext import Application, ApplicationBuilder, CommandHandler, ContextTypes

from bot.errors import ConfigError
from bot.serving import webserver
from bot.serving.metrics import Metrics
from bot.serving.webserver import (
    SECRET_HEADER,
    Check,
    WebhookEndpoint,
    WebServer,
    build_web_app,
    http_settings_from_env,
)
from fakeapi import FakeTelegramServer, WebhookTiming

SECRET = "right-Secret_1"


async def serve(checks: Mapping[str, Check], webhook: WebhookEndpoint | None = None) -> WebServer:
    server = WebServer(build_web_app(Metrics(), checks, webhook), "127.0.0.1", 0)
    await server.start()
    return server


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def get(http: aiohttp.ClientSession, server: WebServer, path: str) -> tuple[int, Any]:
    async with http.get(f"http://127.0.0.1:{server.port}{path}") as response:
        if response.content_type == "application/json":
            return response.status, await response.json()
        return response.status, (response.headers["Content-Type"], await response.text())


async def test_health_answers_live_and_names_what_is_not_ready(
    http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webserver, "CHECK_TIMEOUT", 0.1)
    state = {"database": True, "telegram": True}

    async def database_ok() -> bool:
        return state["database"]

    def telegram_ok() -> bool:
        return state["telegram"]

    async def hangs() -> bool:
        await asyncio.sleep(5)
        return True

    def raises() -> bool:
        raise OSError("disk I/O error")

    server = await serve({"database": database_ok, "telegram": telegram_ok})
    broken = await serve({"slow": hangs, "crashing": raises, "telegram": telegram_ok})
    try:
        assert await get(http, server, "/healthz/live") == (200, {"live": True})
        assert await get(http, server, "/healthz/ready") == (200, {"ready": True})
        state["database"] = False
        assert await get(http, server, "/healthz/ready") == (
            503,
            {"ready": False, "failed": ["database"]},
        )
        state["telegram"] = False
        assert (await get(http, server, "/healthz/ready"))[1]["failed"] == ["database", "telegram"]
        assert await get(http, broken, "/healthz/ready") == (
            503,
            {"ready": False, "failed": ["slow", "crashing", "telegram"]},
        )
        assert (await get(http, broken, "/healthz/live"))[0] == 200
    finally:
        await server.stop()
        await broken.stop()


async def test_metrics_are_served_in_prometheus_text_format(http: aiohttp.ClientSession) -> None:
    metrics = Metrics()
    metrics.move_played("matador")
    server = WebServer(build_web_app(metrics, {}), "127.0.0.1", 0)
    await server.start()
    try:
        status, (content_type, text) = await get(http, server, "/metrics")
    finally:
        await server.stop()
    assert status == 200 and content_type.startswith("text/plain; version=")
    assert 'domino_moves_played_total{game="matador"} 1.0' in text.splitlines()


async def test_webhook_takes_only_requests_with_the_secret(http: aiohttp.ClientSession) -> None:
    queued: list[dict[str, Any]] = []

    async def put(update: dict[str, Any]) -> None:
        if update["update_id"] == 13:
            raise RuntimeError("queue closed")
        queued.append(update)

    server = await serve({}, WebhookEndpoint("/telegram/hook", SECRET, put))
    url = f"http://127.0.0.1:{server.port}/telegram/hook"

    async def post(headers: dict[str, str], **body: Any) -> int:
        async with http.post(url, headers=headers, **body) as response:
            return response.status

    try:
        assert await post({SECRET_HEADER: SECRET}, json={"update_id": 1}) == 200
        assert await post({SECRET_HEADER: "wrong"}, json={"update_id": 2}) == 403
        assert await post({SECRET_HEADER: SECRET[:-1]}, json={"update_id": 3}) == 403
        assert await post({}, json={"update_id": 4}) == 403
        assert await post({SECRET_HEADER: SECRET}, data=b"{not json") == 400
        assert await post({SECRET_HEADER: SECRET}, json=[1]) == 400
        assert await post({SECRET_HEADER: SECRET}, json={"update_id": 13}) == 503
        assert (await get(http, server, "/telegram/hook"))[0] == 405
    finally:
        await server.stop()
    assert queued == [{"update_id": 1}]


async def start_bot(telegram: FakeTelegramServer) -> Application[Any, Any, Any, Any, Any, Any]:
    """A python-telegram-bot Application without an updater, answering /start."""

    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        await context.bot.send_message(update.effective_chat.id, "Welcome")

    application = (
        ApplicationBuilder()
        .token(telegram.token)
        .base_url(telegram.base_url)
        .base_file_url(telegram.base_file_url)
        .updater(None)
        .build()
    )
    application.add_handler(CommandHandler("start", start))
    await application.initialize()
    await application.start()
    return application


async def test_fake_telegram_delivers_to_the_bot_only_with_the_right_secret() -> None:
    timing = WebhookTiming(timeout=2.0, first_retry=0.02, max_retry=0.1)
    async with FakeTelegramServer(webhook_timing=timing) as telegram:
        alice = telegram.add_user("Alice", started=True)
        application = await start_bot(telegram)

        async def put(data: dict[str, Any]) -> None:
            await application.update_queue.put(Update.de_json(data, application.bot))

        server = await serve({"telegram": lambda: True}, WebhookEndpoint("/hook", SECRET, put))
        url = f"http://127.0.0.1:{server.port}/hook"
        try:
            await application.bot.set_webhook(url, secret_token="not-" + SECRET)
            alice.send_private("/start")
            await telegram.wait_for(lambda: len(telegram.webhook.attempts) >= 2, timeout=5)
            info = await application.bot.get_webhook_info()
            assert info.last_error_message == "Wrong response from the webhook: 403 Forbidden"
            assert info.pending_update_count == 1 and not telegram.messages(alice.private_chat)[1:]

            await application.bot.set_webhook(
                url, secret_token=SECRET, allowed_updates=Update.ALL_TYPES
            )
            reply = await telegram.wait_for(
                lambda: telegram.last_bot_message(alice.private_chat), timeout=5
            )
            assert reply.text == "Welcome"
            assert (await application.bot.get_webhook_info()).pending_update_count == 0
            assert {a.status for a in telegram.webhook.attempts} == {403, 200}
        finally:
            await server.stop()
            await application.stop()
            await application.shutdown()
        telegram.assert_no_violations()


async def test_a_port_in_use_is_one_config_error() -> None:
    first = await serve({})
    try:
        second = WebServer(build_web_app(Metrics(), {}), "127.0.0.1", first.port)
        with pytest.raises(ConfigError, match=rf"^cannot serve HTTP on 127.0.0.1:{first.port}: "):
            await second.start()
    finally:
        await first.stop()


def test_http_settings_default_to_polling_and_read_the_webhook() -> None:
    polling = http_settings_from_env({})
    assert (polling.webhook_url, polling.port, polling.host) == (None, None, "0.0.0.0")
    assert polling.webhook_secret != http_settings_from_env({}).webhook_secret  # fresh each start
    assert polling.webhook_secret not in repr(polling)
    webhook = http_settings_from_env(
        {"WEBHOOK_URL": "https://bot.example.com/tg/updates", "WEBHOOK_SECRET": SECRET}
    )
    assert (webhook.webhook_path, webhook.port, webhook.webhook_secret) == (
        "/tg/updates",
        8080,
        SECRET,
    )
    assert http_settings_from_env({"HTTP_PORT": "9100", "HTTP_HOST": "127.0.0.1"}).port == 9100


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"WEBHOOK_URL": "http://bot.example.com/"}, "WEBHOOK_URL must be the public https://"),
        ({"WEBHOOK_SECRET": "has space"}, "WEBHOOK_SECRET must be 1-256 characters"),
        ({"HTTP_PORT": "70000"}, "HTTP_PORT must be a port number from 1 to 65535, not '70000'"),
        ({"HTTP_PORT": "web"}, "HTTP_PORT must be a port number"),
    ],
)
def test_bad_http_settings_are_one_line(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        http_settings_from_env(env)
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)
