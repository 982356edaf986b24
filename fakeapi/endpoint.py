"""The Bot API over HTTP: a request is routed by its path and token, its parameters are
checked against the schema, the injected faults may refuse, drop or hold it, and the world
answers it (or the update queue, or the webhook's state); that answer is checked against the
schema too, and every call is kept as a ``RequestRecord``.

A call that breaks the schema is answered 400 and kept as a ``Violation``, as is an answer of
the fake's own that breaks it, and a crash of the fake (answered 500): a test fails on any.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from . import bot_methods, message_methods
from .errors import ApiError
from .faults import Faults
from .message_methods import Call
from .records import RequestRecord, Violation
from .schema import Uploaded, load_schema
from .webhook import METHODS as WEBHOOK_METHODS
from .webhook import Webhook
from .wire import read_parameters, reply
from .world import World

_API_PATH = re.compile(r"/bot([^/]+)/([A-Za-z]+)/?")
_FILE_PATH = re.compile(r"/file/bot([^/]+)/(.+)")
_HANDLERS = message_methods.HANDLERS | bot_methods.HANDLERS
_SERVER_METHODS = WEBHOOK_METHODS | {"getUpdates"}  # answered by the server's own state
#: python-telegram-bot's ``Defaults`` add these to every method it routes through one helper
#: (parse_mode on editMessageReplyMarkup, for one); Telegram ignores them, so the fake does too.
PTB_DEFAULTS_FIELDS = frozenset(
    {"parse_mode", "disable_notification", "protect_content", "link_preview_options"}
)


DROPPED = 0  # the status recorded for a call whose connection was closed without an answer


class _DroppedError(Exception):
    """Raised inside the fake to close a call's connection without answering it."""


class Endpoint:
    """Answers one fake server's HTTP requests, and keeps each call with how it was answered."""

    def __init__(
        self, token: str, world: World, faults: Faults, webhook: Webhook,
        notify: Callable[[], None],
    ) -> None:
        self._token = token
        self._schema = load_schema()
        self._world = world
        self._faults = faults
        self._webhook = webhook
        self._notify = notify
        self.requests: list[RequestRecord] = []
        self.violations: list[Violation] = []
        self.ignored_parameters: list[tuple[str, str]] = []
        self.in_flight = 0  # calls being answered, long polls aside

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Answer one HTTP request: a file download or a Bot API call, kept in ``requests``."""
        file_match = _FILE_PATH.fullmatch(request.path)
        if file_match is not None:
            return self._serve_file(file_match[1], file_match[2])
        api_match = _API_PATH.fullmatch(request.path)
        if api_match is None:
            return reply(404, {"ok": False, "error_code": 404, "description": "Not Found"})
        if api_match[1] != self._token:
            return reply(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        method = self._schema.method_name(api_match[2]) or api_match[2]
        polling = method == "getUpdates"
        if not polling:
            self.in_flight += 1
        arrived = time.monotonic()
        params: dict[str, Any] = {}
        dropped = False
        try:
            raw, files = await read_parameters(request)
            result = await self._answer(method, raw, files, params)
            status, body = 200, {"ok": True, "result": result}
        except _DroppedError:
            dropped = True
            status, body = DROPPED, {"ok": False, "description": "connection dropped"}
        except ApiError as error:
            status, body = error.code, error.to_api()
        except Exception as crash:  # a bug in the fake must fail the test, not hang it
            self.violate(method, [f"the fake server crashed: {crash!r}"], params)
            status, body = 500, ApiError(500, "Internal Server Error").to_api()
        finally:
            if not polling:
                self.in_flight -= 1
        chat_id = params.get("chat_id")
        self.requests.append(
            RequestRecord(
                method,
                params,
                arrived,
                status,
                body.get("description"),
                chat_id if isinstance(chat_id, int) else None,
                _client(request),
            )
        )
        if not polling or body.get("result"):
            self._notify()
        if dropped:
            if request.transport is not None:
                request.transport.abort()  # no answer: the client sees the connection drop
            raise asyncio.CancelledError
        return reply(status, body)

    async def _answer(
        self, method: str, raw: dict[str, Any], files: dict[str, Uploaded], seen: dict[str, Any]
    ) -> Any:
        """The result of one call; ``seen`` receives the validated parameters."""
        if method not in self._schema.methods:
            self.violate(method, [f"there is no Bot API method {method!r}"], raw)
            raise ApiError(404, "Not Found: method not found")
        fields = self._schema.methods[method].fields
        for name in PTB_DEFAULTS_FIELDS & raw.keys() - fields.keys():
            self.ignored_parameters.append((method, name))
            del raw[name]
        params, problems = self._schema.validate_call(method, raw, files)
        if problems:
            self.violate(method, problems, raw)
            raise ApiError.bad_request("request breaks the Bot API schema: " + "; ".join(problems))
        seen.update(params)
        if method not in _HANDLERS and method not in _SERVER_METHODS:
            self.violate(method, ["the fake server does not implement this method"], raw)
            raise ApiError.bad_request(f"the fake server does not implement {method}")
        self._faults.refuse(method, params)
        drop = self._faults.take_drop(method, params)
        if drop is False:
            raise _DroppedError
        held = self._faults.take_hold(method, params)
        if held is not None and not held.after_acting:
            await held.wait()
        if method == "getUpdates":
            result: Any = await self._world.updates.get(
                params.get("offset"),
                params.get("limit"),
                params.get("timeout"),
                params.get("allowed_updates"),
            )
        elif method in WEBHOOK_METHODS:
            result = await self._webhook.answer(method, params, files)
        else:
            result = _HANDLERS[method](self._world, Call(params, files))
        self._check_result(method, result)
        if held is not None and held.after_acting:
            held.result = result
            await held.wait()
        if drop is True:
            raise _DroppedError
        return result

    def _check_result(self, method: str, result: Any) -> None:
        """The fake's own answers must fit the schema too, or PTB would be tested on fiction."""
        returns = self._schema.methods[method].returns
        attempts = [self._schema.validate_object(expected, result) for expected in returns]
        if attempts and all(attempts):
            problems = ["fake server answer breaks the schema: ", *min(attempts, key=len)]
            self.violate(method, problems, {"result": result})

    def violate(self, method: str, problems: list[str], params: dict[str, Any]) -> None:
        """Keep a breach of the Bot API (the bot's, or the fake's own) for the test to fail on."""
        self.violations.append(Violation(method, tuple(problems), dict(params)))

    def _serve_file(self, token: str, path: str) -> web.Response:
        if token != self._token:
            return reply(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        stored = next((f for f in self._world.files.values() if f.path == path), None)
        if stored is None:
            return reply(404, {"ok": False, "error_code": 404, "description": "Not Found"})
        return web.Response(body=stored.data, content_type="application/octet-stream")


def _client(request: web.Request) -> str:
    """Where a call came from, "host:port" ("" when the transport is gone)."""
    peer = request.transport.get_extra_info("peername") if request.transport else None
    return f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) >= 2 else ""
