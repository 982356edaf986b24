"""The HTTP connection to the Bot API: python-telegram-bot's own ``HTTPXRequest``, with each
request's body handed to the socket in one piece.

httpx streams a multipart body (every photo the bot sends or edits) as it encodes it: a boundary,
the headers and the value of each field, and a line break, each a write of its own, about thirty
for a table picture with its caption and buttons. Each write costs a system call and the async
machinery around it (some 0.2 ms on this machine's loopback), which was a quarter of the bot's
CPU per move. The body of one of the bot's requests is at most a picture of a few dozen KB, so it
is joined first (``Request.aread``) and sent in one write. Other requests are left as they are.
"""

from __future__ import annotations

import httpx
from telegram.request import HTTPXRequest

#: As python-telegram-bot's ApplicationBuilder sets it for the bot's own requests.
CONNECTION_POOL_SIZE = 256


class WholeBodyTransport(httpx.AsyncHTTPTransport):
    """An httpx transport that reads a streamed request body into memory before sending it."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if not isinstance(request.stream, httpx.ByteStream):
            await request.aread()  # httpx then carries the body as one bytes chunk
        return await super().handle_async_request(request)


def bot_request(pool_size: int = CONNECTION_POOL_SIZE) -> HTTPXRequest:
    """The request object for the bot's calls (not for getUpdates, which sends no files)."""
    limits = httpx.Limits(max_connections=pool_size)
    return HTTPXRequest(
        connection_pool_size=pool_size,
        httpx_kwargs={"transport": WholeBodyTransport(limits=limits)},
    )
