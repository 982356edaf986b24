"""What was said where, and what the bot is told of it: every chat's messages with their
versions, the files they carry, the transcript's lines and the update queue.

The bottom layer of the world (``World`` builds on ``Membership``, which builds on this): the
users and chats it names are made above it. Nothing here does I/O.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import itertools
import time
from collections.abc import Callable
from typing import Any

from PIL import Image, UnidentifiedImageError

from . import transcript
from .chats import FakeChat, FakeTopic, FakeUser
from .errors import ApiError
from .messages import MessageVersion, StoredFile, StoredMessage
from .updates import UpdateQueue

_MAX_PHOTO_BYTES = 10 * 1024 * 1024
_MAX_UPLOAD_BYTES = 50 * 1024 * 1024  # what a bot may upload of any other file
#: A bot may delete a message for 48 hours after it was sent.
OLD_MESSAGE_SECONDS = 48 * 3600


class ChatLog:
    """The messages, files, transcript and update queue of one fake server."""

    def __init__(self) -> None:
        self.messages: dict[tuple[int, int], StoredMessage] = {}
        # Each chat's messages in order, so one chat's are found without a scan of every
        # chat's (a fleet's test runs dozens of tables at once); ``messages`` stays the truth.
        self._by_chat: dict[int, list[StoredMessage]] = {}
        self.files: dict[str, StoredFile] = {}
        self.updates = UpdateQueue()
        self.events: list[tuple[int, str]] = []
        self.on_change: Callable[[], None] = lambda: None
        self._seq = itertools.count(1)
        self._file_ids = itertools.count(1)

    # --- messages ---------------------------------------------------------------------

    def version(self, **content: Any) -> MessageVersion:
        return MessageVersion(seq=next(self._seq), date=int(time.time()), **content)

    def store(
        self,
        chat: FakeChat,
        sender: FakeUser,
        version: MessageVersion,
        *,
        service: dict[str, Any] | None = None,
        reply_to: StoredMessage | None = None,
        topic: FakeTopic | None = None,
    ) -> StoredMessage:
        if topic is not None and reply_to is None and topic.thread_id != chat.next_message_id:
            # In a topic, a message that answers nothing replies to the topic's first message.
            reply_to = self.messages.get((chat.id, topic.thread_id))
        message = StoredMessage(
            chat, chat.next_message_id, sender, [version], service, reply_to, topic=topic
        )
        chat.next_message_id += 1
        self.messages[(chat.id, message.message_id)] = message
        self._by_chat.setdefault(chat.id, []).append(message)
        self.log(chat, transcript.sent(message))
        return message

    def edit(self, message: StoredMessage, version: MessageVersion) -> None:
        message.versions.append(version)
        self.log(message.chat, transcript.edited(message))

    def log(self, chat: FakeChat, line: str) -> None:
        self.events.append((chat.id, line))

    def changed(self) -> None:
        self.on_change()

    def recent_messages(self, chat: FakeChat, count: int) -> list[StoredMessage]:
        """The chat's last ``count`` messages, oldest first, without a pass over all of them
        (simulated people look only at the bottom of a chat, dozens of tables at once)."""
        kept = self.messages
        listed = self._by_chat.get(chat.id, [])
        found: list[StoredMessage] = []
        for message in reversed(listed):
            if len(found) == count:
                break
            if kept.get((chat.id, message.message_id)) is message:
                found.append(message)
        return found[::-1]

    def messages_in(self, chat: FakeChat) -> list[StoredMessage]:
        """The chat's messages, oldest first (those still in ``messages``: a benchmark may
        prune it, and the index forgets them here too)."""
        kept = self.messages
        listed = self._by_chat.get(chat.id, [])
        found = [m for m in listed if kept.get((chat.id, m.message_id)) is m]
        if len(found) != len(listed):
            self._by_chat[chat.id] = list(found)
        return found

    def _user_message(
        self, user: FakeUser, chat: FakeChat, service: dict[str, Any],
        topic: FakeTopic | None = None,
    ) -> None:
        message = self.store(chat, user, self.version(), service=service, topic=topic)
        self.updates.push("message", message.to_api())
        self.changed()

    def message_for_bot(self, chat: FakeChat, message_id: Any, purpose: str) -> StoredMessage:
        message = self.messages.get((chat.id, message_id)) if isinstance(message_id, int) else None
        if message is None or message.deleted:
            raise ApiError.bad_request(f"message to {purpose} not found")
        return message

    @staticmethod
    def too_old(message: StoredMessage) -> bool:
        """Whether a message is past the 48 hours in which a bot may delete it (and its taps
        come with an InaccessibleMessage)."""
        return time.time() - message.versions[0].date >= OLD_MESSAGE_SECONDS

    def age(self, message: StoredMessage, seconds: float) -> None:
        """Make a message ``seconds`` older, as if sent that much earlier."""
        first = message.versions[0]
        message.versions[0] = dataclasses.replace(first, date=int(first.date - seconds))

    # --- files ------------------------------------------------------------------------

    def store_photo(self, data: bytes) -> StoredFile:
        """Keep an uploaded photo; refuse what Telegram refuses (not an image, too big)."""
        if len(data) > _MAX_PHOTO_BYTES:
            raise ApiError.bad_request("file is too big")
        try:
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                extension = (image.format or "jpg").lower()
        except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as error:
            raise ApiError.bad_request("IMAGE_PROCESS_FAILED") from error
        if width + height > 10000 or max(width, height) > 20 * min(width, height):
            raise ApiError.bad_request("PHOTO_INVALID_DIMENSIONS")
        number = next(self._file_ids)
        unique = hashlib.sha256(data).hexdigest()[:16]
        stored = StoredFile(
            f"AgACAgFake{number:06d}{unique}",
            f"AQAD{unique}",
            data,
            f"photos/file_{number}.{extension}",
            width,
            height,
        )
        self.files[stored.file_id] = stored
        return stored

    def store_animation(self, data: bytes, width: int = 0, height: int = 0,
                        duration: int = 0) -> StoredFile:
        """Keep an uploaded animation: a GIF (its size and length read from it) or an MP4
        (its size and length as the sender gives them); refuse anything else, and more than
        50 MB. (Telegram would send another kind of file as a document: the fake refuses it,
        so that a bot sending the wrong bytes finds out.)"""
        if len(data) > _MAX_UPLOAD_BYTES:
            raise ApiError.bad_request("file is too big")
        if data[4:8] == b"ftyp":
            extension, mime = "mp4", "video/mp4"
        else:
            try:
                with Image.open(io.BytesIO(data)) as image:
                    if image.format != "GIF":
                        raise ApiError.bad_request(
                            f"wrong file type: an animation is a GIF or an MP4, not {image.format}")
                    width, height = image.size
                    frames = getattr(image, "n_frames", 1)
                    milliseconds = 0
                    for index in range(frames):
                        image.seek(index)
                        milliseconds += int(image.info.get("duration", 0))
            except (UnidentifiedImageError, OSError, ValueError,
                    Image.DecompressionBombError) as error:
                raise ApiError.bad_request(
                    "wrong file type: an animation is a GIF or an MP4") from error
            duration = round(milliseconds / 1000)
            extension, mime = "gif", "image/gif"
        number = next(self._file_ids)
        unique = hashlib.sha256(data).hexdigest()[:16]
        stored = StoredFile(
            f"CgACAgFake{number:06d}{unique}", f"AgAD{unique}", data,
            f"animations/file_{number}.{extension}", width, height,
            kind="animation", duration=duration, mime_type=mime,
        )
        self.files[stored.file_id] = stored
        return stored

    def file_of_kind(self, file_id: str, kind: str) -> StoredFile:
        """A file sent again by its file_id, as ``kind``: one of another kind is refused."""
        stored = self.file(file_id)
        if stored.kind != kind:
            raise ApiError.bad_request("type of file mismatch")
        return stored

    def file(self, file_id: str) -> StoredFile:
        stored = self.files.get(file_id)
        if stored is None:
            raise ApiError.bad_request("wrong file identifier/HTTP URL specified")
        return stored
