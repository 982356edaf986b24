"""The HTTP connection to the Bot API: python-telegram-bot's own ``HTTPXRequest``, with each
request handed to the socket in one write.

httpx streams a multipart body (every photo the bot sends or edits) as it encodes it: a boundary,
the headers and the value of each field, and a line break, each a write of its own, about thirty
for a table picture with its caption and buttons. Each write costs a system call and the async
machinery around it (some 0.2 ms on this machine's loopback), which was a quarter of the bot's
CPU per move. The body of one of the bot's requests is at most a picture of a few dozen KB, so it
is joined first (``Request.aread``). httpcore then still writes a request's head and its body
apart, and every write waits for a turn of the event loop (anyio's checkpoint): the connection's
stream holds what is written until the response is read (:class:`OneWriteStream`), so the whole
request leaves in one write.
"""

from __future__ import annotations

import ssl
import typing

import httpcore
import httpx
from telegram.request import HTTPXRequest

#: As python-telegram-bot's ApplicationBuilder sets it for the bot's own requests.
CONNECTION_POOL_SIZE = 256


class OneWriteStream(httpcore.AsyncNetworkStream):
    """A connection whose writes are held until the next read (or TLS start), then sent as
    one: HTTP/1.1 reads a response only once its request is written whole."""

    def __init__(self, stream: httpcore.AsyncNetworkStream) -> None:
        self._stream = stream
        self._held: list[bytes] = []
        self._timeout: float | None = None

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        if buffer:
            self._held.append(buffer)
            self._timeout = timeout

    async def _flush(self) -> None:
        if self._held:
            data = b"".join(self._held)
            self._held.clear()
            await self._stream.write(data, self._timeout)

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        await self._flush()
        return await self._stream.read(max_bytes, timeout)

    async def aclose(self) -> None:
        self._held.clear()  # a request abandoned before its response was read
        await self._stream.aclose()

    async def start_tls(self, ssl_context: ssl.SSLContext, server_hostname: str | None = None,
                        timeout: float | None = None) -> httpcore.AsyncNetworkStream:
        await self._flush()
        return OneWriteStream(await self._stream.start_tls(ssl_context, server_hostname,
                                                           timeout))

    def get_extra_info(self, info: str) -> typing.Any:
        return self._stream.get_extra_info(info)


class OneWriteBackend(httpcore.AsyncNetworkBackend):
    """httpcore's asyncio backend, its connections' writes joined (:class:`OneWriteStream`)."""

    def __init__(self) -> None:
        self._backend = httpcore.AnyIOBackend()

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                          local_address: str | None = None,
                          socket_options: typing.Iterable[httpcore.SOCKET_OPTION] | None = None
                          ) -> httpcore.AsyncNetworkStream:
        return OneWriteStream(await self._backend.connect_tcp(
            host, port, timeout=timeout, local_address=local_address,
            socket_options=socket_options))

    async def connect_unix_socket(
            self, path: str, timeout: float | None = None,
            socket_options: typing.Iterable[httpcore.SOCKET_OPTION] | None = None
    ) -> httpcore.AsyncNetworkStream:
        return OneWriteStream(await self._backend.connect_unix_socket(
            path, timeout=timeout, socket_options=socket_options))

    async def sleep(self, seconds: float) -> None:
        await self._backend.sleep(seconds)


class WholeBodyTransport(httpx.AsyncHTTPTransport):
    """An httpx transport that reads a streamed request body into memory before sending it,
    and sends each request in one write."""

    def __init__(self, **kwargs: typing.Any) -> None:
        super().__init__(**kwargs)
        # httpx takes no network backend; its pool keeps the one it connects with here.
        self._pool._network_backend = OneWriteBackend()

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
