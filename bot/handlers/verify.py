"""Checking a deal: the "🔍 Check the deal" button under each hand's result, and the private
/verify. Both send the check to the player's private chat (bot.service.fairness decides who
may see which hand and computes the check; bot.presentation.checktexts words it)."""

from __future__ import annotations

from telegram import CallbackQuery, InlineKeyboardMarkup, Update
from telegram.constants import ChatType, ParseMode
from telegram.error import BadRequest, Forbidden
from telegram.ext import ContextTypes

from ..errors import OutOfDateError, UserError
from ..i18n import Translator
from ..models import Game, Status
from ..presentation import checktexts
from ..presentation.gamebuttons import CheckDeal
from ..service.fairness import HAND_GOING_ON, check_for, checkable_hands
from .runtime import Runtime, runtime
from .speech import own_tr
from .updates import is_group, private_sender, reply

Context = ContextTypes.DEFAULT_TYPE


def _text(t: Translator, game: Game, hand: int, user_id: int, chat_id: int | None) -> str:
    """The check of the hand, or (in its place) why it cannot be had: in the private chat a
    refusal is a message of its own, with the hand it is about."""
    try:
        check = check_for(game, hand, user_id, chat_id)
    except UserError as exc:
        if isinstance(exc, OutOfDateError) or chat_id is not None:
            raise  # a button's refusal is its toast
        return checktexts.refused_text(t, game, hand, t(exc.message, **exc.params))
    return checktexts.check_text(t, game, check, game.seat_of(user_id))


async def check_tapped(rt: Runtime, context: Context, query: CallbackQuery, tap: CheckDeal
                       ) -> tuple[str | None, str | None]:
    """The check of the tapped hand, to the tapper's private chat (its toast says so); when
    the bot cannot write there, the toast says to open the chat first."""
    user, t = query.from_user, own_tr(query.from_user)
    game = await rt.service.find(tap.game_id)
    if game is None:
        raise OutOfDateError()
    message = query.message
    in_private = message is not None and message.chat.type == ChatType.PRIVATE
    chat_id = message.chat.id if message is not None and is_group(message.chat) else None
    async with rt.locks.game(game.game_id):  # never a hand whose end is not committed yet
        text = _text(t, game, tap.hand, user.id, chat_id)
    try:
        await context.bot.send_message(user.id, text, parse_mode=ParseMode.HTML)
    except (Forbidden, BadRequest):  # no private chat yet, or the user blocked the bot
        return t(checktexts.OPEN_CHAT_FIRST), None
    return (None if in_private else t(checktexts.CHECK_SENT)), None


async def verify_command(update: Update, context: Context) -> None:
    """/verify in private: the check of the last hand the player finished, with buttons for
    their earlier recent hands; in a group, where to send it."""
    rt = runtime(context)
    sender = await private_sender(update, rt, lambda t: t(checktexts.PRIVATE_ONLY))
    if sender is None:
        return
    user, t = sender
    hands = await checkable_hands(rt.service, user.id)
    if not hands:  # (a first hand still played: its seed is secret until it ends, QA)
        playing = any(g.status is Status.PLAYING for g in rt.service.games_of_user(user.id))
        await reply(update, t(HAND_GOING_ON if playing else checktexts.NOTHING_YET))
        return
    game, hand = hands[0]
    markup: InlineKeyboardMarkup | None = checktexts.earlier_hands(t, hands[1:])
    async with rt.locks.game(game.game_id):
        text = _text(t, game, hand, user.id, None)
    await reply(update, text, reply_markup=markup)
