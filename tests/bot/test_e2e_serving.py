"""The bot's HTTP side as an operator meets it, with the real bot against the fake Bot API:
webhook mode as ``python -m bot`` wires it (bot.app.running), health and metrics read while
a game is played, in webhook mode and in polling mode with a port, and the log lines that
name their chat and game."""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

import aiohttp
from bot_kit import Group
from prometheus_client.parser import text_string_to_metric_families
from test_e2e_operations import free_port

from bot.app import build_application, running
from bot.handlers.runtime import KEY, Runtime
from bot.health import refresh_gauges
from bot.logs import LogFormat, log_handler
from bot.models import Status
from bot.serving.webserver import HttpSettings
from fakeapi import WebhookTiming

SECRET = "wired_secret-2"


@asynccontextmanager
async def bot_serving(group: Group, http: HttpSettings) -> AsyncIterator[Runtime]:
    """The bot as ``python -m bot`` builds it from ``http``, run by bot.app.running."""
    application = build_application(group.settings(), seed_source=group.seeds, http=http)
    async with running(application):
        group.runtime = application.bot_data[KEY]
        group.extra["application"] = application
        yield group.runtime
        await group.runtime.publisher.idle()


def totals(exposition: str) -> dict[str, float]:
    """Each sample's value summed over its labels, by sample name."""
    summed: dict[str, float] = {}
    for family in text_string_to_metric_families(exposition):
        for sample in family.samples:
            summed[sample.name] = summed.get(sample.name, 0.0) + sample.value
    return summed


def by_label(exposition: str, name: str, label: str) -> dict[str, float]:
    """The samples of ``name`` summed by the value of ``label``."""
    summed: dict[str, float] = {}
    for family in text_string_to_metric_families(exposition):
        for sample in family.samples:
            if sample.name == name:
                key = sample.labels[label]
                summed[key] = summed.get(key, 0.0) + sample.value
    return summed


async def read(client: aiohttp.ClientSession, port: int, path: str) -> tuple[int, str]:
    async with client.get(f"http://127.0.0.1:{port}{path}") as answer:
        return answer.status, await answer.text()


async def test_webhook_mode_as_wired_plays_a_match_and_its_metrics_move(group: Group) -> None:
    group.server.webhook.timing = WebhookTiming(timeout=5.0, first_retry=0.02, max_retry=0.2)
    port = free_port()
    url = f"http://127.0.0.1:{port}/hook"
    http = HttpSettings(url, SECRET, "127.0.0.1", port)
    async with bot_serving(group, http) as rt, aiohttp.ClientSession() as client:
        assert rt.webhook and rt.web is None  # the webhook's server, not polling's
        table = await group.start("gaple target=1", 4)
        for _ in range(3):
            await table.play_one()
        await rt.publisher.idle()
        assert await read(client, port, "/healthz/live") == (200, '{"live": true}')
        status, ready = await read(client, port, "/healthz/ready")
        assert (status, json.loads(ready)) == (200, {"ready": True})
        application = group.extra["application"]
        (check,) = application.job_queue.get_jobs_by_name("telegram-check")  # type: ignore[attr-defined]
        await check.run(application)  # as a quiet minute would
        assert len(group.server.requests_for("getWebhookInfo")) == 1
        await refresh_gauges(rt)
        status, text = await read(client, port, "/metrics")
        assert status == 200
        during = totals(text)
        assert by_label(text, "domino_moves_played_total", "game") == {"gaple": 3.0}
        assert during["domino_open_games"] == 1 and during["domino_open_lobbies"] == 0
        assert during["domino_taps_handled_total"] >= 3 + 3  # 3 joins + start, 3 moves
        assert during["domino_tap_to_answer_seconds_count"] == during["domino_taps_handled_total"]
        assert during["domino_tap_to_table_edit_seconds_count"] >= 1
        assert during["domino_picture_draw_seconds_count"] >= 4  # the table and 3+ hands
        assert by_label(text, "domino_updates_handled_total", "kind")["callback_query"] >= 6
        assert by_label(text, "domino_bot_api_calls_total", "method")["setWebhook"] == 1
        assert during["domino_bot_api_last_ok_timestamp_seconds"] > 0
        await table.play_until(group.match_over)
        await rt.publisher.idle()
        await refresh_gauges(rt)
        after = totals((await read(client, port, "/metrics"))[1])
        finished = group.game()
    assert finished.status is Status.FINISHED
    assert after["domino_moves_played_total"] > during["domino_moves_played_total"]
    assert after["domino_open_games"] == 0 and after["domino_outbox_depth"] == 0
    assert not group.server.requests_for("getUpdates")
    assert group.server.webhook.target is not None
    assert group.server.webhook.target.secret_token == SECRET
    (registered,) = group.server.requests_for("setWebhook")
    assert set(registered.params["allowed_updates"]) == {
        "message", "callback_query", "my_chat_member"}


