"""A readiness check that fails is told once when it starts failing and once when it passes
again, however often the balancer asks (operator QA: every receiver wrote `readiness check
database failed: ConnectionRefusedError` every 2 s through a PostgreSQL restart); the answer
stays 503 meanwhile."""

from __future__ import annotations

import logging

import aiohttp
import pytest

from bot.serving.metrics import Metrics
from bot.serving.webserver import WebServer, build_web_app


async def test_a_failing_check_is_a_line_when_it_starts_and_one_when_it_ends(
        caplog: pytest.LogCaptureFixture) -> None:
    state = {"down": True}

    async def database() -> bool:
        if state["down"]:
            raise ConnectionRefusedError(111, "Connection refused")
        return True

    caplog.set_level(logging.INFO, logger="bot.serving.webserver")
    server = WebServer(build_web_app(Metrics(), {"database": database}), "127.0.0.1", 0)
    await server.start()
    url = f"http://127.0.0.1:{server.port}/healthz/ready"
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(5):
                async with http.get(url) as response:
                    assert response.status == 503
            state["down"] = False
            for _ in range(3):
                async with http.get(url) as response:
                    assert response.status == 200
    finally:
        await server.stop()
    lines = [(r.levelname, r.getMessage()) for r in caplog.records
             if r.name == "bot.serving.webserver" and "readiness" in r.getMessage()]
    assert lines == [
        ("WARNING", "readiness check database failed ([Errno 111] Connection refused): "
                    "answering 503 until it passes"),
        ("INFO", "readiness check database passes again after 0 s"),
    ]
