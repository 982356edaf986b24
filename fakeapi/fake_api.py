"""A fake Telegram Bot API server for end-to-end tests and the offline demo.

Point python-telegram-bot at it with ``base_url=server.base_url`` and
``base_file_url=server.base_file_url``. Every request is checked against the Bot API schema; a
request that breaks it is answered 400 and kept in ``server.violations``, which tests check with
``server.assert_no_violations()``. Simulated users (``server.add_user``) send messages and tap
buttons, which become updates for the bot's getUpdates long polling, or, once the bot calls
setWebhook, POSTs to its webhook (``server.webhook``).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from . import bot_methods, message_methods
from .accounting import LimitReport, TapAnswers, limit_report, tap_answers
from .chats import FakeChat, FakeTopic, FakeUser
from .errors import ApiError, ProtocolViolationError, WaitTimeoutError
from .message_methods import Call
from .messages import StoredFile, StoredMessage
from .ratelimit import (
    FloodWaits,
    RateLimiter,
    RateLimits,
    Worst,
    counts_toward_limits,
    max_in_window,
    worst_windows,
)
from .records import CallbackQueryRecord, RequestRecord, Violation
from .schema import Uploaded, load_schema
from .waiting import wait_set
from .webhook import METHODS as WEBHOOK_METHODS
from .webhook import Webhook, WebhookTiming
from .wire import read_parameters, reply
from .world import World

T = TypeVar("T")

DEFAULT_TOKEN = "7000000001:AAFakeTokenForOfflineTestsAndDemo00"
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


class Hold:
    """One call whose answer waits until :meth:`release` (see :meth:`FakeTelegramServer.hold`):
    ``holding`` while it waits; ``result`` is what it will answer, once it has acted."""

    def __init__(self, after_acting: bool, timeout: float, notify: Callable[[], None]) -> None:
        self.after_acting = after_acting
        self.timeout = timeout
        self.holding = False
        self.result: Any = None
        self._released = asyncio.Event()
        self._notify = notify

    def release(self) -> None:
        self._released.set()

    async def wait(self) -> None:
        self.holding = True
        self._notify()
        try:
            await wait_set(self._released, self.timeout)  # a hold forgotten must not hang it
        finally:
            self.holding = False


class FakeTelegramServer:
    """The fake Bot API: an aiohttp server on 127.0.0.1 plus the API tests drive it with."""

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = "domino_test_bot",
        bot_first_name: str = "Domino Test Bot",
        privacy_mode: bool = True,
        rate_limits: RateLimits | None = None,
        port: int = 0,
        webhook_timing: WebhookTiming | None = None,
    ) -> None:
        self.token = token
        self.schema = load_schema()
        self.world = World(int(token.split(":")[0]), bot_username, bot_first_name, privacy_mode)
        self.world.on_change = self._notify
        #: ``add_user(first_name, *, username, language_code="en", last_name, user_id, started)``
        self.add_user = self.world.add_user
        #: ``add_group(title, members, *, admins, owner, supergroup, bot_is_admin, forum)``
        self.add_group = self.world.add_group
        self.rate_limits = rate_limits
        self._limiter = RateLimiter(rate_limits) if rate_limits else None
        self.requests: list[RequestRecord] = []
        self.violations: list[Violation] = []
        self.ignored_parameters: list[tuple[str, str]] = []
        self._failures: dict[str, deque[tuple[ApiError, int | None]]] = defaultdict(deque)
        self._drops: dict[str, deque[tuple[bool, int | None]]] = defaultdict(deque)
        self._holds: dict[str, deque[tuple[Hold, int | None]]] = defaultdict(deque)
        self.floods = FloodWaits()
        self._outage: tuple[ApiError, frozenset[str]] | None = None
        self._in_flight = 0
        self._last_activity = time.monotonic()
        self._changed = asyncio.Event()
        self._port = port
        self._runner: web.AppRunner | None = None
        #: setWebhook's registration and every delivery attempt (``webhook.attempts``)
        self.webhook = Webhook(
            self.world.updates,
            self._notify,
            webhook_timing or WebhookTiming(),
            lambda problem: self._violate("setWebhook", [problem], {}),
        )

    # --- lifecycle --------------------------------------------------------------------

    async def start(self) -> FakeTelegramServer:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(
            app, handler_cancellation=True, access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self._port)
        await site.start()
        server = site._server  # aiohttp keeps the bound socket here; port 0 needs it
        assert server is not None
        self._port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        return self

    async def stop(self) -> None:
        """Stop serving; long polls still waiting return an empty list at once."""
        self.world.updates.close()
        await self.webhook.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegramServer:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def api_root(self) -> str:
        """What the bot's TELEGRAM_API_BASE_URL should be."""
        return f"http://127.0.0.1:{self._port}"

    @property
    def base_url(self) -> str:
        return f"{self.api_root}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.api_root}/file/bot"

    # --- the simulated world ----------------------------------------------------------

    @property
    def bot(self) -> FakeUser:
        return self.world.bot

    def migrate_group(self, group: FakeChat, by: FakeUser | None = None) -> FakeChat:
        """Upgrade a group to a supergroup; returns the new chat."""
        chat = self.world.migrate_group(group, by)
        self._notify()
        return chat

    def create_topic(self, chat: FakeChat, name: str, by: FakeUser) -> FakeTopic:
        """A member opens a topic in a forum (``add_group(..., forum=True)``)."""
        return self.world.create_topic(chat, name, by)

    def close_topic(self, topic: FakeTopic, by: FakeUser) -> None:
        """An admin closes a topic: the bot's sends there answer "TOPIC_CLOSED" unless it is
        an admin."""
        self.world.close_topic(topic, by)

    def close_general(self, chat: FakeChat, by: FakeUser, *, closed: bool = True) -> None:
        """An admin closes (``closed=False``: reopens) a forum's General topic: the bot's sends
        there answer "TOPIC_CLOSED" unless it is an admin."""
        self.world.close_general(chat, by, closed=closed)

    def reopen_topic(self, topic: FakeTopic, by: FakeUser) -> None:
        self.world.reopen_topic(topic, by)

    def delete_topic(self, topic: FakeTopic) -> None:
        """An admin deletes a topic and its messages: sends there answer "message thread not
        found", edits "message to edit not found"."""
        self.world.delete_topic(topic)

    def topic_messages(self, chat: FakeChat, topic: FakeTopic | None) -> list[StoredMessage]:
        """The bot's messages in one topic of a forum (None: General), oldest first."""
        thread = topic.thread_id if topic is not None else None
        return [m for m in self.bot_messages(chat) if m.thread_id == thread]

    def kick_bot(self, chat: FakeChat, by: FakeUser | None = None) -> None:
        """Remove the bot from ``chat`` (and tell it, as Telegram does)."""
        self.world.remove_bot(chat, by)
        self._notify()

    def add_bot(self, chat: FakeChat, by: FakeUser | None = None) -> None:
        """Add the bot back to ``chat`` after :meth:`kick_bot` (and tell it)."""
        self.world.add_bot(chat, by)

    def send_as_chat(self, user: FakeUser, chat: FakeChat, text: str, *,
                     as_chat: FakeChat | None = None, topic: FakeTopic | None = None
                     ) -> StoredMessage:
        """``user`` writes ``text`` in ``chat`` anonymously: as the group itself (an admin;
        ``as_chat`` None) or as a channel (``as_chat``, from :meth:`add_channel`)."""
        return self.world.sends_as_chat(user, chat, text, as_chat or chat, topic)

    def add_channel(self, title: str) -> FakeChat:
        """A channel a user may write on behalf of."""
        return self.world.add_channel(title)

    def age(self, message: StoredMessage, days: float) -> None:
        """Make a message ``days`` older: past two days, taps on it come with an
        InaccessibleMessage and the bot may no longer delete it."""
        self.world.age(message, days * 86400)

    def restrict_bot(self, chat: FakeChat, *, may_send: bool, by: FakeUser | None = None
                     ) -> None:
        """A supergroup's admin forbids the bot to send messages there (``may_send=False``:
        its sends answer "not enough rights to send ... to the chat") or allows it again."""
        self.world.restrict_bot(chat, may_send=may_send, by=by)

    def delete_message(self, message: StoredMessage, by: FakeUser) -> None:
        """``by`` deletes a message (a group's admin any message, anyone their own; in a
        private chat the bot's too): the bot is not told, its edits answer "message to edit
        not found" and replies to it "message to be replied not found"."""
        self.world.user_deletes(by, message)

    def messages(self, chat: FakeChat, *, include_deleted: bool = False) -> list[StoredMessage]:
        """Every message in the chat, oldest first (users', the bot's and service messages)."""
        return [m for m in self.world.messages_in(chat) if include_deleted or not m.deleted]

    def bot_messages(self, chat: FakeChat) -> list[StoredMessage]:
        return [m for m in self.messages(chat) if m.from_bot and m.service is None]

    def last_bot_message(self, chat: FakeChat) -> StoredMessage | None:
        found = self.bot_messages(chat)
        return found[-1] if found else None

    def message(self, chat: FakeChat, message_id: int) -> StoredMessage:
        return self.world.messages[(chat.id, message_id)]

    def photos(self, chat: FakeChat) -> list[StoredFile]:
        """Every picture the bot showed in the chat, in order, edits included."""
        shown = [
            (version.seq, version.photo)
            for message in self.world.messages_in(chat)
            if message.from_bot
            for version in message.versions
            if version.photo is not None
        ]
        return [photo for _, photo in sorted(shown, key=lambda pair: pair[0])]

    def animations(self, chat: FakeChat) -> list[StoredMessage]:
        """The bot's messages in the chat that carry an animation, oldest first (read their
        bytes with ``animation_bytes``)."""
        return [m for m in self.bot_messages(chat) if m.animation is not None]

    @property
    def callbacks(self) -> list[CallbackQueryRecord]:
        return list(self.world.callbacks.values())

    @property
    def updates(self) -> list[dict[str, Any]]:
        """Every update ever queued for the bot."""
        return list(self.world.updates.history)

    def transcript(self, chat: FakeChat | None = None) -> str:
        """What happened in ``chat`` (or everywhere, with chat names) as readable lines."""
        if chat is not None:
            return "\n".join(line for chat_id, line in self.world.events if chat_id == chat.id)
        names = {c.id: c.name for c in self.world.chats.values()}
        return "\n".join(f"[{names[chat_id]}] {line}" for chat_id, line in self.world.events)

    # --- failures, limits and what the bot did -----------------------------------------

    def fail_next(
        self,
        method: str,
        retry_after: int | None = None,
        *,
        error_code: int = 400,
        description: str = "Bad Request: injected failure",
        times: int = 1,
        chat: FakeChat | None = None,
    ) -> None:
        """Answer the next ``times`` calls of ``method`` (in ``chat``, if given) with an error
        (429 with retry_after)."""
        error = (
            ApiError(
                429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
            )
            if retry_after is not None
            else ApiError(error_code, description)
        )
        self._failures[method].extend([(error, None if chat is None else chat.id)] * times)

    def flood_wait(self, chat: FakeChat, retry_after: int, *, times: int = 1) -> None:
        """The next call to ``chat`` is answered 429 "retry after ``retry_after``", and so is
        every call to it during those seconds (counted in ``early_calls``)."""
        self.floods.arm(chat.id, retry_after, times)

    @property
    def early_calls(self) -> list[tuple[int, float]]:
        """(chat id, time) of each call that came while its chat's flood wait lasted."""
        return list(self.floods.early)

    def fail_every_call(
        self, error_code: int = 502, description: str = "Bad Gateway",
        *, except_methods: tuple[str, ...] = (),
    ) -> None:
        """An outage: every call (but ``except_methods``) is answered with an error until
        :meth:`end_outage`."""
        self._outage = (ApiError(error_code, description), frozenset(except_methods))

    def end_outage(self) -> None:
        self._outage = None

    def drop_connection(
        self, method: str, *, after_acting: bool, chat: FakeChat | None = None, times: int = 1
    ) -> None:
        """Close the connection of the next ``times`` calls of ``method`` (in ``chat``, if
        given) without an answer: before acting (nothing happened), or after (it happened,
        but the bot cannot know). The bot sees the same lost answer either way."""
        self._drops[method].extend([(after_acting, None if chat is None else chat.id)] * times)

    def hold(
        self, method: str, *, after_acting: bool, chat: FakeChat | None = None,
        timeout: float = 10.0,
    ) -> Hold:
        """Hold the answer to the next call of ``method`` (in ``chat``, if given) until the
        returned hold's ``release()`` (at most ``timeout`` seconds): after acting (a sent
        message is there to tap, but the bot does not know its id yet), or before."""
        held = Hold(after_acting, timeout, self._notify)
        self._holds[method].append((held, None if chat is None else chat.id))
        return held

    @property
    def dropped(self) -> list[RequestRecord]:
        """Requests whose connection was closed without an answer, in order."""
        return [r for r in self.requests if r.status == DROPPED]

    @property
    def errors(self) -> list[RequestRecord]:
        """Requests answered with an error, in order (not those dropped unanswered)."""
        return [r for r in self.requests if not r.ok and r.status != DROPPED]

    def requests_for(
        self, method: str | None = None, chat: FakeChat | None = None
    ) -> list[RequestRecord]:
        return [
            r
            for r in self.requests
            if (method is None or r.method == method) and (chat is None or r.chat_id == chat.id)
        ]

    def max_requests_in_window(self, chat: FakeChat | None, seconds: float) -> int:
        """Most sends/edits answered OK in any ``seconds``-long window (to one chat, or all)."""
        times = [
            r.at
            for r in self.requests
            if r.ok and counts_toward_limits(r.method) and (chat is None or r.chat_id == chat.id)
        ]
        return max_in_window(sorted(times), seconds)

    def worst_windows(self, group_period: float = 60.0, overall_period: float = 1.0) -> Worst:
        """The most sends/edits answered OK in any rolling ``group_period`` in one group, and
        in any rolling ``overall_period`` over all chats, during the whole run."""
        groups = {c.id for c in self.world.chats.values() if c.is_group}
        calls = [(r.at, r.chat_id) for r in self.requests if r.ok and counts_toward_limits(
            r.method)]
        return worst_windows(calls, groups, group_period, overall_period)

    def tap_answers(self) -> TapAnswers:
        """How many answers each tap got, over every process that answered taps."""
        return tap_answers(self.world.callbacks.values(), self.requests)

    def limit_report(self, group_period: float = 60.0, private_period: float = 3.0
                     ) -> LimitReport:
        """The whole run's worst windows (per group, overall, per private chat) and 429s."""
        groups = {c.id for c in self.world.chats.values() if c.is_group}
        return limit_report(self.requests, groups, len(self.floods.early), group_period,
                            private_period)

    def assert_no_violations(self) -> None:
        if self.violations:
            listing = "\n".join(f"  {v}" for v in self.violations)
            raise ProtocolViolationError(f"{len(self.violations)} Bot API violation(s):\n{listing}")

    # --- waiting ----------------------------------------------------------------------

    def _notify(self) -> None:
        self._last_activity = time.monotonic()
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 10.0, message: str = ""
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value.

        Fails at once if the bot breaks the Bot API meanwhile, and after ``timeout`` seconds
        with the end of the transcript, so a stuck test says where it stuck.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        violations = len(self.violations)
        while True:
            changed = self._changed
            value = predicate()
            if value:
                return value
            if len(self.violations) > violations:
                self.assert_no_violations()
            remaining = deadline - loop.time()
            if remaining <= 0:
                tail = "\n".join(self.transcript().splitlines()[-15:])
                raise WaitTimeoutError(
                    f"not reached within {timeout}s: {message or predicate}\n"
                    f"--- last events:\n{tail}"
                )
            await wait_set(changed, min(remaining, 0.1))

    async def wait_idle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Wait until the bot has fetched every update and made no request for ``quiet`` s."""

        def idle() -> bool:
            return (
                self.world.updates.all_delivered
                and self._in_flight == 0
                and time.monotonic() - self._last_activity >= quiet
            )

        await self.wait_for(idle, timeout, "the bot going idle")

    # --- HTTP ---------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        file_match = _FILE_PATH.fullmatch(request.path)
        if file_match is not None:
            return self._serve_file(file_match[1], file_match[2])
        api_match = _API_PATH.fullmatch(request.path)
        if api_match is None:
            return reply(404, {"ok": False, "error_code": 404, "description": "Not Found"})
        if api_match[1] != self.token:
            return reply(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        method = self.schema.method_name(api_match[2]) or api_match[2]
        polling = method == "getUpdates"
        if not polling:
            self._in_flight += 1
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
            self._violate(method, [f"the fake server crashed: {crash!r}"], params)
            status, body = 500, ApiError(500, "Internal Server Error").to_api()
        finally:
            if not polling:
                self._in_flight -= 1
        chat_id = params.get("chat_id")
        self.requests.append(
            RequestRecord(
                method,
                params,
                arrived,
                status,
                body.get("description"),
                chat_id if isinstance(chat_id, int) else None,
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
        if method not in self.schema.methods:
            self._violate(method, [f"there is no Bot API method {method!r}"], raw)
            raise ApiError(404, "Not Found: method not found")
        fields = self.schema.methods[method].fields
        for name in PTB_DEFAULTS_FIELDS & raw.keys() - fields.keys():
            self.ignored_parameters.append((method, name))
            del raw[name]
        params, problems = self.schema.validate_call(method, raw, files)
        if problems:
            self._violate(method, problems, raw)
            raise ApiError.bad_request("request breaks the Bot API schema: " + "; ".join(problems))
        seen.update(params)
        if method not in _HANDLERS and method not in _SERVER_METHODS:
            self._violate(method, ["the fake server does not implement this method"], raw)
            raise ApiError.bad_request(f"the fake server does not implement {method}")
        if self._outage is not None and method not in self._outage[1]:
            raise self._outage[0]
        chat_id = params.get("chat_id")
        if isinstance(chat_id, int):
            retry_after = self.floods.check(chat_id, time.monotonic())
            if retry_after is not None:
                raise ApiError(429, f"Too Many Requests: retry after {retry_after}",
                               {"retry_after": retry_after})
        failures = self._failures.get(method)
        if failures and failures[0][1] in (None, params.get("chat_id")):
            raise failures.popleft()[0]
        self._enforce_limits(method, params)
        drop = self._take_drop(method, params)
        if drop is False:
            raise _DroppedError
        held = self._take_hold(method, params)
        if held is not None and not held.after_acting:
            await held.wait()
        if method == "getUpdates":
            result: Any = await self.world.updates.get(
                params.get("offset"),
                params.get("limit"),
                params.get("timeout"),
                params.get("allowed_updates"),
            )
        elif method in WEBHOOK_METHODS:
            result = await self.webhook.answer(method, params, files)
        else:
            result = _HANDLERS[method](self.world, Call(params, files))
        self._check_result(method, result)
        if held is not None and held.after_acting:
            held.result = result
            await held.wait()
        if drop is True:
            raise _DroppedError
        return result

    def _take_drop(self, method: str, params: dict[str, Any]) -> bool | None:
        """Whether to drop this call after acting (True), before (False), or not (None)."""
        drops = self._drops.get(method)
        if not drops or drops[0][1] not in (None, self._chat_of(method, params)):
            return None
        return drops.popleft()[0]

    def _take_hold(self, method: str, params: dict[str, Any]) -> Hold | None:
        holds = self._holds.get(method)
        if not holds or holds[0][1] not in (None, self._chat_of(method, params)):
            return None
        return holds.popleft()[0]

    def _chat_of(self, method: str, params: dict[str, Any]) -> Any:
        """The chat a call acts in (a tap's answer: the tapped message's chat)."""
        if method == "answerCallbackQuery":
            record = self.world.callbacks.get(params.get("callback_query_id", ""))
            return record.message.chat.id if record is not None else None
        return params.get("chat_id")

    def _enforce_limits(self, method: str, params: dict[str, Any]) -> None:
        if self._limiter is None or not counts_toward_limits(method):
            return
        chat_id = params.get("chat_id")
        chat = self.world.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None and chat_id in self.world.users:  # a first message to a private chat
            chat = self.world.private_chat(self.world.users[chat_id])
        retry_after = self._limiter.check(
            chat.id if chat else None, bool(chat and chat.is_group), time.monotonic()
        )
        if retry_after is not None:
            raise ApiError(
                429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
            )

    def _check_result(self, method: str, result: Any) -> None:
        """The fake's own answers must fit the schema too, or PTB would be tested on fiction."""
        returns = self.schema.methods[method].returns
        attempts = [self.schema.validate_object(expected, result) for expected in returns]
        if attempts and all(attempts):
            problems = ["fake server answer breaks the schema: ", *min(attempts, key=len)]
            self._violate(method, problems, {"result": result})

    def _violate(self, method: str, problems: list[str], params: dict[str, Any]) -> None:
        self.violations.append(Violation(method, tuple(problems), dict(params)))

    def _serve_file(self, token: str, path: str) -> web.Response:
        if token != self.token:
            return reply(401, {"ok": False, "error_code": 401, "description": "Unauthorized"})
        stored = next((f for f in self.world.files.values() if f.path == path), None)
        if stored is None:
            return reply(404, {"ok": False, "error_code": 404, "description": "Not Found"})
        return web.Response(body=stored.data, content_type="application/octet-stream")
