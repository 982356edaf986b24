"""The bot's HTTP transport: PTB's request contract on aiohttp, against a real local server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from aiohttp import web
from httpx._multipart import _format_form_param
from telegram import InputFile
from telegram.error import NetworkError, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.publishing.delivery import outcome_unknown
from bot.publishing.transport import (
    CONNECTION_POOL_SIZE,
    POLL_POOL_SIZE,
    POOL_FULL,
    AiohttpRequest,
    Timeouts,
    _quoted,
    bot_request,
    poll_request,
)

PICTURE = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


async def _serve(handler: Handler) -> AsyncIterator[str]:
    app = web.Application()
    app.router.add_post("/{method}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


@pytest.fixture
async def echo() -> AsyncIterator[str]:
    """A server answering each call with what it read: content type, fields and files."""
    async def handler(request: web.Request) -> web.Response:
        form = await request.post()
        fields = {k: [v.filename, v.content_type, v.file.read().hex()]
                  if isinstance(v, web.FileField) else v for k, v in form.items()}
        return web.json_response({"ok": True, "result": {
            "type": request.content_type, "fields": fields,
            "agent": request.headers.get("User-Agent")}})
    async for url in _serve(handler):
        yield url


async def _post(request: AiohttpRequest, url: str, data: RequestData | None = None,
                **timeouts: float) -> tuple[int, bytes]:
    await request.initialize()
    try:
        return await request.do_request(url, "POST", data, **timeouts)
    finally:
        await request.shutdown()


async def test_a_form_arrives_as_httpx_sent_it(echo: str) -> None:
    data = RequestData([RequestParameter("chat_id", -100, None),
                        RequestParameter("text", "Ayu laid 3-5 ✓", None)])
    status, body = await _post(AiohttpRequest(), f"{echo}/sendMessage", data)
    result = AiohttpRequest.parse_json_payload(body)["result"]
    assert status == 200
    assert result["type"] == "application/x-www-form-urlencoded"
    assert result["fields"] == {"chat_id": "-100", "text": "Ayu laid 3-5 ✓"}
    assert result["agent"] == AiohttpRequest.USER_AGENT


async def test_a_picture_arrives_whole_with_its_fields(echo: str) -> None:
    picture = InputFile(PICTURE, filename='ta"ble.png', attach=True)
    data = RequestData([RequestParameter("chat_id", -100, None),
                        RequestParameter("caption", "Ayu laid 3-5", None),
                        RequestParameter("photo", picture.attach_uri, [picture])])
    status, body = await _post(AiohttpRequest(), f"{echo}/sendPhoto", data)
    assert status == 200
    result = AiohttpRequest.parse_json_payload(body)["result"]
    assert result["type"] == "multipart/form-data"
    fields = result["fields"]
    assert fields["chat_id"] == "-100" and fields["caption"] == "Ayu laid 3-5"
    (name,) = (k for k in fields if k.startswith("attached"))
    assert fields[name] == ["ta%22ble.png", "image/png", PICTURE.hex()]


def test_a_field_or_file_name_is_escaped_as_httpx_escapes_it() -> None:
    """Every ASCII character alone and among others, and names with none to escape (the
    usual case, which skips the escaping)."""
    names = [chr(c) for c in range(128)] + [f"a{chr(c)}b" for c in range(128)]
    names += ["reply_markup", "photo", "attach://hand.png", "Ъ ё \u2014 \\\\\"x\"", ""]
    for name in names:
        assert _quoted(name) == _format_form_param("n", name)[len('n="'):-1], repr(name)


async def test_a_dropped_connection_is_a_network_error_whose_outcome_is_unknown() -> None:
    async def handler(request: web.Request) -> web.Response:
        assert request.transport is not None
        request.transport.abort()
        return web.Response()
    async for url in _serve(handler):
        with pytest.raises(NetworkError) as caught:
            await _post(AiohttpRequest(), f"{url}/editMessageMedia")
        assert not isinstance(caught.value, TimedOut)
        assert str(caught.value).startswith("aiohttp.")
        assert outcome_unknown(caught.value)


async def test_a_refused_connection_surely_did_not_leave() -> None:
    async def handler(request: web.Request) -> web.Response:
        return web.Response()
    async for url in _serve(handler):  # noqa: B007 (used once the server is gone)
        pass  # the server is gone: its port now refuses
    with pytest.raises(NetworkError) as caught:
        await _post(AiohttpRequest(), f"{url}/sendMessage")
    assert not outcome_unknown(caught.value)


async def test_a_slow_answer_times_out_after_the_read_and_write_time_outs() -> None:
    async def handler(request: web.Request) -> web.Response:
        await asyncio.sleep(1)
        return web.json_response({"ok": True, "result": True})
    async for url in _serve(handler):
        with pytest.raises(TimedOut) as caught:
            await _post(AiohttpRequest(), f"{url}/sendMessage",
                        read_timeout=0.1, write_timeout=0.1)
        assert outcome_unknown(caught.value)


async def test_a_full_pool_times_out_without_sending() -> None:
    release = asyncio.Event()
    arrived = 0

    async def handler(request: web.Request) -> web.Response:
        nonlocal arrived
        arrived += 1
        await release.wait()
        return web.json_response({"ok": True, "result": True})
    async for url in _serve(handler):
        request = AiohttpRequest(pool_size=1, timeouts=Timeouts(pool=0.1))
        await request.initialize()
        first = asyncio.create_task(request.do_request(f"{url}/a", "POST"))
        await asyncio.sleep(0.05)
        with pytest.raises(TimedOut) as caught:
            await request.do_request(f"{url}/b", "POST")
        assert caught.value.message == POOL_FULL
        assert not outcome_unknown(caught.value)
        release.set()
        assert (await first)[0] == 200
        assert arrived == 1
        await request.shutdown()


async def test_a_cancelled_call_gives_its_connection_back_at_once() -> None:
    """A long poll torn down mid-flight (a stop, a network drop) must not keep the pool's only
    connection: the next call goes out instead of failing with "Pool timeout"."""
    async def handler(request: web.Request) -> web.Response:
        if request.match_info["method"] == "getUpdates":
            await asyncio.sleep(30)
        return web.json_response({"ok": True, "result": []})
    async for url in _serve(handler):
        request = AiohttpRequest(pool_size=1, timeouts=Timeouts(pool=0.1))
        await request.initialize()
        try:
            poll = asyncio.create_task(request.do_request(f"{url}/getUpdates", "POST"))
            await asyncio.sleep(0.05)
            poll.cancel()
            with pytest.raises(asyncio.CancelledError):
                await poll
            assert (await request.do_request(f"{url}/getMe", "POST"))[0] == 200
        finally:
            await request.shutdown()


def test_get_updates_has_a_pool_of_its_own_with_room_for_the_last_call() -> None:
    request = poll_request()
    assert request._pool_size == POLL_POOL_SIZE == 2
    assert request.read_timeout == 5.0  # PTB adds the long poll's own timeout to it


async def test_a_request_not_initialized_is_refused() -> None:
    with pytest.raises(RuntimeError):
        await AiohttpRequest().do_request("http://127.0.0.1:9/x", "POST")


def test_the_bot_keeps_python_telegram_bots_defaults() -> None:
    """HTTPXRequest's: 256 connections, 5 s to connect, read and write, 20 s for media."""
    request = bot_request()
    assert request._pool_size == CONNECTION_POOL_SIZE == 256
    assert request.read_timeout == 5.0
    assert request._timeouts == Timeouts(5.0, 5.0, 5.0, 1.0, 20.0)
