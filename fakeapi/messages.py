"""What was said: messages with every version of their content (as sent, then after each edit),
the files they carry and the inline buttons on them.

A message is a live record (it gains versions as the bot edits it, it may be deleted); the
versions, files and buttons inside it are frozen values.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import ScenarioError

if TYPE_CHECKING:
    from .chats import FakeChat, FakeTopic, FakeUser


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
