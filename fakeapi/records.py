"""What was done, as tests and benchmarks read it afterwards: each tap with the bot's answer,
each call the bot made with how it was answered, and each call that broke the Bot API."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .chats import FakeUser
    from .messages import StoredMessage


@dataclass(eq=False)
class CallbackQueryRecord:
    """One button tap and, once the bot has answered it, the answer."""

    id: str
    user: FakeUser
    message: StoredMessage
    data: str
    answered: bool = False
    answer_text: str | None = None
    show_alert: bool = False
    url: str | None = None
    #: ``time.monotonic()`` of the tap and of its answer's arrival (benchmarks read them).
    pressed_at: float = field(default_factory=time.monotonic)
    answered_at: float | None = None

    @property
    def start_payload(self) -> str | None:
        """The deep-link payload if the bot answered with a t.me/<bot>?start= URL."""
        return self.message.sender.world.deep_link_payload(self.url) if self.url else None


@dataclass(frozen=True)
class RequestRecord:
    """One HTTP call to the Bot API, as answered. ``at`` is ``time.monotonic()`` on arrival."""

    method: str
    params: dict[str, Any] = field(repr=False)
    at: float
    status: int
    description: str | None = None
    chat_id: int | None = None
    client: str = ""  # the caller's address and port: which connection (so, which process)

    @property
    def ok(self) -> bool:
        return self.status == 200


@dataclass(frozen=True)
class Violation:
    """A request that breaks the Bot API schema or its documented limits."""

    method: str
    problems: tuple[str, ...]
    params: dict[str, Any] = field(repr=False)

    def __str__(self) -> str:
        return f"{self.method}: " + "; ".join(self.problems)
