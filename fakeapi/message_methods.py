"""Bot API methods that send, edit, delete and pin messages, and answer taps.

Each handler gets parameters already validated and coerced against the schema, and answers as
Telegram does, including its refusals ("message is not modified", "chat not found", 403s).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from . import transcript
from .chats import FakeChat
from .entities import EntityParseError, ParsedText, parse_text
from .errors import ApiError
from .messages import MessageVersion, StoredFile, StoredMessage
from .schema import Uploaded
from .world import World


@dataclass(frozen=True)
class Call:
    """One validated request: coerced parameters and the uploaded file parts."""

    params: dict[str, Any]
    files: Mapping[str, Uploaded]


Handler = Callable[[World, Call], Any]
HANDLERS: dict[str, Handler] = {}

_NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)


def handler(name: str) -> Callable[[Handler], Handler]:
    def register(function: Handler) -> Handler:
        HANDLERS[name] = function
        return function

    return register


def _parsed(world: World, text: str, parse_mode: Any, entities: Any) -> ParsedText:
    def lookup(user_id: int) -> dict[str, Any] | None:
        user = world.users.get(user_id)
        return user.to_api() if user is not None else None

    try:
        parsed = parse_text(text, parse_mode, lookup)
    except EntityParseError as error:
        raise ApiError.bad_request(f"can't parse entities: {error}") from error
    if parse_mode is None and entities:
        return ParsedText(text, tuple(entities))
    return parsed


def _text_content(world: World, params: Mapping[str, Any]) -> dict[str, Any]:
    parsed = _parsed(world, params["text"], params.get("parse_mode"), params.get("entities"))
    if not parsed.text.strip():
        raise ApiError.bad_request("message text is empty")
    if len(parsed.text) > 4096:
        raise ApiError.bad_request("message is too long")
    return {
        "text": parsed.text,
        "entities": parsed.entities,
        "parse_mode": params.get("parse_mode"),
    }


def _caption_content(world: World, params: Mapping[str, Any]) -> dict[str, Any]:
    caption = params.get("caption")
    if not caption:
        return {"caption": None, "caption_entities": ()}
    parsed = _parsed(world, caption, params.get("parse_mode"), params.get("caption_entities"))
    if len(parsed.text) > 1024:
        raise ApiError.bad_request("message caption is too long")
    return {
        "caption": parsed.text or None,
        "caption_entities": parsed.entities,
        "parse_mode": params.get("parse_mode"),
    }


def _photo(world: World, value: Any, files: Mapping[str, Uploaded]) -> StoredFile:
    if isinstance(value, Uploaded):
        return world.store_photo(value.data)
    if isinstance(value, str) and value.startswith("attach://"):
        return world.store_photo(files[value.removeprefix("attach://")].data)
    _no_url(value)
    return world.file_of_kind(str(value), "photo")


def _no_url(value: Any) -> None:
    if isinstance(value, str) and value.startswith(("http://", "https://")):
        raise ApiError.bad_request(
            "wrong file identifier/HTTP URL specified (the fake server fetches no URLs)"
        )


def _animation(world: World, params: Mapping[str, Any], files: Mapping[str, Uploaded]
               ) -> StoredFile:
    value = params["animation"]
    if isinstance(value, str) and value.startswith("attach://"):
        value = files[value.removeprefix("attach://")]
    if isinstance(value, Uploaded):
        return world.store_animation(value.data, params.get("width", 0),
                                     params.get("height", 0), params.get("duration", 0))
    _no_url(value)
    return world.file_of_kind(str(value), "animation")


def _send(world: World, call: Call, content: dict[str, Any]) -> dict[str, Any]:
    params = call.params
    chat = world.chat_for_bot(params["chat_id"])
    topic = world.topic_for_bot(chat, params.get("message_thread_id"))
    reply_to = None
    reply = params.get("reply_parameters")
    if reply is not None:
        reply_to = world.messages.get((chat.id, reply["message_id"]))
        if reply_to is not None and reply_to.deleted:
            reply_to = None
        if reply_to is None and not reply.get("allow_sending_without_reply"):
            raise ApiError.bad_request("message to be replied not found")
        if reply_to is not None and "message_thread_id" not in params:
            # A reply without a thread id goes to the thread of the message it answers.
            topic = world.topic_for_bot(chat, reply_to.thread_id)
    version = world.version(reply_markup=params.get("reply_markup"), **content)
    return world.store(chat, world.bot, version, reply_to=reply_to, topic=topic).to_api()


@handler("sendMessage")
def send_message(world: World, call: Call) -> dict[str, Any]:
    world.check_may_send(world.chat_for_bot(call.params["chat_id"]), "text messages")
    return _send(world, call, _text_content(world, call.params))


@handler("sendPhoto")
def send_photo(world: World, call: Call) -> dict[str, Any]:
    content = _caption_content(world, call.params)
    chat = world.chat_for_bot(call.params["chat_id"])  # refuse before storing the upload
    world.check_may_send(chat, "photos")
    world.topic_for_bot(chat, call.params.get("message_thread_id"))
    content["photo"] = _photo(world, call.params["photo"], call.files)
    return _send(world, call, content)


@handler("sendAnimation")
def send_animation(world: World, call: Call) -> dict[str, Any]:
    content = _caption_content(world, call.params)
    chat = world.chat_for_bot(call.params["chat_id"])  # refuse before storing the upload
    world.check_may_send(chat, "animations")
    world.topic_for_bot(chat, call.params.get("message_thread_id"))
    content["animation"] = _animation(world, call.params, call.files)
    return _send(world, call, content)


def _editable(world: World, params: Mapping[str, Any]) -> StoredMessage:
    if "inline_message_id" in params:
        raise ApiError.bad_request("the fake server does not support inline messages")
    chat = world.chat_for_bot(params.get("chat_id"))
    message = world.message_for_bot(chat, params.get("message_id"), "edit")
    if not message.from_bot or message.service is not None:
        raise ApiError.bad_request("message can't be edited")
    return message


def _apply_edit(world: World, message: StoredMessage, **changes: Any) -> dict[str, Any]:
    """Store a new version unless it changes nothing, which Telegram refuses."""
    current = message.current
    new = dataclasses.replace(current, **changes)
    if new.content_key() == current.content_key():
        raise ApiError.bad_request(_NOT_MODIFIED)
    world.edit(message, world.version(**_content_fields(new)))
    return message.to_api()


def _content_fields(version: MessageVersion) -> dict[str, Any]:
    fields = dataclasses.asdict(version)
    fields["photo"] = version.photo  # asdict would turn the files into dicts
    fields["animation"] = version.animation
    del fields["seq"], fields["date"]
    return fields


def _edit_part(world: World, call: Call, part: str) -> dict[str, Any]:
    """editMessageText and editMessageCaption: the message must already have that part."""
    message = _editable(world, call.params)
    current = message.current
    has_part = (current.photo or current.animation) if part == "caption" else current.text
    if has_part is None:
        raise ApiError.bad_request(f"there is no {part} in the message to edit")
    content = (_caption_content if part == "caption" else _text_content)(world, call.params)
    return _apply_edit(world, message, reply_markup=call.params.get("reply_markup"), **content)


@handler("editMessageText")
def edit_message_text(world: World, call: Call) -> dict[str, Any]:
    return _edit_part(world, call, "text")


@handler("editMessageCaption")
def edit_message_caption(world: World, call: Call) -> dict[str, Any]:
    return _edit_part(world, call, "caption")


@handler("editMessageMedia")
def edit_message_media(world: World, call: Call) -> dict[str, Any]:
    message = _editable(world, call.params)
    world.check_may_edit_media(message.chat, "photos")
    media = call.params["media"]
    if media.get("type") != "photo":
        raise ApiError.bad_request(
            f"the fake server edits only photo media, not {media.get('type')!r}"
        )
    content = _caption_content(world, media)
    photo = _photo(world, media["media"], call.files)
    return _apply_edit(
        world,
        message,
        text=None,
        entities=(),
        photo=photo,
        animation=None,
        reply_markup=call.params.get("reply_markup"),
        **content,
    )


@handler("editMessageReplyMarkup")
def edit_message_reply_markup(world: World, call: Call) -> dict[str, Any]:
    message = _editable(world, call.params)
    return _apply_edit(world, message, reply_markup=call.params.get("reply_markup"))


@handler("deleteMessage")
def delete_message(world: World, call: Call) -> bool:
    chat = world.chat_for_bot(call.params["chat_id"])
    message = world.message_for_bot(chat, call.params["message_id"], "delete")
    if not (message.from_bot or world.bot_is_admin(chat)):
        raise ApiError.bad_request("message can't be deleted")
    if world.too_old(message):
        raise ApiError.bad_request("message can't be deleted for everyone")
    message.deleted = True
    world.log(chat, transcript.deleted(message))
    return True


@handler("answerCallbackQuery")
def answer_callback_query(world: World, call: Call) -> bool:
    record = world.callbacks.get(call.params["callback_query_id"])
    if record is None or record.answered:
        raise ApiError.bad_request(
            "query is too old and response timeout expired or query ID is invalid"
        )
    url = call.params.get("url")
    if url is not None and world.deep_link_payload(url) is None:
        raise ApiError.bad_request("URL_INVALID")
    record.answered = True
    record.answered_at = time.monotonic()
    record.answer_text = call.params.get("text")
    record.show_alert = bool(call.params.get("show_alert"))
    record.url = url
    world.log(record.message.chat, transcript.answered(record))
    return True


@handler("sendChatAction")
def send_chat_action(world: World, call: Call) -> bool:
    chat = world.chat_for_bot(call.params["chat_id"])
    world.topic_for_bot(chat, call.params.get("message_thread_id"))
    return True


def _pin_chat(world: World, call: Call) -> FakeChat:
    chat = world.chat_for_bot(call.params["chat_id"])
    if not world.bot_is_admin(chat):
        raise ApiError.bad_request("not enough rights to manage pinned messages in the chat")
    return chat


@handler("pinChatMessage")
def pin_chat_message(world: World, call: Call) -> bool:
    chat = _pin_chat(world, call)
    message = world.message_for_bot(chat, call.params["message_id"], "pin")
    message.pinned = True
    world.store(
        chat, world.bot, world.version(), service={"pinned_message": message.to_api(nested=True)}
    )
    return True


@handler("unpinChatMessage")
def unpin_chat_message(world: World, call: Call) -> bool:
    chat = _pin_chat(world, call)
    pinned = [m for m in world.messages_in(chat) if m.pinned and not m.deleted]
    if "message_id" in call.params:
        pinned = [m for m in pinned if m.message_id == call.params["message_id"]]
    if not pinned:
        raise ApiError.bad_request("message to unpin not found")
    pinned[-1].pinned = False
    return True


@handler("unpinAllChatMessages")
def unpin_all_chat_messages(world: World, call: Call) -> bool:
    for message in world.messages_in(_pin_chat(world, call)):
        message.pinned = False
    return True


@handler("getFile")
def get_file(world: World, call: Call) -> dict[str, Any]:
    return world.file(call.params["file_id"]).to_api()
