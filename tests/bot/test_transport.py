"""The bot's HTTP transport: a picture's multipart body reaches the socket as one write."""

from __future__ import annotations

import httpx
import pytest

from bot.publishing.transport import WholeBodyTransport, bot_request

PICTURE = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40


async def _chunks_sent(transport: httpx.AsyncHTTPTransport,
                       monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The pieces of a sendPhoto body as the transport hands them to the connection."""
    sent: list[list[bytes]] = []

    async def connection(self: httpx.AsyncHTTPTransport, request: httpx.Request
                         ) -> httpx.Response:
        sent.append([chunk async for chunk in request.stream])  # type: ignore[union-attr]
        return httpx.Response(200, json={"ok": True, "result": True})

    monkeypatch.setattr(httpx.AsyncHTTPTransport, "handle_async_request", connection)
    async with httpx.AsyncClient(transport=transport) as client:
        await client.post("http://127.0.0.1/bot1:x/sendPhoto",
                          data={"chat_id": "-100", "caption": "Ayu laid 3-5", "parse_mode": "HTML"},
                          files={"photo": ("table.png", PICTURE, "image/png")})
    (chunks,) = sent
    return chunks


async def test_a_picture_is_sent_in_one_write(monkeypatch: pytest.MonkeyPatch) -> None:
    chunks = await _chunks_sent(WholeBodyTransport(), monkeypatch)
    assert len(chunks) == 1
    assert PICTURE in chunks[0] and b"Ayu laid 3-5" in chunks[0]


async def test_httpx_alone_writes_a_picture_in_many_pieces(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What the transport is for: without it, each field is several writes."""
    chunks = await _chunks_sent(httpx.AsyncHTTPTransport(), monkeypatch)
    assert len(chunks) > 10
    assert PICTURE in b"".join(chunks)


def test_the_bot_keeps_python_telegram_bots_pool_size() -> None:
    """A client given a transport ignores its own limits: the transport carries them."""
    request = bot_request()
    transport = request._client_kwargs["transport"]
    assert isinstance(transport, WholeBodyTransport)
    assert transport._pool._max_connections == 256
