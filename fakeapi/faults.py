"""What makes a call go wrong that the call itself does not: the failures a test injects (an
error answer, an outage, a flood wait in one chat, a connection dropped without an answer, an
answer held back) and Telegram's own flood limits, when the server is given ``RateLimits``.

Tests reach the controls as the server's own methods (``server.fail_next``, ``server.hold``...);
the HTTP side asks :meth:`Faults.refuse` before a call acts, then whether to drop or hold it.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict, deque
from collections.abc import Callable
from typing import Any

from .chats import FakeChat
from .errors import ApiError
from .ratelimit import FloodWaits, RateLimiter, RateLimits, counts_toward_limits
from .waiting import wait_set
from .world import World


def _too_many(retry_after: int) -> ApiError:
    """Telegram's 429, which tells the bot how long to wait."""
    return ApiError(
        429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
    )


class Hold:
    """One call whose answer waits until :meth:`release` (see :meth:`Faults.hold`):
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


class Faults:
    """The failures waiting for one fake server's calls, and its flood limits."""

    def __init__(
        self, world: World, rate_limits: RateLimits | None, notify: Callable[[], None]
    ) -> None:
        self._world = world
        self._notify = notify
        self._limiter = RateLimiter(rate_limits) if rate_limits else None
        self._failures: dict[str, deque[tuple[ApiError, int | None]]] = defaultdict(deque)
        self._drops: dict[str, deque[tuple[bool, int | None]]] = defaultdict(deque)
        self._holds: dict[str, deque[tuple[Hold, int | None]]] = defaultdict(deque)
        self.floods = FloodWaits()
        self._outage: tuple[ApiError, frozenset[str]] | None = None

    # --- what a test injects ----------------------------------------------------------

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
            _too_many(retry_after)
            if retry_after is not None
            else ApiError(error_code, description)
        )
        self._failures[method].extend([(error, None if chat is None else chat.id)] * times)

    def flood_wait(self, chat: FakeChat, retry_after: int, *, times: int = 1) -> None:
        """The next call to ``chat`` is answered 429 "retry after ``retry_after``", and so is
        every call to it during those seconds (counted in ``early_calls``)."""
        self.floods.arm(chat.id, retry_after, times)

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

    # --- what a call meets ------------------------------------------------------------

    def refuse(self, method: str, params: dict[str, Any]) -> None:
        """Raise the error a call meets before it acts, if any: the outage, its chat's flood
        wait, the next failure injected for it, or the flood limit it would break."""
        if self._outage is not None and method not in self._outage[1]:
            raise self._outage[0]
        chat_id = params.get("chat_id")
        if isinstance(chat_id, int):
            retry_after = self.floods.check(chat_id, time.monotonic())
            if retry_after is not None:
                raise _too_many(retry_after)
        failures = self._failures.get(method)
        if failures and failures[0][1] in (None, params.get("chat_id")):
            raise failures.popleft()[0]
        self._enforce_limits(method, params)

    def take_drop(self, method: str, params: dict[str, Any]) -> bool | None:
        """Whether to drop this call after acting (True), before (False), or not (None)."""
        drops = self._drops.get(method)
        if not drops or drops[0][1] not in (None, self._chat_of(method, params)):
            return None
        return drops.popleft()[0]

    def take_hold(self, method: str, params: dict[str, Any]) -> Hold | None:
        """The hold waiting for this call, if any."""
        holds = self._holds.get(method)
        if not holds or holds[0][1] not in (None, self._chat_of(method, params)):
            return None
        return holds.popleft()[0]

    def _chat_of(self, method: str, params: dict[str, Any]) -> Any:
        """The chat a call acts in (a tap's answer: the tapped message's chat)."""
        if method == "answerCallbackQuery":
            record = self._world.callbacks.get(params.get("callback_query_id", ""))
            return record.message.chat.id if record is not None else None
        return params.get("chat_id")

    def _enforce_limits(self, method: str, params: dict[str, Any]) -> None:
        if self._limiter is None or not counts_toward_limits(method):
            return
        chat_id = params.get("chat_id")
        world = self._world
        chat = world.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None and chat_id in world.users:  # a first message to a private chat
            chat = world.private_chat(world.users[chat_id])
        retry_after = self._limiter.check(
            chat.id if chat else None, bool(chat and chat.is_group), time.monotonic()
        )
        if retry_after is not None:
            raise _too_many(retry_after)
