"""Webhook mode's minute check against another process with the bot's token (operator QA): a
poller that deleted the webhook, another webhook registered over this one, and this URL
registered again with another secret are each one ERROR saying what to do (again at most
every ten minutes), readiness's ``webhook`` check failing while it lasts, and one INFO line
when it ends; stray requests with a wrong secret alone change nothing. Another client calls
the fake Bot API over HTTP with the token, as the other process would."""

from __future__ import annotations

import json
import logging
from typing import Any

import aiohttp
import pytest
from bot_kit import Group
from test_e2e_operations import free_port
from test_e2e_serving import bot_serving, by_label, read, totals

from bot.handlers.runtime import Runtime
from bot.serving.webhookwatch import TOLD_EVERY
from bot.serving.webserver import SECRET_HEADER, HttpSettings
from fakeapi import FakeTelegramServer, WebhookTiming

SECRET = "this_bots-secret"
OTHER_SECRET = "another_process-secret"
WATCH = "bot.serving.webhookwatch"
FIX = "stop the other process, then restart this bot (its start registers WEBHOOK_URL"


async def call(server: FakeTelegramServer, method: str, **params: Any) -> Any:
    """The other process: a Bot API call with this bot's token, over HTTP."""
    async with aiohttp.ClientSession() as client, client.post(
            f"{server.base_url}{server.token}/{method}", json=params) as answer:
        body = await answer.json()
    assert body["ok"], body
    return body["result"]


async def check(group: Group) -> None:
    """The minute check, run now (as its job would after a quiet minute)."""
    application: Any = group.extra["application"]
    (job,) = application.job_queue.get_jobs_by_name("telegram-check")
    await job.run(application)


async def readiness(port: int) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as client:
        status, body = await read(client, port, "/healthz/ready")
    return status, json.loads(body)


def watch_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [f"{r.levelname} {r.getMessage()}" for r in caplog.records if r.name == WATCH]


def frozen_clock(rt: Runtime) -> list[float]:
    """The watch's clock, moved by the test."""
    now = [1000.0]
    rt.webhook_watch.clock = lambda: now[0]
    return now


def webhook_http(group: Group) -> tuple[HttpSettings, int]:
    group.server.webhook.timing = WebhookTiming(timeout=5.0, first_retry=0.02, max_retry=0.2)
    port = free_port()
    return HttpSettings(f"http://127.0.0.1:{port}/hook", SECRET, "127.0.0.1", port), port


