"""What happens to a group itself, told by Telegram rather than asked by a person: the bot
removed, added back or forbidden to write (my_chat_member), a forum topic closed, a group
become a supergroup."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ContextTypes

from .runtime import runtime
from .updates import thread_of


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
        member = change.new_chat_member
        if getattr(member, "can_send_messages", True):  # (a restricted bot's says)
            # Added back, or allowed to write again: what waits for this group goes now
            # (the table, announcements an admin's restriction held back).
            for game_id in await rt.service.games_waiting_in(change.chat.id):
                rt.publisher.request(game_id)
        return
    for game in rt.service.open_games_in(change.chat.id):  # one per topic in a forum
        async with rt.locks.game(game.game_id):
            await rt.service.abandon(game)


async def topic_closed_handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """An admin closed a forum topic: its game ends at once, and General is told why
    (a deleted topic sends no update: the publisher finds out when Telegram refuses it)."""
    message = update.effective_message
    thread = thread_of(message)
    if message is None or thread is None:
        return
    rt = runtime(context)
    game = rt.service.open_game_in(message.chat.id, thread)
    if game is not None:
        await rt.topic_closed(game.game_id, thread)


async def migrate_handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A group became a supergroup: its game follows it to the new chat id."""
    message = update.effective_message
    if message is None or not message.migrate_to_chat_id:
        return
    rt = runtime(context)
    await rt.service.migrate_chat(message.chat.id, message.migrate_to_chat_id)
    await rt.service.move_subscriptions(message.chat.id, message.migrate_to_chat_id)
