"""The fake server's one exception hierarchy."""

from __future__ import annotations

from typing import Any


class FakeTelegramError(Exception):
    """Base class of every error the fake Bot API server raises."""


class ApiError(FakeTelegramError):
    """An error answer to the bot, worded as Telegram words it (``Bad Request: ...``)."""

    def __init__(
        self, code: int, description: str, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters

    @classmethod
    def bad_request(cls, detail: str, **parameters: Any) -> ApiError:
        return cls(400, f"Bad Request: {detail}", parameters or None)

    @classmethod
    def forbidden(cls, detail: str) -> ApiError:
        return cls(403, f"Forbidden: {detail}")

    def to_api(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


class ScenarioError(FakeTelegramError, ValueError):
    """A test asked a simulated user to do something impossible (press a missing button)."""


class ProtocolViolationError(FakeTelegramError, AssertionError):
    """The bot sent requests that break the Bot API schema or its documented limits."""


class WaitTimeoutError(FakeTelegramError, AssertionError):
    """``wait_for``/``wait_idle`` gave up: the expected state never came."""
