"""What the fake server keeps: users, chats, messages with their edit history, files, taps.

Users and messages are live records (a message gains versions as the bot edits it); the values
inside them (versions, files, buttons, request records) are frozen.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from .errors import ScenarioError

if TYPE_CHECKING:
    from .world import World

_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True)
class StoredFile:
    """An uploaded file; ``file_unique_id`` is derived from the bytes, as Telegram dedupes.
    ``kind`` is what it was sent as ("photo", "animation"): Telegram refuses one kind's
    file_id sent as another."""

    file_id: str
    file_unique_id: str
    data: bytes = field(repr=False)
    path: str
    width: int = 0
    height: int = 0
    kind: str = "photo"
    duration: int = 0  # an animation's whole seconds
    mime_type: str | None = None

    def photo_size(self) -> dict[str, Any]:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "width": self.width,
            "height": self.height,
            "file_size": len(self.data),
        }

    def animation(self) -> dict[str, Any]:
        """The message's ``animation`` (Bot API type Animation)."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "width": self.width,
            "height": self.height,
            "duration": self.duration,
            "file_name": self.path.rpartition("/")[2],
            "mime_type": self.mime_type or "",
            "file_size": len(self.data),
        }

    def document(self) -> dict[str, Any]:
        """The ``document`` Telegram sets beside an animation, "for backward compatibility"."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_name": self.path.rpartition("/")[2],
            "mime_type": self.mime_type or "",
            "file_size": len(self.data),
        }

    def to_api(self) -> dict[str, Any]:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": len(self.data),
            "file_path": self.path,
        }


@dataclass(frozen=True)
class Button:
    """One inline keyboard button as the user sees it."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    style: str | None = None  # the button's colour: "success", "primary", "danger" or none


@dataclass(frozen=True)
class MessageVersion:
    """The content of a message at one moment: as sent, then after each edit."""

    seq: int
    date: int
    text: str | None = None
    entities: tuple[dict[str, Any], ...] = ()
    caption: str | None = None
    caption_entities: tuple[dict[str, Any], ...] = ()
    photo: StoredFile | None = None
    reply_markup: dict[str, Any] | None = None
    parse_mode: str | None = None
    animation: StoredFile | None = None

    def content_key(self) -> str:
        """What Telegram compares to answer "message is not modified"."""
        return json.dumps(
            [
                self.text,
                list(self.entities),
                self.caption,
                list(self.caption_entities),
                self.photo.file_unique_id if self.photo else None,
                self.reply_markup,
                self.animation.file_unique_id if self.animation else None,
            ],
            sort_keys=True,
        )

    @property
    def buttons(self) -> list[list[Button]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [
            [Button(b["text"], b.get("callback_data"), b.get("url"), b.get("style"))
             for b in row]
            for row in rows
        ]


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


@dataclass(eq=False)
class StoredMessage:
    """A message in a chat with all its versions; ``versions[-1]`` is what users see now."""

    chat: FakeChat
    message_id: int
    sender: FakeUser
    versions: list[MessageVersion]
    service: dict[str, Any] | None = None
    reply_to: StoredMessage | None = None
    deleted: bool = False
    pinned: bool = False
    topic: FakeTopic | None = None  # None: not in a forum, or in its General topic
    # Sent on behalf of a chat: the group itself (an anonymous admin) or a channel.
    sender_chat: FakeChat | None = None

    @property
    def thread_id(self) -> int | None:
        return self.topic.thread_id if self.topic is not None else None

    @property
    def current(self) -> MessageVersion:
        return self.versions[-1]

    @property
    def from_bot(self) -> bool:
        return self.sender.is_bot

    @property
    def text(self) -> str | None:
        return self.current.text

    @property
    def caption(self) -> str | None:
        return self.current.caption

    @property
    def content(self) -> str:
        """The text or caption, whichever the message has ("" for none)."""
        return self.current.text or self.current.caption or ""

    @property
    def entities(self) -> tuple[dict[str, Any], ...]:
        return self.current.entities or self.current.caption_entities

    @property
    def mentioned_user_ids(self) -> list[int]:
        return [e["user"]["id"] for e in self.entities if e["type"] == "text_mention"]

    @property
    def photo(self) -> StoredFile | None:
        return self.current.photo

    @property
    def photo_bytes(self) -> bytes | None:
        return self.current.photo.data if self.current.photo else None

    @property
    def animation(self) -> StoredFile | None:
        return self.current.animation

    @property
    def animation_bytes(self) -> bytes | None:
        """The animation's file as uploaded (a GIF or an MP4), if the message has one."""
        return self.current.animation.data if self.current.animation else None

    @property
    def reply_markup(self) -> dict[str, Any] | None:
        return self.current.reply_markup

    @property
    def buttons(self) -> list[list[Button]]:
        return self.current.buttons

    @property
    def button_texts(self) -> list[str]:
        return [b.text for row in self.buttons for b in row]

    @property
    def edit_count(self) -> int:
        return len(self.versions) - 1

    def button(self, label: str) -> Button:
        """The button with this text, else with this callback_data; raises if there is none."""
        flat = [b for row in self.buttons for b in row]
        for matches in (
            [b for b in flat if b.text == label],
            [b for b in flat if b.callback_data == label],
        ):
            if len(matches) > 1:
                raise ScenarioError(
                    f"{len(matches)} buttons match {label!r} on message {self.message_id}"
                )
            if matches:
                return matches[0]
        shown = [(b.text, b.callback_data) for b in flat]
        raise ScenarioError(f"no button {label!r} on message {self.message_id}; it has {shown}")

    def to_api(self, *, nested: bool = False) -> dict[str, Any]:
        version = self.current
        out: dict[str, Any] = {
            "message_id": self.message_id,
            "from": self.sender.to_api(),
            "chat": self.chat.to_api(),
            "date": self.versions[0].date,
        }
        if self.sender_chat is not None:
            out["sender_chat"] = self.sender_chat.to_api()
        if self.edit_count:
            out["edit_date"] = version.date
        if self.topic is not None:
            out["message_thread_id"] = self.topic.thread_id
            out["is_topic_message"] = True
        if self.reply_to is not None and not nested:
            out["reply_to_message"] = self.reply_to.to_api(nested=True)
        if version.text is not None:
            out["text"] = version.text
            if version.entities:
                out["entities"] = list(version.entities)
        if version.photo is not None:
            out["photo"] = [version.photo.photo_size()]
        if version.animation is not None:
            out["animation"] = version.animation.animation()
            out["document"] = version.animation.document()
        if version.caption:
            out["caption"] = version.caption
            if version.caption_entities:
                out["caption_entities"] = list(version.caption_entities)
        if version.reply_markup is not None:
            out["reply_markup"] = version.reply_markup
        if self.service is not None:
            out |= self.service
        return out


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
