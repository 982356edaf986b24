"""The informational commands: /rules (a game's, or the table's open here), /notify (a private
word when a table opens here) and /help. Each is a reply in the chat's language; none changes
a game.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from .. import wording
from ..errors import PrivateChatClosedError
from ..gamebook import find_game
from ..presentation import keyboards, lobbytexts
from .runtime import runtime
from .updates import anonymous, chat_tr, is_group, remember, reply, thread_of, tr


async def rules_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/rules GAME: that game's rules; a bare /rules: a button per game (one message each
    when tapped, rather than a wall of text), or where a table is open, its game's rules
    with the options it is played with (the buttons below, for the other games)."""
    rt, chat = runtime(context), update.effective_chat
    settings = await rt.service.group_settings(chat.id) if chat and is_group(chat) else None
    t = await chat_tr(update, rt, settings=settings)
    table = rt.service.open_game_in(chat.id, thread_of(update.effective_message)) \
        if chat is not None and settings is not None else None
    args = context.args or []
    if not args:
        if table is not None:
            await reply(update, lobbytexts.table_rules_text(t, table),
                        reply_markup=keyboards.rules_picker(t))
        else:
            await reply(update, t("Which game's rules?"),
                        reply_markup=keyboards.rules_picker(t))
        return
    name = find_game(" ".join(args))  # the whole name: not its first word, nor with more
    if name is None:
        await reply(update, t("There is no game called {game}. The games: {games}.",
                              game=wording.quote(" ".join(args)),
                              games=lobbytexts.games_list(t)))
        return
    house = settings.game_options(name) if settings is not None else None
    await reply(update, lobbytexts.game_rules_text(t, name, table, house))


async def notify_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/notify in a group (or a topic): the sender is told in private when a table opens
    there from now on; sent again, no longer. The reply is in the group's language."""
    rt = runtime(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    if not is_group(chat):
        await reply(update, tr(update)("This works in the group where the game is played."))
        return
    if await anonymous(update, rt):
        return
    await remember(rt, user)
    t = await chat_tr(update, rt)
    try:
        on = await rt.service.toggle_notify(chat.id, thread_of(update.effective_message),
                                            user.id)
    except PrivateChatClosedError as closed:
        await reply(update, t(lobbytexts.NOTIFY_NEEDS_CHAT),
                    reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton(
                        t(lobbytexts.PRIVATE_CHAT_BUTTON),
                        url=rt.private_link(closed.payload, user.id))]]))
        return
    await reply(update, t(lobbytexts.NOTIFY_ON if on else lobbytexts.NOTIFY_OFF))


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The help; in the private chat with the button that adds the bot to a group, where its
    games are played (as /start there has)."""
    rt = runtime(context)
    t = await chat_tr(update, rt)
    chat = update.effective_chat
    private = chat is not None and chat.type == ChatType.PRIVATE
    await reply(update, lobbytexts.help_text(t),
                reply_markup=keyboards.add_to_group(t, rt.bot_username) if private else None)
