"""/replay and the "🎞 Replay" button: a finished hand told again as an animation.

In a group (or a forum topic), /replay sends the last finished hand of the place's latest
game; the button under a hand's result sends that hand. In the private chat, /replay lists the
player's own recent hands, a button each, and a tap sends that one there.
"""

from __future__ import annotations

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import ContextTypes

from ..errors import OutOfDateError
from ..i18n import Translator
from ..presentation.gamebuttons import ReplayHand
from ..presentation.replaytexts import LISTED_MATCHES, replay_list
from ..publishing.replays import Refusal
from .runtime import Runtime, runtime
from .speech import own_tr
from .taps import Answer
from .updates import chat_tr, is_group, reply, thread_of, tr


async def replay_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    rt = runtime(context)
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if user is None or chat is None or message is None:
        return
    if not is_group(chat):
        await _private_list(rt, update, user.id, tr(update))
        return
    thread = thread_of(message)
    game_id = await rt.storage.last_played_game_id(chat.id, thread)
    game = None if game_id is None else await rt.service.find(game_id)
    hands = [] if game is None else game.finished_hands
    if game is None or not hands:
        t = await chat_tr(update, rt)
        await reply(update, t("No hand has been played to its end here yet, so there is "
                              "nothing to replay."))
        return
    # (a second /replay while this one is drawn sends nothing more)
    await rt.replays.send(chat.id, game, hands[-1], game.language, thread, message.message_id)


async def _private_list(rt: Runtime, update: Update, user_id: int, t: Translator) -> None:
    text, rows = replay_list(t, await rt.service.played_games(user_id, LISTED_MATCHES))
    markup = InlineKeyboardMarkup(
        [[InlineKeyboardButton(label, callback_data=data) for label, data in row]
         for row in rows]) if rows else None
    await reply(update, text, reply_markup=markup)


async def replay_tapped(rt: Runtime, context: ContextTypes.DEFAULT_TYPE, query: CallbackQuery,
                        tap: ReplayHand) -> Answer:
    """A hand's replay, sent to the chat of the button (drawn and sent in a task of its own:
    the tap is answered at once)."""
    t = own_tr(query.from_user)
    message = query.message
    if message is None:
        raise OutOfDateError()
    game = await rt.service.find(tap.game_id)
    chat = message.chat
    # In a group, the game's own; in private, only a hand the player played.
    belongs = game is not None and (game.chat_id == chat.id if is_group(chat)
                                    else game.played_by(query.from_user.id))
    if game is None or not belongs or tap.hand not in game.finished_hands:
        return t("That game is no longer stored, so its hands cannot be replayed."), None
    language = game.language if is_group(chat) else t.language
    refusal = rt.replays.start(chat.id, game, tap.hand, language,
                               thread_of(message), message.message_id)
    if refusal is Refusal.SENDING:
        return t("That replay is on its way."), None
    if refusal is Refusal.JUST_SENT:
        return t("That replay was sent here a moment ago: scroll up a little to watch it."), None
    return t("🎞 The replay is on its way."), None
