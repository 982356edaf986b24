"""What every handler needs from an update: who sent it, where, in which language, and how
to answer in that chat."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import unicodedata
from collections.abc import Callable
from typing import TypeGuard

from telegram import (
    CallbackQuery,
    Chat,
    InlineKeyboardMarkup,
    MaybeInaccessibleMessage,
    Message,
    Update,
    User,
)
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, NetworkError, TelegramError
from telegram.ext import ContextTypes

from .. import wording
from ..background import held
from ..i18n import N_, Translator, translator
from ..models import Game, Player
from ..publishing.delivery import outcome_unknown
from ..publishing.messenger import refused_here
from ..publishing.ratelimit import StoppingError
from ..service.settings import GroupSettings
from ..storage import UpdateTakenError
from .admins import admins_of
from .failures import database_failure
from .runtime import Runtime, runtime
from .speech import own_tr

log = logging.getLogger(__name__)
_retiring: set[asyncio.Task[None]] = set()  # the pickers being taken away


#: The answer to a command about oneself sent on behalf of a chat (see :func:`anonymous`).
ANONYMOUS = N_("You wrote this anonymously (as the group or as a channel), so I cannot tell "
               "who you are: send it again as yourself.")


def on_behalf_of(update: Update) -> Chat | None:
    """The chat a group message was sent on behalf of: the group itself (an anonymous admin,
    shown as @GroupAnonymousBot) or a channel (@Channel_Bot); None when a person wrote it as
    themselves. Its ``from`` is then one of Telegram's stand-ins, nobody who can play."""
    message = update.effective_message
    return message.sender_chat if accessible(message) else None


def as_group_admin(update: Update) -> bool:
    """Whether the message was sent by one of its group's anonymous admins (only an admin may
    write as the group)."""
    chat, behalf = update.effective_chat, on_behalf_of(update)
    return chat is not None and behalf is not None and behalf.id == chat.id


async def anonymous(update: Update, rt: Runtime) -> bool:
    """A command about the sender themselves (a seat, their tiles, their notices) sent on
    behalf of a chat: they are asked, in the group's language, to send it as themselves."""
    chat = update.effective_chat
    if chat is None or on_behalf_of(update) is None:
        return False
    await reply(update, (await chat_tr(update, rt))(ANONYMOUS))
    return True


#: Letters that show as nothing, which people choose for a name that looks empty (Telegram
#: requires a first name): Hangul fillers, the braille blank.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: Unicode categories that draw nothing by themselves: spaces, controls and formats (the
#: zero-width ones, the direction marks), combining marks with nothing to combine with.
_BLANK_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me"})


def shows_something(name: str) -> bool:
    """Whether a name has at least one character a reader sees."""
    return any(c not in _BLANK_LETTERS and unicodedata.category(c) not in _BLANK_CATEGORIES
               for c in name)


def player_of(user: User) -> Player:
    """The user as a player: their name as Telegram has it, or, when it shows nothing, their
    username, else their id (a lobby line, a score, a turn must name somebody)."""
    name = next((n for n in (user.full_name, user.username) if n and shows_something(n)),
                str(user.id))
    return Player(user.id, wording.short_name(name))


def tr(update: Update) -> Translator:
    """The sender's own language (the one they chose, else their Telegram's:
    :func:`.speech.own_tr`): for what they alone read (a private message). What the bot
    posts in the update's chat is worded by :func:`chat_tr`."""
    return own_tr(update.effective_user)


async def chat_tr(update: Update, rt: Runtime, game: Game | None = None,
                  settings: GroupSettings | None = None) -> Translator:
    """The language of a message posted in the update's chat (a reply, a refusal, a
    question): in a group, the group's (:func:`group_tr`), which everyone there reads, not
    the sender's; in private, the sender's own. ``settings``: the group's, when the caller
    has read them already."""
    chat = update.effective_chat
    if chat is None or not is_group(chat):
        return tr(update)
    person = None if on_behalf_of(update) is not None else update.effective_user
    return await group_tr(rt, chat.id, person, game, settings)


