"""Readable one-line descriptions of what happens in a chat, for transcripts and failures."""

from __future__ import annotations

from .chats import FakeUser
from .messages import MessageVersion, StoredMessage
from .records import CallbackQueryRecord


def _indent(text: str) -> str:
    return text.replace("\n", "\n    ")


def _body(version: MessageVersion) -> str:
    parts = []
    if version.photo is not None:
        parts.append(f"[photo {version.photo.width}x{version.photo.height}]")
    if version.animation is not None:
        shown = version.animation
        parts.append(f"[animation {shown.width}x{shown.height}, {shown.duration} s]")
    if version.text is not None:
        parts.append(version.text)
    if version.caption:
        parts.append(version.caption)
    text = _indent(" ".join(parts))
    rows = version.buttons
    if rows:
        keyboard = "\n".join("    " + " ".join(f"[{b.text}]" for b in row) for row in rows)
        text = f"{text}\n{keyboard}"
    return text


def _service(message: StoredMessage) -> str:
    service = message.service or {}
    who = message.sender.first_name
    if "migrate_to_chat_id" in service:
        return f"-- {who} upgraded the group; it is now chat {service['migrate_to_chat_id']}"
    if "migrate_from_chat_id" in service:
        return f"-- supergroup created from group {service['migrate_from_chat_id']}"
    if "pinned_message" in service:
        return f"-- {who} pinned message #{service['pinned_message']['message_id']}"
    return f"-- {who}: {sorted(service)}"


def sent(message: StoredMessage) -> str:
    if message.service is not None:
        return _service(message)
    if message.from_bot:
        return f"bot #{message.message_id}: {_body(message.current)}"
    return f"{message.sender.first_name}: {_indent(message.current.text or '')}"


def edited(message: StoredMessage) -> str:
    return f"bot #{message.message_id} edited: {_body(message.current)}"


def deleted(message: StoredMessage) -> str:
    return f"bot deleted #{message.message_id}"


def tap(user: FakeUser, message: StoredMessage, data: str) -> str:
    label = next(
        (b.text for row in message.buttons for b in row if b.callback_data == data),
        f"data={data!r}",
    )
    return f"{user.first_name} taps [{label}] on #{message.message_id}"


def answered(record: CallbackQueryRecord) -> str:
    kind = "alert" if record.show_alert else "toast"
    shown = record.answer_text or record.url or "(silent)"
    return f"    -> {kind} to {record.user.first_name}: {shown}"
