"""The HTTP connection to the Bot API: a python-telegram-bot request class on aiohttp.

python-telegram-bot's own ``HTTPXRequest`` took some 2 ms of the event loop's Python a call on
this machine (httpx's models, httpcore's pool and anyio's cancel scopes around every socket
operation, h11's pure-Python parser), for 5.5 calls a move. aiohttp parses responses in C and
writes a request's head and body in one go; the body itself is joined here in one step (a
picture of a few dozen KB at most), so a call is one socket write and a few Python frames.

What PTB's ``HTTPXRequest`` gives is kept: the same timeouts by default (connect 5 s, read 5 s,
write 5 s, a media write 20 s, waiting for a free connection 1 s), a pool of 256 connections
kept alive, the same body encodings (a form, or multipart when files go), and errors mapped to
PTB's exceptions the same way: a time-out is ``TimedOut`` (a full pool with PTB's own words),
anything else from the connection a ``NetworkError`` whose text names the library's error
(``aiohttp.ServerDisconnectedError: ...``) and whose cause is that error. aiohttp has no write
time-out of its own: its read time-out runs from the moment the request starts to be written,
so the read window given to aiohttp is the write time-out plus the read time-out.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
import typing
from collections.abc import Callable, Mapping
from urllib.parse import urlencode

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

#: As python-telegram-bot's ApplicationBuilder sets it for the bot's own requests.
CONNECTION_POOL_SIZE = 256
#: PTB's words for a pool that stayed full (HTTPXRequest's), so logs read the same.
POOL_FULL = ("Pool timeout: All connections in the connection pool are occupied. Request was "
             "*not* sent to Telegram. Consider adjusting the connection pool size or the pool "
             "timeout.")


class PoolTimeout(Exception):  # noqa: N818 (named as httpx's, see delivery.NOT_SENT)
    """No connection came free in time: the request never left (see ``delivery.NOT_SENT``)."""


class Timeouts(typing.NamedTuple):
    connect: float | None = 5.0
    read: float | None = 5.0
    write: float | None = 5.0
    pool: float | None = 1.0
    media_write: float | None = 20.0


#: What httpx escapes in a multipart header parameter: backslashes, quotes, control bytes
#: but ESC. Field names and file names almost never hold any.
_ESCAPED = re.compile(r'[\\"\x00-\x1a\x1c-\x1f]')


def _quoted(value: str) -> bytes:
    """A multipart header parameter as httpx writes it (quotes and control bytes escaped)."""
    if _ESCAPED.search(value) is None:
        return value.encode()
    escaped = value.replace("\\", "\\\\").replace('"', "%22")
    escaped = "".join(c if ord(c) > 0x1F or c == "\x1b" else f"%{ord(c):02X}" for c in escaped)
    return escaped.encode()


def multipart_body(fields: Mapping[str, str],
                   files: Mapping[str, tuple[str | None, typing.Any, str]]) -> tuple[bytes, str]:
    """The body and content type of a multipart form: the fields, then the files."""
    boundary = os.urandom(16).hex().encode()
    parts: list[bytes] = []
    for name, value in fields.items():
        parts += (b"--", boundary, b'\r\nContent-Disposition: form-data; name="', _quoted(name),
                  b'"\r\n\r\n', value.encode(), b"\r\n")
    for name, (filename, content, mime) in files.items():
        data = content if isinstance(content, bytes) else content.read()
        parts += (b"--", boundary, b'\r\nContent-Disposition: form-data; name="', _quoted(name),
                  b'"')
        if filename is not None:
            parts += (b'; filename="', _quoted(filename), b'"')
        parts += (b"\r\nContent-Type: ", mime.encode(), b"\r\n\r\n", data, b"\r\n")
    parts += (b"--", boundary, b"--\r\n")
    return b"".join(parts), f"multipart/form-data; boundary={boundary.decode()}"


DEFAULT_TIMEOUTS = Timeouts()


class AiohttpRequest(BaseRequest):
    """A PTB request class on one aiohttp session (see the module's docstring)."""

    def __init__(self, pool_size: int = CONNECTION_POOL_SIZE,
                 timeouts: Timeouts = DEFAULT_TIMEOUTS,
                 on_answer: Callable[[float], None] | None = None,
                 on_timeout: Callable[[float, TimedOut], None] | None = None) -> None:
        self._pool_size = pool_size
        self._on_answer = on_answer  # at each 200 OK, with the monotonic time it was sent
        self._on_timeout = on_timeout  # at each call Telegram did not answer in time, as well
        self._timeouts = timeouts
        self._slots = asyncio.Semaphore(pool_size)
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._timeouts.read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                cookie_jar=aiohttp.DummyCookieJar(),
                headers={"User-Agent": self.USER_AGENT},
                trust_env=False,  # as the bot's httpx client was (a transport of its own)
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data is not None else None
        fields = request_data.json_parameters if request_data is not None else {}
        defaults = self._timeouts
        read = defaults.read if isinstance(read_timeout, DefaultValue) else read_timeout
        connect = defaults.connect if isinstance(connect_timeout, DefaultValue) else connect_timeout
        pool = defaults.pool if isinstance(pool_timeout, DefaultValue) else pool_timeout
        write = ((defaults.media_write if files else defaults.write)
                 if isinstance(write_timeout, DefaultValue) else write_timeout)
        if files:
            body, content_type = multipart_body(fields, files)
        else:
            body, content_type = urlencode(fields).encode(), "application/x-www-form-urlencoded"
        await self._take_slot(pool)
        sent = time.monotonic()
        try:
            timeout = aiohttp.ClientTimeout(
                total=None, sock_connect=connect,
                sock_read=None if read is None or write is None else read + write)
            async with session.request(method, url, data=body, timeout=timeout,
                                       headers={"Content-Type": content_type},
                                       allow_redirects=False) as response:
                answer = await response.read()
            if response.status == 200 and self._on_answer is not None:
                self._on_answer(sent)
            return response.status, answer
        except (TimeoutError, aiohttp.ServerTimeoutError) as err:
            timed_out = TimedOut()
            if self._on_timeout is not None:
                self._on_timeout(sent, timed_out)
            raise timed_out from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{err.__class__.__name__}: {err}") from err
        finally:
            self._slots.release()

    async def _take_slot(self, pool: float | None) -> None:
        """One of the pool's connections, waiting at most ``pool`` seconds for one."""
        if not self._slots.locked():
            await self._slots.acquire()
            return
        try:
            async with asyncio.timeout(pool):
                await self._slots.acquire()
        except TimeoutError:
            raise TimedOut(POOL_FULL) from PoolTimeout()


class PollWatcher(typing.Protocol):
    """Who hears how the long polls end (:class:`bot.conflicts.PollWatch`)."""

    def answered(self, sent: float) -> None: ...

    def timed_out(self, sent: float, error: TimedOut) -> None: ...


#: getUpdates' own pool: the long poll and, at a stop, the last call that confirms the offset.
POLL_POOL_SIZE = 2


def bot_request(pool_size: int = CONNECTION_POOL_SIZE) -> AiohttpRequest:
    """The request object for the bot's calls."""
    return AiohttpRequest(pool_size)


def poll_request(watch: PollWatcher | None = None) -> AiohttpRequest:
    """The request object for getUpdates. PTB's default (an ``HTTPXRequest`` of one
    connection) can keep its only connection checked out when a long poll is torn down
    mid-flight (httpcore), and then the stop's last getUpdates, or every poll after a network
    drop, fails with "Pool timeout". Here a cancelled call gives its slot back at once.
    ``watch`` hears of each getUpdates Telegram answers (200 OK), and of each it did not
    answer in time (PTB tries those again at once without a word, nor its error callback:
    operator QA, Telegram frozen for 80 s, no line said polling failed), with the
    (monotonic) time it was sent."""
    return AiohttpRequest(POLL_POOL_SIZE,
                          on_answer=None if watch is None else watch.answered,
                          on_timeout=None if watch is None else watch.timed_out)
