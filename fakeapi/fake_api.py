"""A fake Telegram Bot API server for end-to-end tests and the offline demo.

Point python-telegram-bot at it with ``base_url=server.base_url`` and
``base_file_url=server.base_file_url``. Every request is checked against the Bot API schema; a
request that breaks it is answered 400 and kept in ``server.violations``, which tests check with
``server.assert_no_violations()``. Simulated users (``server.add_user``) send messages and tap
buttons, which become updates for the bot's getUpdates long polling, or, once the bot calls
setWebhook, POSTs to its webhook (``server.webhook``).

The server is the face tests drive; its parts live beside it: ``world.py`` (users, chats,
messages), ``endpoint.py`` (the HTTP side: routing, the schema, the records of each call) and
``faults.py`` (the failures a test injects, and Telegram's flood limits).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from .accounting import LimitReport, TapAnswers, crowded_private_windows, limit_report, tap_answers
from .chats import FakeChat, FakeTopic, FakeUser
from .endpoint import DROPPED, Endpoint
from .errors import ProtocolViolationError, WaitTimeoutError
from .faults import Faults
from .messages import StoredFile, StoredMessage
from .ratelimit import RateLimits, Worst, counts_toward_limits, max_in_window, worst_windows
from .records import CallbackQueryRecord, RequestRecord
from .schema import load_schema
from .waiting import wait_set
from .webhook import Webhook, WebhookTiming
from .world import World

T = TypeVar("T")

DEFAULT_TOKEN = "7000000001:AAFakeTokenForOfflineTestsAndDemo00"


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
        host: str = "127.0.0.1",
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
        self._faults = Faults(self.world, rate_limits, self._notify)
        # The failures a test injects, each documented in faults.py.
        self.fail_next = self._faults.fail_next
        self.flood_wait = self._faults.flood_wait
        self.fail_every_call = self._faults.fail_every_call
        self.end_outage = self._faults.end_outage
        self.drop_connection = self._faults.drop_connection
        self.hold = self._faults.hold
        self._last_activity = time.monotonic()
        self._changed = asyncio.Event()
        self._port = port
        self._host = host  # "0.0.0.0" for bots in containers (testservers.composed)
        self._runner: web.AppRunner | None = None
        #: setWebhook's registration and every delivery attempt (``webhook.attempts``)
        self.webhook = Webhook(
            self.world.updates,
            self._notify,
            webhook_timing or WebhookTiming(),
            lambda problem: self._endpoint.violate("setWebhook", [problem], {}),
        )
        self._endpoint = Endpoint(token, self.world, self._faults, self.webhook, self._notify)
        #: Every call the bot made, as answered; those that broke the Bot API; and the
        #: (method, parameter) pairs ignored as python-telegram-bot's Defaults.
        self.requests = self._endpoint.requests
        self.violations = self._endpoint.violations
        self.ignored_parameters = self._endpoint.ignored_parameters

    # --- lifecycle --------------------------------------------------------------------

    async def start(self) -> FakeTelegramServer:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._endpoint.handle)
        self._runner = web.AppRunner(
            app, handler_cancellation=True, access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
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

    def rename_topic(self, topic: FakeTopic, name: str, by: FakeUser) -> None:
        """A member renames a topic (``forum_topic_edited``)."""
        self.world.rename_topic(topic, name, by)

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

    def restrict_bot(self, chat: FakeChat, *, may_send: bool, may_send_media: bool = True,
                     by: FakeUser | None = None) -> None:
        """A supergroup's admin forbids the bot to send messages there (``may_send=False``:
        its sends answer "not enough rights to send ... to the chat"), or media alone
        (``may_send_media=False``: its photos are refused, its texts go), or allows them
        again."""
        self.world.restrict_bot(chat, may_send=may_send, may_send_media=may_send_media, by=by)

    def delete_group(self, chat: FakeChat) -> None:
        """An owner deletes the group, and Telegram tells the bot nothing: its calls about it
        answer 403 "the group chat was deleted" (a basic group) or 400 "chat not found"."""
        chat.deleted = True
        self._notify()

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

    # --- limits and what the bot did --------------------------------------------------

    @property
    def early_calls(self) -> list[tuple[int, float]]:
        """(chat id, time) of each call that came while its chat's flood wait lasted."""
        return list(self._faults.floods.early)

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
        return limit_report(self.requests, groups, len(self._faults.floods.early), group_period,
                            private_period)

    def crowded_private_windows(self, private_period: float = 3.0, most: int = 3) -> list[str]:
        """What made each private chat's window of more than ``most`` calls (for a message)."""
        groups = {c.id for c in self.world.chats.values() if c.is_group}
        return crowded_private_windows(self.requests, groups, private_period, most)

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
                and self._endpoint.in_flight == 0
                and time.monotonic() - self._last_activity >= quiet
            )

        await self.wait_for(idle, timeout, "the bot going idle")
