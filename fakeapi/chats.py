"""Who is in the fake Telegram and where they talk: users (the bot among them), chats and forum
topics, and the deep links a user follows to the bot.

These are live records: a chat gains members and messages, a user blocks the bot. A user's
methods act through the world (``world.py``), which turns them into updates for the bot.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from .errors import ScenarioError

if TYPE_CHECKING:
    from .messages import StoredMessage
    from .records import CallbackQueryRecord
    from .world import World

_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(eq=False)
class FakeUser:
    """A simulated Telegram user (or the bot itself); its methods create real updates."""

    world: World = field(repr=False)
    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = None
    last_name: str | None = None
    is_bot: bool = False
    started: bool = False
    blocked: bool = False
    #: Telegram no longer finds the private chat (the account deleted, an id the bot never
    #: met): calls about it answer 400 "chat not found".
    unknown: bool = False

    def to_api(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    @property
    def private_chat(self) -> FakeChat:
        """The user's private chat with the bot (it exists even before /start)."""
        return self.world.private_chat(self)

    def send(
        self, chat: FakeChat, text: str, *, reply_to: StoredMessage | None = None,
        topic: FakeTopic | None = None,
    ) -> StoredMessage:
        """Send a text message (``/cmd`` and ``/cmd@bot`` get bot_command entities), in
        ``topic`` of a forum (None: its General topic)."""
        return self.world.user_sends(self, chat, text, reply_to, topic)

    def send_private(self, text: str) -> StoredMessage:
        """Send a text in the private chat with the bot (starting it if needed)."""
        return self.send(self.private_chat, text)

    def open_deep_link(self, payload: str | None = None) -> StoredMessage:
        """Open t.me/<bot>?start=<payload>: Telegram sends "/start <payload>" privately."""
        if payload is not None and not _PAYLOAD.fullmatch(payload):
            raise ScenarioError(
                f"invalid deep-link payload {payload!r} (A-Z, a-z, 0-9, _ and -, 1-64)"
            )
        return self.send_private("/start" if payload is None else f"/start {payload}")

    def open_url(self, url: str) -> StoredMessage:
        """Follow a t.me link to this bot (from a URL button or a callback answer)."""
        payload = self.world.deep_link_payload(url)
        return self.open_deep_link(payload or None)

    def press(self, message: StoredMessage, button: str) -> CallbackQueryRecord:
        """Tap the inline button whose text (or else callback_data) is ``button``."""
        found = message.button(button)
        if found.callback_data is None:
            raise ScenarioError(f"button {found.text!r} has no callback_data (url={found.url!r})")
        return self.world.user_presses(self, message, found.callback_data)

    def press_raw(self, message: StoredMessage, data: str) -> CallbackQueryRecord:
        """Send a callback query with arbitrary data, as a modified client can."""
        return self.world.user_presses(self, message, data)

    def block_bot(self) -> None:
        """Block the bot: sends to the private chat answer 403 from now on."""
        self.world.set_blocked(self, blocked=True)

    def delete_account(self) -> None:
        """Delete the Telegram account: calls about the private chat answer 400 "chat not
        found" from now on (as for a player of an old database whose chat is gone)."""
        self.unknown = True

    def unblock_bot(self) -> None:
        """Unblock (the user must then talk to the bot again to be reachable)."""
        self.world.set_blocked(self, blocked=False)


@dataclass(eq=False)
class FakeTopic:
    """A forum topic. Its id is the id of the service message that created it, as in
    Telegram; the General topic is no FakeTopic: messages there carry no thread id."""

    chat: FakeChat
    thread_id: int
    name: str
    icon_color: int = 0x6FB9F0
    closed: bool = False
    deleted: bool = False


@dataclass(eq=False)
class FakeChat:
    """A private chat, group or supergroup. ``members`` maps user id to member status;
    a forum supergroup (``is_forum``) has ``topics`` by thread id besides General."""

    id: int
    type: str
    title: str | None = None
    user: FakeUser | None = None
    members: dict[int, str] = field(default_factory=dict)
    migrated_to: FakeChat | None = None
    migrated_from: FakeChat | None = None
    next_message_id: int = 1
    is_forum: bool = False
    topics: dict[int, FakeTopic] = field(default_factory=dict)
    general_closed: bool = False  # a forum's General topic, closed by an admin
    #: A restricted bot may still send text messages there, but no media (photos).
    bot_texts_only: bool = False
    #: The group was deleted: Telegram refuses every call about it.
    deleted: bool = False

    def to_api(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.user is not None:
            out |= {k: v for k, v in self.user.to_api().items() if k in ("first_name", "username")}
        else:
            out["title"] = self.title
        if self.is_forum:
            out["is_forum"] = True
        return out

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")

    @property
    def name(self) -> str:
        return self.title or (self.user.first_name if self.user else str(self.id))


def deep_link_payload(url: str, bot_username: str) -> str | None:
    """The ``start`` payload of a t.me (or tg://resolve) link to this bot, "" for none."""
    parts = urlsplit(url if "://" in url else f"https://{url}")
    query = parse_qs(parts.query)
    if parts.scheme == "tg" and parts.netloc == "resolve":
        target = query.get("domain", [""])[0]
    elif parts.netloc in ("t.me", "telegram.me"):
        target = parts.path.strip("/")
    else:
        return None
    if target.lower() != bot_username.lower():
        return None
    return query.get("start", [""])[0]
