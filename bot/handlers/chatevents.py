"""What happens to a group itself, told by Telegram rather than asked by a person: the bot
removed, added back or forbidden to write (my_chat_member), a forum topic made, renamed or
closed, a group become a supergroup."""

from __future__ import annotations

import contextlib
import logging

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from .admins import bot_writes_in_closed_topics
from .runtime import runtime
from .updates import group_tr, thread_of
from .welcome import arrival_text

log = logging.getLogger(__name__)


async def membership_handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot was removed from a group: its game ends with no result, nothing more is sent;
    allowed to write there again: what waits is sent. A user who blocks or unblocks the bot
    in private is remembered for the Join link."""
    change = update.my_chat_member
    if change is None:
        return
    rt = runtime(context)
    gone = change.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
    if change.chat.type == ChatType.PRIVATE:
        if gone:  # blocked: off every /notify list too
            await rt.service.subscriber_gone(change.chat.id, rt.locks)
        else:
            await rt.service.private_chat_changed(change.chat.id, True, rt.locks)
            await rt.resend_unreached(change.chat.id)  # unblocked: the tiles go at once
        return
    if not gone:
        may_write = getattr(change.new_chat_member, "can_send_messages", True)  # (restricted)
        arrived = change.old_chat_member.status in (ChatMemberStatus.LEFT,
                                                     ChatMemberStatus.BANNED)
        if arrived and change.chat.type != ChatType.CHANNEL:
            # the group speaks its adder's language from its first message (QA: a guest's
            # table, cancelled, had set it, and replies came in two languages meanwhile)
            for game_id in await rt.service.bot_added(
                    change.chat.id, change.from_user.language_code, rt.locks):
                rt.publisher.request(game_id)
        if may_write and arrived and change.chat.type != ChatType.CHANNEL:
            t = await group_tr(rt, change.chat.id, change.from_user)
            text = await arrival_text(rt.service, rt.locks, change.chat.id, t,
                                      rt.welcomes.due(change.chat.id))
            with contextlib.suppress(TelegramError):  # (gone again, or not let to write)
                if text is not None:
                    await context.bot.send_message(change.chat.id, text,
                                                   parse_mode=ParseMode.HTML)
        if may_write:
            # Added back, or allowed to write again: what waits for this group goes now
            # (the table, announcements an admin's restriction held back).
            for game_id in await rt.service.games_waiting_in(change.chat.id):
                rt.publisher.tables.may_post(game_id)
        return
    for game in rt.service.open_games_in(change.chat.id):  # one per topic in a forum
        async with rt.locks.game(game.game_id):
            await rt.service.abandon(game)


async def topic_closed_handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An admin closed a forum topic. A bot that may still write there (an admin who may
    manage topics) plays its game on, saying nothing: closing a topic for a moment is
    moderation (QA: it threw away an evening's match). Else the game ends at once, and
    General is told why. Should Telegram not tell which, the game plays on: a send the
    topic refuses ends it then, as it does after the bot loses its rights (and as a
    deleted topic, which sends no update, is found out)."""
    message = update.effective_message
    thread = thread_of(message)
    if message is None or thread is None:
        return
    rt = runtime(context)
    game = rt.service.open_game_in(message.chat.id, thread)
    if game is None:
        return
    writes = await bot_writes_in_closed_topics(context, message.chat.id)
    if writes is False:
        await rt.topic_closed(game.game_id, thread)
    else:
        log.info("game %s plays on in its closed topic %s (the bot %s)", game.game_id, thread,
                 "may write there" if writes else "could not learn whether it may write there")


async def topic_named_handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Any group message (in a group of its own, after the other handlers): a topic made or
    renamed, or the creation a message in a topic quotes, names the topic for the private
    hands' way back to a table there; a renamed topic's hands say its new name."""
    message = update.message
    if message is None or not message.chat.is_forum:
        return
    rt, chat_id = runtime(context), message.chat.id
    made, renamed = message.forum_topic_created, message.forum_topic_edited
    name = made.name if made is not None else renamed.name if renamed is not None else None
    if name:  # (an edit may change the icon alone)
        thread = message.message_thread_id or message.message_id  # (its own id)
        await rt.topic_named(chat_id, thread, name, current=True)
        return
    topic = thread_of(message)
    quoted = message.reply_to_message
    if topic is not None and quoted is not None and quoted.forum_topic_created is not None \
            and quoted.message_id == topic:
        await rt.topic_named(chat_id, topic, quoted.forum_topic_created.name, current=False)


async def migrate_handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A group became a supergroup: its game follows it to the new chat id."""
    message = update.effective_message
    if message is None or not message.migrate_to_chat_id:
        return
    rt = runtime(context)
    await rt.service.migrate_chat(message.chat.id, message.migrate_to_chat_id)
    await rt.service.move_subscriptions(message.chat.id, message.migrate_to_chat_id)