async def test_polling_with_a_port_serves_health_and_metrics_during_a_game(group: Group) -> None:
    port = free_port()
    http = HttpSettings(None, SECRET, "127.0.0.1", port)
    async with bot_serving(group, http) as rt, aiohttp.ClientSession() as client:
        assert rt.web is not None and rt.web.port == port
        application = group.extra["application"]
        jobs = application.job_queue  # type: ignore[attr-defined]
        assert jobs.get_jobs_by_name("metrics-gauges")
        asked = len(group.server.requests_for("getMe"))
        await jobs.get_jobs_by_name("telegram-check")[0].run(application)
        assert len(group.server.requests_for("getMe")) == asked + 1  # polling asks getMe
        table = await group.start("gaple target=1", 4)
        group.server.flood_wait(group.chat, retry_after=1)  # the table's edit meets a 429
        await table.play_one()
        await rt.publisher.idle()
        status, ready = await read(client, port, "/healthz/ready")
        assert (status, json.loads(ready)) == (200, {"ready": True})
        text = (await read(client, port, "/metrics"))[1]
        assert totals(text)["domino_moves_played_total"] == 1
        assert totals(text)["domino_picture_draw_seconds_count"] >= 1
        outcomes = by_label(text, "domino_bot_api_calls_total", "outcome")
        assert outcomes["ok"] > 0 and outcomes["retry_after"] >= 1
        assert totals(text)["domino_flood_waits_total"] == outcomes["retry_after"]
        assert totals(text)["domino_flood_wait_seconds_total"] >= 1.0
        await rt.storage.close()  # the database gone: not ready, and says why
        status, ready = await read(client, port, "/healthz/ready")
        assert (status, json.loads(ready)) == (503, {"ready": False, "failed": ["database"]})
        await rt.storage.open()
    async with aiohttp.ClientSession() as client:  # the server stopped with the bot
        try:
            await read(client, port, "/healthz/live")
        except aiohttp.ClientConnectionError:
            pass
        else:
            raise AssertionError("the HTTP server outlived the bot")


async def test_polling_without_a_port_serves_nothing(group: Group) -> None:
    async with group.bot() as rt:
        assert not rt.webhook and rt.web is None and rt.http.port is None
        assert rt.metrics.telegram_answered_within(60)  # getMe and the commands answered
        jobs = group.extra["application"].job_queue  # type: ignore[attr-defined]
        assert not jobs.get_jobs_by_name("metrics-gauges")  # the default path as it was
        assert not jobs.get_jobs_by_name("telegram-check")


@contextmanager
def json_log(group: Group) -> Iterator[io.StringIO]:
    """Within the block, the bot's log lines at INFO and above, as JSON lines, in the stream."""
    stream = io.StringIO()
    handler = log_handler(LogFormat.JSON, [group.server.token], stream)
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


async def test_log_lines_name_their_chat_and_game_as_json(group: Group) -> None:
    with json_log(group) as stream:
        async with group.bot() as rt:
            table = await group.start("gaple target=1", 4)
            await table.play_one()
            await rt.publisher.idle()
            logging.getLogger("bot.test").info("token %s", group.server.token)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    game = group.game().game_id
    started = [line for line in lines if line["message"] == "game started: gaple, 4 players"]
    assert started and all(line["chat"] == group.chat.id and line["game"] == game
                           for line in started)
    assert {"time", "level", "logger", "message"} <= set(started[0])
    assert group.server.token not in stream.getvalue()
    assert any(line["message"] == "token <token>" for line in lines)


async def test_a_restart_does_not_say_again_that_a_game_started(group: Group) -> None:
    """The log says a game started once: a restart loads it as it was (a fleet worker taking
    a shard over loads its games the same way, ``FleetWorker.take``)."""
    with json_log(group) as stream:
        async with group.bot():
            table = await group.start("gaple")
            await table.play_one()
        async with group.bot() as rt:
            await table.play_one()
            await rt.publisher.idle()
            assert rt.service.game(group.game().game_id) is not None
    lines = [json.loads(line)["message"] for line in stream.getvalue().splitlines()]
    assert "resumed 1 open game" in lines  # the second run did load it
    assert [line for line in lines if line.startswith("game started")] == [
        "game started: gaple, 4 players"]


async def test_a_restart_that_resolves_an_overdue_turn_leaves_process_lines_untagged(
    group: Group,
) -> None:
    """The overdue turn's lines name its chat and game; the process's own lines after it
    (the resume count, the start, a line of the task that started the bot) name none."""
    async with group.bot() as rt:
        table = await group.start("pair")
        await table.play_one()
        game = group.game()
        before = game.move_no
        await rt.storage.execute(
            "UPDATE games SET deadline=? WHERE game_id=?", (time.time() - 5, game.game_id))
        rt.timers.schedule = lambda game: None  # type: ignore[method-assign]
    with json_log(group) as stream:
        async with group.bot() as rt:
            game = group.game()
            await group.server.wait_for(lambda: game.move_no > before,
                                        message="the overdue turn was not resolved")
            await rt.publisher.idle()
            logging.getLogger("bot.test").info("the process goes on")
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    process = [line for line in lines
               if line["message"] in ("resumed 1 open game", "the process goes on")]
    assert len(process) == 2
    assert all("chat" not in line and "game" not in line for line in process), process