async def group_tr(rt: Runtime, chat_id: int, person: User | None,
                   game: Game | None = None, settings: GroupSettings | None = None
                   ) -> Translator:
    """The group's language: that of ``game``, the group's game the message is about (its
    table speaks it, whatever /settings said since), else the one its settings name (an
    admin's choice, else the automatic one: ``GroupSettings.spoken``). A group without
    one (added by someone whose language the bot lacks, and no table started): its open
    table's, while one is open; else ``person``'s (who writes or taps), the one their
    table would speak; nobody's (an anonymous admin, a channel): the default."""
    if game is not None:
        return translator(game.language)
    if settings is None:
        settings = await rt.service.group_settings(chat_id)
    spoken = settings.spoken or next(
        (table.language for table in rt.service.open_games_in(chat_id)), None)
    return translator(spoken or (person.language_code if person else None))


def is_group(chat: Chat | None) -> bool:
    return chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


def thread_of(message: MaybeInaccessibleMessage | None) -> int | None:
    """The forum topic a group message is in: None in the General topic (whose messages
    carry no thread id) and outside forums, where ``message_thread_id`` alone may name a
    mere chain of replies: only ``is_topic_message`` makes it a topic."""
    if accessible(message) and message.is_topic_message and message.chat.is_forum:
        return message.message_thread_id
    return None


def privacy_hides(message: Message, bot_id: int, bot_username: str | None) -> bool:
    """Whether Telegram's privacy mode would have kept this group message from the bot: plain
    text that is no command, no reply to the bot and does not name it. Receiving one shows
    that the bot reads that group in full (the "⬇ Table" button trusts only such a group)."""
    text = message.text
    if not text or text.startswith("/"):
        return False
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and replied.from_user.id == bot_id:
        return False
    named = bot_username is not None and f"@{bot_username}".lower() in text.lower()
    return not named and not any(entity.user is not None and entity.user.id == bot_id
                                 for entity in message.entities)


async def remember(rt: Runtime, user: User, private_ok: bool | None = None) -> None:
    await rt.service.remember_user(
        user.id, player_of(user).name, user.username, user.language_code, private_ok
    )


async def private_sender(update: Update, rt: Runtime,
                         elsewhere: Callable[[Translator], str]) -> tuple[User, Translator] | None:
    """The sender of a command that acts in private only, remembered as reachable there, and
    their words; None anywhere else, where the reply is ``elsewhere``'s words."""
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return None
    if chat.type != ChatType.PRIVATE:
        await reply(update, elsewhere(await chat_tr(update, rt)))
        return None
    await remember(rt, user, private_ok=True)
    return user, tr(update)


async def open_table(
    rt: Runtime, chat: Chat, user: User, name: str, options: dict[str, object],
    thread_id: int | None = None,
) -> None:
    """Open a table of ``name`` in a group (/newgame, or the game picker's button). A
    refusal raises ``UserError``, worded by the caller: /newgame's in the group, the
    picker's as the tapper's toast."""
    rt.chat_titled(chat.id, chat.title)
    async with rt.locks.chat(chat.id):
        await rt.service.open_table(chat.id, chat.title, player_of(user), user.language_code,
                                    name, options, thread_id)
    # (in the background: neither the reply nor a picker's toast waits for it, review)
    held(_retiring, rt.retire_pickers(chat.id, thread_id), f"pickers-{chat.id}")


def accessible(message: MaybeInaccessibleMessage | None) -> TypeGuard[Message]:
    """Whether a tapped message is there to read: a tap on a message days old carries only
    its chat and id (Telegram's date 0), which PTB 22 gives as a ``Message`` whose
    ``is_accessible`` is False, and other versions as an ``InaccessibleMessage``."""
    return isinstance(message, Message) and message.is_accessible


