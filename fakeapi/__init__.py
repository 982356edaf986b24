"""A fake Telegram Bot API server, for the bot's end-to-end tests and its offline demo.

It speaks HTTP like api.telegram.org and never imports ``telegram``: python-telegram-bot talks to
it through its real HTTP stack, and every request is checked against the Bot API schema.
"""

from .accounting import LimitReport, TapAnswers
from .chats import FakeChat, FakeTopic, FakeUser
from .errors import (
    ApiError,
    FakeTelegramError,
    ProtocolViolationError,
    ScenarioError,
    WaitTimeoutError,
)
from .fake_api import DEFAULT_TOKEN, FakeTelegramServer
from .faults import Hold
from .messages import Button, MessageVersion, StoredFile, StoredMessage
from .ratelimit import RateLimits
from .records import CallbackQueryRecord, RequestRecord, Violation
from .webhook import SECRET_HEADER, DeliveryAttempt, WebhookTarget, WebhookTiming

__all__ = [
    "DEFAULT_TOKEN",
    "SECRET_HEADER",
    "ApiError",
    "Button",
    "CallbackQueryRecord",
    "DeliveryAttempt",
    "FakeChat",
    "FakeTopic",
    "FakeTelegramError",
    "FakeTelegramServer",
    "FakeUser",
    "Hold",
    "LimitReport",
    "MessageVersion",
    "ProtocolViolationError",
    "RateLimits",
    "RequestRecord",
    "ScenarioError",
    "StoredFile",
    "StoredMessage",
    "TapAnswers",
    "Violation",
    "WaitTimeoutError",
    "WebhookTarget",
    "WebhookTiming",
]
