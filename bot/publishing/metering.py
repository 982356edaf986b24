"""Every Bot API call counted by method and outcome, from around the bot's rate limiter.

python-telegram-bot passes each call but getUpdates through the rate limiter, once per attempt
(a 429 retried is two attempts); wrapping the limiter sees them all without touching it, and
the limiter keeps doing its own work. ``ApplicationBuilder().rate_limiter(MeteredLimiter(
limiter, metrics))`` is the whole wiring. It also shows each answer to ``on_answer``, where
the bot learns of every message it sends, however sent (:mod:`bot.publishing.tails`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from contextvars import ContextVar
from typing import Any, TypeVar

from telegram._utils.types import JSONDict
from telegram.error import BadRequest, NetworkError, RetryAfter
from telegram.ext import BaseRateLimiter

from ..serving.metrics import ApiOutcome, Metrics

log = logging.getLogger(__name__)
LimiterArgs = TypeVar("LimiterArgs")
Answer = bool | JSONDict | list[JSONDict]
#: Told of each call Telegram answers (any answer: a refusal too) made in its context: the
#: syncs', whose outages end only when Telegram answers one (:mod:`.telegramwaits`).
answers: ContextVar[Callable[[], None] | None] = ContextVar("answers", default=None)


def outcome_of(error: Exception | None) -> ApiOutcome:
    """How a call ended. PTB's BadRequest is a NetworkError too, but Telegram answered it."""
    if error is None:
        return ApiOutcome.OK
    if isinstance(error, RetryAfter):
        return ApiOutcome.RETRY_AFTER
    if isinstance(error, NetworkError) and not isinstance(error, BadRequest):
        return ApiOutcome.NETWORK  # no answer: refused, reset or timed out (TimedOut)
    return ApiOutcome.REFUSED


class MeteredLimiter(BaseRateLimiter[LimiterArgs]):
    """A rate limiter that counts each attempt, then lets ``inner`` decide everything."""

    def __init__(self, inner: BaseRateLimiter[LimiterArgs], metrics: Metrics,
                 on_answer: Callable[[str, Answer], None] | None = None) -> None:
        self._inner = inner
        self._metrics = metrics
        #: Shown each call's answer (the messages the bot sends: :mod:`bot.publishing.tails`).
        self._on_answer = on_answer

    async def initialize(self) -> None:
        await self._inner.initialize()

    async def shutdown(self) -> None:
        await self._inner.shutdown()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Answer]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: LimiterArgs | None,
    ) -> Answer:
        async def counted(*call_args: Any, **call_kwargs: Any) -> Answer:
            try:
                answer = await callback(*call_args, **call_kwargs)
            except Exception as error:  # counted, then left to the limiter and the bot
                self._metrics.api_call(endpoint, outcome := outcome_of(error))
                if outcome is not ApiOutcome.NETWORK:
                    _answered()
                raise
            self._metrics.api_call(endpoint, ApiOutcome.OK)
            _answered()
            if self._on_answer is not None:
                try:
                    self._on_answer(endpoint, answer)
                except Exception:  # Telegram made the call: it must not look failed
                    log.exception("noting the answer to %s failed", endpoint)
            return answer

        return await self._inner.process_request(
            counted, args, kwargs, endpoint, data, rate_limit_args
        )


def _answered() -> None:
    """Telegram answered a call: whoever watches this context hears it."""
    told = answers.get()
    if told is not None:
        told()
