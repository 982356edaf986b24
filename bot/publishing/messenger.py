"""What a game's message should show, and the calls that put it in a chat: what the group's
and the hands' channels of the publisher share.

A :class:`Draft` carries a key of what its message shows; storing that key beside the
message's id is what makes a sync idempotent (see :mod:`bot.publishing.publisher`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from telegram import Bot, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from telegram._utils.defaultvalue import DEFAULT_NONE
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError

from ..gamemessages import Messages
from ..models import Drawing
from ..presentation.painter import Painter, Urgency
from ..service import GameService
from ..waiting import wait_set
from .markupwire import markup_json
from .privatechats import PrivateChatGoneError, private_chat_gone


@dataclass(frozen=True, slots=True)
class Draft:
    """What one message should show; pictures are rendered only when the key changed, and
    then outside the game's lock and off the event loop (``drawing``, see :meth:`Messenger.
    drawn`)."""

    key: str
    text: str
    markup: InlineKeyboardMarkup | None
    photo: bytes | None = None
    drawing: Drawing | None = field(default=None, compare=False, repr=False)

    @property
    def stored(self) -> str:
        """The key kept beside the message id: what it shows, and a digest of its picture,
        so that an edit re-uploads a picture only when its bytes changed."""
        if self.photo is None:
            return self.key
        return f"{self.key}#{hashlib.sha1(self.photo).hexdigest()[:16]}"


def digest(*parts: object) -> str:
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:16]


def key_of(stored: str | None) -> str | None:
    """What a stored key says the message shows, without its picture's digest."""
    return None if stored is None else stored.split("#")[0]


def same_picture(stored: str | None, draft: Draft) -> bool:
    """Whether the message already shows the draft's picture, byte for byte."""
    shown = (stored or "").partition("#")[2]
    return shown != "" and shown == draft.stored.partition("#")[2]


def not_modified(error: BadRequest) -> bool:
    return "not modified" in error.message.lower()


def reply_target_gone(error: BadRequest) -> bool:
    """Whether Telegram refused a reply because the message it answers is gone (deleted by
    an admin, or with its topic)."""
    message = error.message.lower()
    return "replied not found" in message or "reply message not found" in message


#: One of a game's messages: its lobby, its table, or a seat's hand (the seat's number).
Place = Literal["lobby", "table"] | int
LOBBY: Final = "lobby"
TABLE: Final = "table"


def message_at(messages: Messages, place: Place) -> int | None:
    """The id of the game's current message at ``place``, if the bot knows one."""
    if place == LOBBY:
        return messages.lobby
    if place == TABLE:
        return messages.table_message
    hand = messages.hands.get(place)
    return None if hand is None else hand.message_id


class TopicGoneError(Exception):
    """Telegram refuses to post in a game's forum topic: it was closed or deleted."""

    def __init__(self, thread_id: int, deleted: bool) -> None:
        super().__init__(f"topic {thread_id} is {'deleted' if deleted else 'closed'}")
        self.thread_id = thread_id
        self.deleted = deleted


class MayNotWriteError(Exception):
    """Telegram refuses the bot's sends in a group: an admin took its right to send messages
    (or the group's members may send none), or closed the General topic of a forum. Its edits
    may still go."""

    def __init__(self, chat_id: int, refusal: str) -> None:
        super().__init__(f"may not send messages in chat {chat_id}: {refusal}")
        self.chat_id = chat_id


class PhotosRefusedError(Exception):
    """Telegram refuses the bot's photos in a group, its texts not: the group's members may
    send no media (a rule that binds a bot that is not an admin), or an admin took that right
    from the bot alone."""

    def __init__(self, chat_id: int, refusal: str) -> None:
        super().__init__(f"may not send photos in chat {chat_id}: {refusal}")
        self.chat_id = chat_id


class ChatGoneError(Exception):
    """Telegram answers that a group is gone (deleted): nothing is sent there ever again,
    and no update says so."""

    def __init__(self, chat_id: int, refusal: str) -> None:
        super().__init__(f"chat {chat_id} is gone: {refusal}")
        self.chat_id = chat_id
        self.refusal = refusal


#: Telegram's words for a send refused for want of the right to send there.
_NO_RIGHTS = ("not enough rights to send", "have no rights to send", "chat_write_forbidden",
              "chat_restricted", "need administrator rights")
#: Its words when the refused right is the one to send photos (texts may go).
_NO_PHOTOS = ("rights to send photos", "chat_send_photos_forbidden",
              "chat_send_media_forbidden")
#: Its words for a group that is gone: a basic group's 403, anything's 400.
_GONE = ("group chat was deleted", "chat not found")


def photos_refused(error: BadRequest) -> bool:
    """Whether Telegram refused a call because the bot may not send photos in that chat."""
    message = error.message.lower()
    return any(words in message for words in _NO_PHOTOS)


def may_not_write(error: BadRequest) -> bool:
    """Whether Telegram refused a call because the bot may not send messages in that chat
    (not when photos alone are refused: see :func:`photos_refused`)."""
    message = error.message.lower()
    return any(words in message for words in _NO_RIGHTS) and not photos_refused(error)


def chat_gone(chat_id: int, error: BaseException) -> bool:
    """Whether Telegram's refusal says that the group ``chat_id`` is gone (a private chat's
    "chat not found" is a person's, not this)."""
    return chat_id < 0 and isinstance(error, (BadRequest, Forbidden)) and any(
        words in error.message.lower() for words in _GONE)


def refused_here(error: BaseException) -> bool:
    """Whether Telegram refuses the bot the chat or topic itself (removed, blocked, forbidden
    to write or to send photos, a topic closed or deleted, a group become a supergroup or
    deleted): nothing to retry or to apologise for there, where an apology would be refused
    too."""
    if isinstance(error, (Forbidden, ChatMigrated, MayNotWriteError, TopicGoneError,
                          PhotosRefusedError, ChatGoneError)):
        return True
    return isinstance(error, BadRequest) and (
        topic_refusal(error) is not None or may_not_write(error) or photos_refused(error)
        or "chat not found" in error.message.lower())


def topic_refusal(error: BadRequest) -> bool | None:
    """Whether Telegram's refusal says the topic is deleted (True) or closed (False);
    None when it is about something else."""
    message = error.message.lower()
    if "topic_closed" in message:
        return False
    if "message thread not found" in message or "topic_deleted" in message:
        return True
    return None


class Messenger:
    """The bot's calls for its games' messages: send, edit in place, retire; and the one
    picture thread both channels draw in (the group's table before any hand)."""

    def __init__(self, bot: Bot, service: GameService, painter: Painter,
                 bot_username: str = "") -> None:
        self.bot = bot
        self.service = service  # a group that became a supergroup moves its games
        self.bot_username = bot_username  # learnt at start, for the deep links
        self._painter = painter  # the pictures' one thread (announcements are drawn there too)
        # (game, place) -> set once the send in flight of that message is answered
        self._sending: dict[tuple[int, Place], asyncio.Event] = {}

    def close(self) -> None:
        """The bot has stopped: the picture thread ends once it is idle."""
        self._painter.close()

    async def drawn(self, draft: Draft, urgency: Urgency = Urgency.TABLE) -> Draft:
        """The draft with its picture, drawn in the worker thread (see
        :mod:`bot.presentation.painter`)."""
        if draft.drawing is None:
            return draft
        photo = await self._painter.draw(draft.drawing, urgency)
        return replace(draft, photo=photo, drawing=None)

    @contextlib.contextmanager
    def sending(self, game_id: int, place: Place) -> Iterator[None]:
        """Marks a send of the game's message at ``place`` in flight (see :meth:`sent`);
        the new message's id is to be recorded as soon as the block ends, with no await
        between (a tap waiting in :meth:`sent` then finds it recorded)."""
        key = (game_id, place)
        sending = self._sending[key] = asyncio.Event()
        try:
            yield
        finally:
            sending.set()
            if self._sending.get(key) is sending:
                del self._sending[key]

    def in_flight(self, game_id: int, place: Place) -> bool:
        """Whether a send of the game's message at ``place`` is in flight now."""
        return (game_id, place) in self._sending

    async def sent(self, game_id: int, place: Place, timeout: float) -> None:
        """Wait, at most ``timeout``, while a send of the game's message at ``place`` is in
        flight: the bot learns the new message's id only from its answer, and a tap on it
        may come first (the buttons' stray check)."""
        sending = self._sending.get((game_id, place))
        if sending is not None:
            await wait_set(sending, timeout)

    async def send(
        self, chat_id: int, text: str, photo: bytes | None, markup: InlineKeyboardMarkup | None,
        thread_id: int | None = None,
    ) -> int:
        """Send to a chat, or to one topic of a forum (``thread_id``; None: General, where
        the Bot API takes no thread id), and give the new message's id. A refused topic
        raises :class:`TopicGoneError`; a group that refuses the bot's sends, or its photos
        alone, :class:`MayNotWriteError` or :class:`PhotosRefusedError`; a group gone,
        :class:`ChatGoneError`."""
        try:
            if photo is None:
                sent = await self.bot.send_message(
                    chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
                    message_thread_id=thread_id,
                )
                return sent.message_id
            return await self._send_photo(chat_id, text, photo, markup, thread_id)
        except ChatMigrated as exc:
            await self.service.migrate_chat(chat_id, exc.new_chat_id)
            return await self.send(exc.new_chat_id, text, photo, markup, thread_id)
        except Forbidden as exc:
            if chat_gone(chat_id, exc):
                raise ChatGoneError(chat_id, exc.message) from exc
            raise
        except BadRequest as exc:
            if chat_gone(chat_id, exc):
                raise ChatGoneError(chat_id, exc.message) from exc
            if private_chat_gone(chat_id, exc):  # (as good as blocked: a Forbidden)
                raise PrivateChatGoneError(chat_id, exc.message) from exc
            if photos_refused(exc):
                raise PhotosRefusedError(chat_id, exc.message) from exc
            deleted = topic_refusal(exc)
            if thread_id is not None and deleted is not None:
                raise TopicGoneError(thread_id, deleted) from exc
            if may_not_write(exc) or deleted is False:  # (a forum's General closed)
                raise MayNotWriteError(chat_id, exc.message) from exc
            raise

    async def _send_photo(self, chat_id: int, text: str, photo: bytes,
                          markup: InlineKeyboardMarkup | None, thread_id: int | None) -> int:
        """``Bot.send_photo``'s request, through PTB's common path for every call (as
        :meth:`_edit`), but for its answer: only the new message's id is read, not a
        ``Message`` made of it (some hundreds of objects' worth of Python a picture's
        message, its photo sizes and its buttons)."""
        data: dict[str, object] = {  # in Bot.send_photo's order, with what it leaves to
            # the bot's defaults: the same request, field for field
            "chat_id": chat_id, "photo": InputFile(photo), "caption": text,
            "disable_notification": DEFAULT_NONE, "message_thread_id": thread_id,
            "parse_mode": ParseMode.HTML, "protect_content": DEFAULT_NONE,
            "reply_markup": None if markup is None else markup_json(markup),
        }
        answer = await self.bot._post("sendPhoto", data)
        message_id = answer.get("message_id") if isinstance(answer, dict) else None
        if not isinstance(message_id, int):
            raise TelegramError(f"sendPhoto answered {answer!r}, not a message")
        return message_id

    async def edit(
        self, chat_id: int, message_id: int, draft: Draft, shown: str | None = None
    ) -> bool:
        """Edit in place (the caption alone when ``shown``, the stored key of what the
        message shows, has the same picture); False when the message is gone (or left behind
        in a group that became a supergroup, or in a group gone: its send says so). A new
        picture the group refuses raises :class:`PhotosRefusedError`; a basic group's 403
        that it is deleted, :class:`ChatGoneError`."""
        data: dict[str, object] = {
            "chat_id": chat_id, "message_id": message_id,
            "reply_markup": None if draft.markup is None else markup_json(draft.markup)}
        try:
            if draft.photo is not None and same_picture(shown, draft):
                await self._edit("editMessageCaption", data, caption=draft.text,
                                 parse_mode=ParseMode.HTML)
            elif draft.photo is not None:
                media = InputMediaPhoto(draft.photo, caption=draft.text, parse_mode=ParseMode.HTML)
                await self._edit("editMessageMedia", data, media=media)
            else:
                await self._edit("editMessageText", data, text=draft.text,
                                 parse_mode=ParseMode.HTML)
        except ChatMigrated as exc:
            # The group became a supergroup (its update not read yet): the message stays
            # behind in the old group, the game follows (the caller sends it anew there).
            await self.service.migrate_chat(chat_id, exc.new_chat_id)
            return False
        except Forbidden as exc:
            if chat_gone(chat_id, exc):
                raise ChatGoneError(chat_id, exc.message) from exc
            raise
        except BadRequest as exc:
            if not_modified(exc):
                return True
            if photos_refused(exc):
                raise PhotosRefusedError(chat_id, exc.message) from exc
            if "not found" in exc.message.lower() or "can't be edited" in exc.message.lower():
                return False
            raise
        return True

    async def _edit(self, endpoint: str, data: dict[str, object], **fields: object) -> None:
        """One of the edits, through PTB's common path for every call (defaults, the rate
        limiter, the request, Telegram's errors as exceptions) but for its answer, which
        ``Bot.edit_message_*`` turns into a ``Message`` (some hundreds of objects' worth of
        Python a picture's message) that an edit never reads."""
        await self.bot._post(endpoint, {**data, **fields})

    async def delete(self, chat_id: int, message_id: int) -> None:
        """Delete a message that has no use any more and no buttons to take away: one
        already gone, too old to delete (48 h) or in a chat closed to the bot counts as done;
        Telegram unanswered raises (the next sync tries again)."""
        try:
            await self.bot.delete_message(chat_id, message_id)
        except (BadRequest, Forbidden, ChatMigrated):
            pass

    async def unbutton(self, chat_id: int, message_id: int, caption: str | None = None,
                       photo: bool | None = True) -> None:
        """Take a message's buttons off, keeping its words, or putting ``caption`` (HTML) in
        place of a picture's, or of a text message's words when not ``photo`` (one edit
        does both; None: whichever it is, a picture's caption tried first): one already
        without them, gone or in a chat closed to the bot counts as done; Telegram
        unanswered raises (the next sync tries again)."""
        try:
            if caption is None:
                await self.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
                return
            if photo is not False:  # an edit that names no keyboard leaves none
                try:
                    await self.bot.edit_message_caption(chat_id, message_id, caption=caption,
                                                        parse_mode=ParseMode.HTML)
                    return
                except BadRequest as error:  # (a text message has no caption to edit)
                    if photo or "no caption" not in error.message.lower():
                        raise
            await self.bot.edit_message_text(caption, chat_id, message_id,
                                             parse_mode=ParseMode.HTML)
        except (BadRequest, Forbidden):
            pass

    async def retire(self, chat_id: int, message_id: int, delete: bool) -> None:
        """Take an old message out of play: delete it, or at least remove its buttons."""
        try:
            if delete and await self.bot.delete_message(chat_id, message_id):
                return
        except TelegramError:
            pass  # too old to delete (after 48 h) or gone: remove its buttons instead
        try:
            await self.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
        except TelegramError:
            pass  # already without buttons, or gone