async def test_a_poller_that_deleted_the_webhook_is_an_error_and_unready_until_it_is_back(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    http, port = webhook_http(group)
    async with bot_serving(group, http) as rt:
        now = frozen_clock(rt)
        await check(group)
        assert await readiness(port) == (200, {"ready": True})
        await call(group.server, "deleteWebhook")  # the other process starts polling
        group.send(group.users[0], "/help")  # (waits at Telegram: nobody fetches it)
        await check(group)
        assert watch_lines(caplog) == [
            "ERROR Telegram's webhook was deleted: another process with this bot's token "
            "polls for its updates (or deleteWebhook was called), and this bot gets none "
            f"(1 update waiting): {FIX} again)"]
        assert await readiness(port) == (503, {"ready": False, "failed": ["webhook"]})
        now[0] += TOLD_EVERY / 2
        await check(group)  # still so: not said again yet
        assert len(watch_lines(caplog)) == 1
        now[0] += TOLD_EVERY / 2
        await check(group)
        assert watch_lines(caplog)[1:] == [
            "ERROR Telegram's webhook was deleted: another process with this bot's token "
            "polls for its updates (or deleteWebhook was called), and this bot gets none "
            f"(1 update waiting): {FIX} again) (for {TOLD_EVERY:.0f} s now)"]
        # the other process stopped, and somebody registered this bot's webhook again
        await call(group.server, "setWebhook", url=http.webhook_url, secret_token=SECRET)
        await group.server.wait_for(lambda: not group.server.webhook.info()[
            "pending_update_count"], message="the waiting update was not delivered")
        now[0] += 60
        await check(group)
        assert watch_lines(caplog)[2:] == [
            f"INFO Telegram's webhook brings this bot its updates again, after "
            f"{TOLD_EVERY + 60:.0f} s"]
        assert await readiness(port) == (200, {"ready": True})


async def test_another_webhook_over_this_one_is_an_error_naming_it(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    http, port = webhook_http(group)
    other = f"http://127.0.0.1:{free_port()}/elsewhere"
    async with bot_serving(group, http):
        await call(group.server, "setWebhook", url=other, secret_token=OTHER_SECRET)
        await check(group)
        assert watch_lines(caplog) == [
            f"ERROR Telegram's webhook is {other}, not this bot's WEBHOOK_URL "
            f"{http.webhook_url}: another process with this bot's token registered its own, "
            f"and this bot gets no updates (0 updates waiting): {FIX} again)"]
        assert await readiness(port) == (503, {"ready": False, "failed": ["webhook"]})


async def test_this_url_registered_with_another_secret_is_an_error_while_telegram_gets_403(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    http, port = webhook_http(group)
    async with bot_serving(group, http):
        await call(group.server, "setWebhook", url=http.webhook_url, secret_token=OTHER_SECRET)
        group.send(group.users[0], "/help")
        await group.server.wait_for(lambda: group.server.webhook.info().get(
            "last_error_message"), message="Telegram was not refused")
        await check(group)
        assert watch_lines(caplog) == [
            "ERROR Telegram posts the updates with another secret token, which this bot "
            "refuses (403, 1 update waiting): another process with this bot's token "
            f"registered WEBHOOK_URL with another WEBHOOK_SECRET: {FIX} and its secret again)"]
        assert not [r for r in caplog.records if "reports a webhook error" in r.getMessage()]
        assert await readiness(port) == (503, {"ready": False, "failed": ["webhook"]})
        await check(group)  # Telegram's retries go on: still so
        assert await readiness(port) == (503, {"ready": False, "failed": ["webhook"]})
        await call(group.server, "setWebhook", url=http.webhook_url, secret_token=SECRET)
        await group.server.wait_for(lambda: group.said("/newgame"),
                                    message="the waiting /help was not answered")
        await check(group)
        assert watch_lines(caplog)[1].startswith(
            "INFO Telegram's webhook brings this bot its updates again, after ")
        assert await readiness(port) == (200, {"ready": True})


async def test_stray_requests_with_a_wrong_secret_leave_the_bot_ready(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    http, port = webhook_http(group)
    async with bot_serving(group, http), aiohttp.ClientSession() as client:
        for _ in range(3):  # a scanner that found the URL
            async with client.post(f"http://127.0.0.1:{port}/hook", json={"update_id": 1},
                                   headers={SECRET_HEADER: "guess"}) as answer:
                assert answer.status == 403
        await check(group)
        assert watch_lines(caplog) == []
        assert await readiness(port) == (200, {"ready": True})


async def test_the_metrics_show_the_backlog_stray_paths_the_process_and_the_version(
        group: Group) -> None:
    http, port = webhook_http(group)
    async with bot_serving(group, http), aiohttp.ClientSession() as client:
        async with client.post(f"http://127.0.0.1:{port}/wrong-path", json={"update_id": 1},
                               headers={SECRET_HEADER: SECRET}) as answer:
            assert answer.status == 404  # a proxy forwarding to the wrong path
        async with client.get(f"http://127.0.0.1:{port}/favicon.ico") as answer:
            assert answer.status == 404  # (a GET is nobody's webhook: not counted)
        await call(group.server, "deleteWebhook")
        group.send(group.users[0], "/help")
        group.send(group.users[1], "/rules")
        await check(group)
        text = (await read(client, port, "/metrics"))[1]
    seen = totals(text)
    assert seen["domino_webhook_pending_updates"] == 2
    assert by_label(text, "domino_webhook_requests_total", "status")["404"] == 1
    assert seen["process_resident_memory_bytes"] > 0
    assert seen["process_cpu_seconds_total"] > 0
    assert seen["process_start_time_seconds"] > 0
    (version,) = by_label(text, "domino_build_info", "version").items()
    assert version[1] == 1 and version[0] not in ("", "unknown")  # (installed editable)