# A tap on a message days old comes without the message (see accessible), on which PTB's
# CallbackQuery.edit_message_* and delete_message shortcuts may raise TypeError: the tapped
# message is edited by its chat and id instead, which Telegram still allows.
async def edit_tapped(query: CallbackQuery, *, text: str | None = None,
                      caption: str | None = None, markup: InlineKeyboardMarkup | None = None,
                      ) -> None:
    """Edit the tapped message: its text, or its caption, and its buttons (``markup``, None:
    none), or its buttons alone. Telegram's refusals raise ``TelegramError``."""
    message = query.message
    if message is None:
        return
    chat_id, message_id, bot = message.chat.id, message.message_id, query.get_bot()
    if text is not None:
        await bot.edit_message_text(text, chat_id, message_id, parse_mode=ParseMode.HTML,
                                    reply_markup=markup)
    elif caption is not None:
        await bot.edit_message_caption(chat_id, message_id, caption=caption,
                                       parse_mode=ParseMode.HTML, reply_markup=markup)
    else:
        await bot.edit_message_reply_markup(chat_id, message_id, reply_markup=markup)


async def retire_tapped(query: CallbackQuery, fallback: str | None = None) -> None:
    """Take the tapped message away: delete it, or, past the 48 hours in which a bot may,
    take its buttons away (and edit in ``fallback``, if given, for its words: a question
    whose words would read as still open). Telegram's refusals are not errors here."""
    message = query.message
    if message is None:
        return
    try:
        await query.get_bot().delete_message(message.chat.id, message.message_id)
    except TelegramError:
        with contextlib.suppress(TelegramError):
            await edit_tapped(query, text=fallback)


async def is_admin(context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int) -> bool:
    return user_id in (await admins_of(context, chat_id) or ())


async def reply(update: Update, text: str, **kwargs: object) -> Message | None:
    """Answer in the chat (and topic) of the update; the message sent, if any."""
    message = update.effective_message
    if message is None:
        return None
    return await message.reply_text(text, parse_mode=ParseMode.HTML, **kwargs)  # type: ignore[arg-type]


async def error_handler(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The one error handler: log it, and tell the user briefly, never with a traceback."""
    if isinstance(context.error, UpdateTakenError):  # a fleet worker came second: no apology
        log.info("%s", context.error)
        return
    if isinstance(context.error, StoppingError):
        # A reply the group's limit held back when the bot was told to stop: not sent (a
        # command is not stored; a game's messages are, and go out after the restart).
        log.info("reply not sent: %s", context.error)
        return
    if context.error is not None and refused_here(context.error):
        # Removed from the group, blocked, forbidden to write, a closed topic: Telegram's
        # answer, not a failure, and an apology there would be refused too.
        log.info("update not answered: Telegram refuses the chat: %s", context.error)
        return
    if isinstance(context.error, NetworkError) and not isinstance(context.error, BadRequest):
        # Telegram's 5xx, a time-out, a dropped connection: Telegram's trouble, one line
        log.warning("update failed: Telegram answered %s", context.error)
    elif (failure := database_failure(context.error, runtime(context).metrics)) is not None:
        log.warning("update failed: %s", failure)  # PostgreSQL away, a full disk: one line
    else:
        log.error("update failed", exc_info=context.error)
    if context.error is not None and outcome_unknown(context.error):
        return  # a lost answer: what was sent may have arrived, so no apology is sent after it
    if isinstance(update, Update):
        t = tr(update)
        if update.callback_query is not None:
            with contextlib.suppress(TelegramError):
                await update.callback_query.answer(t("Something went wrong. Please try again."))
        elif update.effective_message is not None:
            with contextlib.suppress(Exception):  # (the group's language is read from storage)
                t = await chat_tr(update, runtime(context))
            with contextlib.suppress(TelegramError):
                await reply(update, t("Something went wrong. Please try again."))
