"""Button handlers: one per family of buttons, routed by PTB's ``pattern=`` on the data's
prefix (:data:`bot.presentation.callbacks.PATTERNS`).

Each decodes its data strictly, calls the game service, and returns a toast (or a URL to open);
:func:`answering` answers every callback query exactly once, with a short toast when refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from contextvars import ContextVar
from typing import Any

from telegram import CallbackQuery, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from engine import Discard, PlayerView, Tile

from .. import wording
from ..errors import GameOverError, OutOfDateError, PrivateChatClosedError, UserError
from ..gamebook import GAMES
from ..i18n import N_, Translator, translator
from ..models import Game, Status
from ..presentation import keyboards, lobbytexts
from ..presentation.callbacks import decode, kinds_of
from ..presentation.gamebuttons import (
    AddComputer,
    LeaveAnswer,
    LobbyAction,
    LobbyTap,
    PickGame,
    PlayAgain,
    ReplaceAway,
    SettingTap,
    ShowHand,
    ShowRules,
    ShowTable,
    StopAnswer,
)
from ..presentation.tilebuttons import BackToHand, Lay, TileIntent, TileTap
from ..publishing.delivery import answer_tap
from ..publishing.messenger import LOBBY, TABLE, Place, message_at
from ..serving.latency import arrived
from .menu import setting_button
from .replays import replay_tapped
from .runtime import Runtime, runtime
from .updates import (
    accessible,
    edit_tapped,
    is_admin,
    is_group,
    open_table,
    player_of,
    remember,
    retire_tapped,
    thread_of,
)
from .verify import check_tapped

log = logging.getLogger(__name__)
#: What a stray lobby or table message says once found (in the group's language).
STRAY = N_("This message is out of date: the table's newest message is below.")

Answer = tuple[str | None, str | None]  # (toast, url)
#: How long a move waits for its tap's early answer before going on (answer_tap retries on
#: in the background): the game's lock is held meanwhile.
EARLY_ANSWER_WAIT = 1.0
#: How long a tap on a lobby, table or hand message newer than the one the bot knows waits
#: for a send in flight to be answered (the tapped message may be that send's, whose id comes
#: with it).
SEND_WAIT = 2.0
#: Whether the tap being handled was answered early (each update is handled in its own task).
_answered_early: ContextVar[bool] = ContextVar("answered_early", default=False)
#: When the early answer went (or stopped being waited for): time.monotonic().
_early_answer_at: ContextVar[float] = ContextVar("early_answer_at", default=0.0)
_answering: set[asyncio.Task[bool]] = set()  # early answers still retrying (kept referenced)
Context = ContextTypes.DEFAULT_TYPE
Route = Callable[[Runtime, Context, CallbackQuery, Any], Awaitable[Answer]]


def answering(family: str) -> Callable[[Update, Context], Coroutine[Any, Any, None]]:
    """A PTB callback for one family of buttons: decode, route, answer once, whatever
    happens (a refusal is a toast, a failure a short apology, never a traceback)."""
    expected, route = kinds_of(family), ROUTES[family]

    async def handle(update: Update, context: Context) -> None:
        query = update.callback_query
        if query is None:
            return
        tapped = arrived() or time.monotonic()
        t = translator(query.from_user.language_code)
        toast: str | None = None
        url: str | None = None
        _answered_early.set(False)
        try:
            button = decode(query.data)
            if not isinstance(button, expected):
                toast = t("That button is out of date.")
            else:
                toast, url = await route(runtime(context), context, query, button)
        except PrivateChatClosedError as closed:  # hands go there: open it first, /start acts
            url = runtime(context).private_link(closed.payload)
        except UserError as exc:
            toast = t(exc.message, **exc.params)
        except Exception:
            log.exception("button %r failed", query.data)
            toast = t("Something went wrong. Please try again.")
        if _answered_early.get():
            if toast is not None:
                log.info("tap %s was answered before its move, which said %r", query.id, toast)
            runtime(context).metrics.tap_handled(_early_answer_at.get() - tapped)
            return
        await answer_tap(query, toast, url)
        runtime(context).metrics.tap_handled(time.monotonic() - tapped)

    return handle


async def answer_early(query: CallbackQuery) -> None:
    """Answer a tap now, with no toast: before its move is committed and any picture of it
    drawn, or before the edit that asks the second tap's question. The spinner stops at
    once. Waits at most :data:`EARLY_ANSWER_WAIT` for it."""
    _answered_early.set(True)
    answer = asyncio.create_task(answer_tap(query, None, None), name=f"answer-{query.id}")
    _answering.add(answer)
    answer.add_done_callback(_answering.discard)
    await asyncio.wait({answer}, timeout=EARLY_ANSWER_WAIT)
    _early_answer_at.set(time.monotonic())


async def unknown(update: Update, context: Context) -> None:
    """Data no family claims: garbled, forged or from an old version of the bot."""
    query = update.callback_query
    if query is not None:
        await answer_tap(query, translator(query.from_user.language_code)(
            "That button is out of date."), None)


def _t(query: CallbackQuery) -> Translator:
    return translator(query.from_user.language_code)


async def _game(rt: Runtime, game_id: int, query: CallbackQuery) -> Game:
    """The game a button names; a finished one is read back from the database. A button on
    a group's message acts only on that group's games, and one in a private chat only for
    someone who plays (or played) in the game: a modified client can send any data from any
    message (and message ids repeat from chat to chat)."""
    game = await rt.service.find(game_id)
    chat = query.message.chat if query.message is not None else None
    if game is None or (chat is not None and chat.id != game.chat_id and (
            is_group(chat) or not game.played_by(query.from_user.id))):
        raise OutOfDateError()
    return game


async def _delete_quietly(query: CallbackQuery) -> None:
    await retire_tapped(query)


# --- the routes ----------------------------------------------------------------------------
async def game_picked(rt: Runtime, context: Context, query: CallbackQuery, tap: PickGame
                      ) -> Answer:
    chat = query.message.chat if query.message else None
    if chat is None or not is_group(chat) or tap.game not in GAMES:
        return _t(query)("That button is out of date."), None
    await remember(rt, query.from_user)
    refusal = await open_table(rt, chat, query.from_user, tap.game, {}, thread_of(query.message))
    if refusal is None:
        await _delete_quietly(query)  # the picker has done its job
    return refusal, None


async def rules_asked(rt: Runtime, context: Context, query: CallbackQuery, tap: ShowRules
                      ) -> Answer:
    """A game's rules, as a message of their own in the chat of the picker."""
    t = _t(query)
    if tap.game not in GAMES or query.message is None:
        return t("That button is out of date."), None
    chat = query.message.chat
    if is_group(chat):
        settings = await rt.service.group_settings(chat.id)
        t = translator(settings.language or query.from_user.language_code)
    text = lobbytexts.rules_text(t, tap.game)
    if accessible(query.message):  # a reply stays in the picker's forum topic
        await query.message.reply_text(text, parse_mode=ParseMode.HTML)
    else:  # a picker days old: Telegram no longer says which topic it is in
        await query.get_bot().send_message(chat.id, text, parse_mode=ParseMode.HTML)
    return None, None


async def again_tapped(rt: Runtime, context: Context, query: CallbackQuery, tap: PlayAgain
                       ) -> Answer:
    """A rematch: the same table again, its players asked to confirm."""
    old, user, t = await _game(rt, tap.game_id, query), query.from_user, _t(query)
    async with rt.locks.chat(old.chat_id):
        lobby = rt.service.open_game_in(old.chat_id, old.thread_id)
        if lobby is None or not rt.service.is_rematch(lobby, old):
            await rt.service.rematch(old, player_of(user))
            return t("A new table is open: the others press Join to play again."), None
        # Another player opened it first: this tap takes a seat there, as Join would.
        async with rt.locks.game(lobby.game_id):
            await rt.service.rematch(old, player_of(user))
    return t("You joined the game."), None


async def settings_tapped(rt: Runtime, context: Context, query: CallbackQuery, tap: SettingTap
                          ) -> Answer:
    return await setting_button(rt, context, query, tap), None


async def lobby_tapped(rt: Runtime, context: Context, query: CallbackQuery,
                       tap: LobbyTap | AddComputer) -> Answer:
    user, t = query.from_user, _t(query)
    game = await _game(rt, tap.game_id, query)
    if not await _current(rt, query, game, LOBBY, translator(game.language)(STRAY)):
        return t("That message is out of date: use the newest one."), None
    async with rt.locks.game(game.game_id):
        if isinstance(tap, AddComputer):
            added = await rt.service.add_computer(game, user.id, tap.level)
            return t("{name} takes a seat.", name=wording.isolated(added.name)), None
        if tap.action is LobbyAction.JOIN:
            await remember(rt, user)
            await rt.service.take_seat(game, player_of(user))
            return t("You joined the game."), None
        if tap.action is LobbyAction.LEAVE:
            await rt.service.leave(game, user.id)
            return t("You left the game."), None
        if tap.action is LobbyAction.CANCEL:
            await rt.service.cancel(game, user.id, await is_admin(context, game.chat_id, user.id))
            return t("The table is closed."), None
        if tap.action is LobbyAction.REMOVE_COMPUTER:
            await rt.service.remove_computer(game, user.id)
            return t("A computer player left the table."), None
        if tap.action is LobbyAction.OTHER_PAIRS:
            await rt.service.other_pairs(game, user.id)
            return t("New pairs: see the table."), None
        await rt.service.start(game, user.id)
        return t("Let's play!"), None


async def replace_tapped(rt: Runtime, context: Context, query: CallbackQuery, tap: ReplaceAway
                         ) -> Answer:
    """Hand an away player's seat to a computer player (the creator or an admin)."""
    user = query.from_user
    game = await _game(rt, tap.game_id, query)
    admin = await is_admin(context, game.chat_id, user.id)
    async with rt.locks.game(game.game_id):
        await rt.service.replace_away(game, user.id, admin, tap.seat)
    with contextlib.suppress(TelegramError):
        await edit_tapped(query)
    t = _t(query)
    return t("A computer player takes the seat."), None


async def stop_tapped(rt: Runtime, context: Context, query: CallbackQuery, tap: StopAnswer
                      ) -> Answer:
    user, t = query.from_user, _t(query)
    game = await _game(rt, tap.game_id, query)
    admin = await is_admin(context, game.chat_id, user.id)
    rt.service.check_may_stop(game, user.id, admin)
    async with rt.locks.game(game.game_id):
        if tap.confirm:  # (a game that ended meanwhile refuses: its end closes the question)
            await rt.service.stop(game, user.id, admin,
                                  by=wording.mention(user.id, player_of(user).name))
        await _answered(rt, query, game)
    await _delete_quietly(query)
    return t("The game is stopped.") if tap.confirm else t("The game goes on."), None


async def leave_tapped(rt: Runtime, context: Context, query: CallbackQuery, tap: LeaveAnswer
                       ) -> Answer:
    user, t = query.from_user, _t(query)
    game = await _game(rt, tap.game_id, query)
    if not tap.confirm:
        rt.service.check_asked(game, user.id, tap.seat)
        async with rt.locks.game(game.game_id):
            await _answered(rt, query, game)
        await _delete_quietly(query)
        return t("The game goes on."), None
    async with rt.locks.game(game.game_id):
        await rt.service.quit(game, user.id, asked_seat=tap.seat)
        await _answered(rt, query, game)
    await _delete_quietly(query)
    return t("You left the game."), None


async def _answered(rt: Runtime, query: CallbackQuery, game: Game) -> None:
    """The question tapped is answered: it is deleted, so the game's end has nothing to
    close there."""
    if query.message is not None:
        await rt.service.answered(game, query.message.message_id)


async def hand_asked(rt: Runtime, context: Context, query: CallbackQuery, tap: ShowHand
                     ) -> Answer:
    user, t = query.from_user, _t(query)
    game = await _game(rt, tap.game_id, query)
    seat = rt.service.playing_seat(game, user.id)
    if not await _current(rt, query, game, TABLE, translator(game.language)(STRAY)):
        return t("That message is out of date: use the newest one."), None
    await rt.service.needs_private_chat(user.id, f"hand{game.game_id}")
    await rt.resend_hand(game, seat)
    return t("I sent your tiles to our private chat."), None


async def table_asked(rt: Runtime, context: Context, query: CallbackQuery, tap: ShowTable
                      ) -> Answer:
    """"Table": the game's table posted again at the bottom of the group; from the group,
    anyone there may ask, from a private hand only its player."""
    t = _t(query)
    game = await _game(rt, tap.game_id, query)
    message = query.message
    if message is None or message.chat.id != game.chat_id:
        rt.service.playing_seat(game, query.from_user.id)  # a hand's: its player's game
    elif not await _current(rt, query, game, TABLE, translator(game.language)(STRAY)):
        return t("That message is out of date: use the newest one."), None
    if game.status is not Status.PLAYING:
        raise GameOverError()
    rt.table_down(game)
    return t("The table is at the bottom of the group now."), None


async def tile_tapped(rt: Runtime, context: Context, query: CallbackQuery,
                      tap: TileTap | Lay | BackToHand) -> Answer:
    user, t = query.from_user, _t(query)
    game = await _game(rt, tap.game_id, query)
    seat = rt.service.seat_of(game, user.id)
    stray = t("This message is out of date: your tiles are in the newest one.")
    current = await _current(rt, query, game, seat, stray)
    lost = not current and _lost(query, game, seat)  # (a current message is never lost)
    if not current:
        if rt.sending_to(game.game_id, seat):  # a slow send: this is likely its message
            return t("One moment: this message is still arriving. Tap again."), None
        if not lost:
            return t("That message is out of date: your tiles are in the newest one."), None
    behind = lost or tap.move_no > game.move_no
    if behind and game.status is Status.PLAYING:
        # A message newer than the one the game knows for the seat (no send in flight), or
        # a button made at a move the game has not made: the game's record is behind the
        # chat (a backup was restored), and the message it knows may be gone or show a
        # later state. The seat's tiles are sent anew.
        await rt.resend_hand(game, seat)
        return t("I sent your tiles to our private chat."), None
    async with rt.locks.game(game.game_id):
        if isinstance(tap, TileTap) and tap.intent is TileIntent.INERT:
            rt.service.turn_of(game, user.id)  # out of turn, it says whose turn it is
            return t("You cannot lay that tile now."), None
        action = tap.action() if isinstance(tap, TileTap | Lay) else None
        if action is None:
            assert isinstance(tap, TileTap | BackToHand)
            view = rt.service.choosing(game, user.id, tap.move_no)
            await _show_choice(rt, query, t, game, view, tap)
            return None, None
        await rt.service.tapped(game, user.id, tap.move_no, action,
                                accepted=lambda: answer_early(query))
    return None, None


async def _current(rt: Runtime, query: CallbackQuery, game: Game, place: Place, says: str
                   ) -> bool:
    """Whether the tap comes from the game's current message at ``place``: a send whose
    answer was lost may have left a second one, whose buttons must not act. A stray found
    so is edited to say it is out of date (``says``), without its buttons.

    A message newer than the current one may be the one a send still in flight put there (a
    quick tap can come before the send's answer, which brings its id): the tap waits for
    that send, at most :data:`SEND_WAIT`, and compares with the current id then."""
    message = query.message
    if not accessible(message):
        return True  # an inline message, or one too old for Telegram to show: move_no decides
    current = message_at(game.messages, place)
    if current != message.message_id and (current is None or message.message_id > current):
        await rt.sent(game.game_id, place, SEND_WAIT)
        current = message_at(game.messages, place)
    if current == message.message_id:
        return True
    if rt.sending_to(game.game_id, place) and (current is None or message.message_id > current):
        return False  # a send slower than the wait: its own message, not a stray to retire
    with contextlib.suppress(TelegramError):
        if message.photo:
            await query.edit_message_caption(caption=says, reply_markup=None)
        else:
            await query.edit_message_text(says, reply_markup=None)
    return False


def _lost(query: CallbackQuery, game: Game, place: Place) -> bool:
    """Whether the tap's message is newer than the game's current one at ``place`` (asked
    once :func:`_current` has waited for a send in flight): message ids grow in a chat, so
    the game's record of that place is behind the chat."""
    message, current = query.message, message_at(game.messages, place)
    return accessible(message) and (current is None or message.message_id > current)


async def _show_choice(
    rt: Runtime, query: CallbackQuery, t: Translator, game: Game, view: PlayerView,
    tap: TileTap | BackToHand,
) -> None:
    """The second tap's question (which end; put this tile face down?), or back to the tiles;
    the caption says which tile is being placed, the picture raises it alone."""
    choosing: Tile | None = None
    if isinstance(tap, TileTap) and tap.intent is TileIntent.ASK_DISCARD:
        if not any(type(a) is Discard and a.tile is tap.tile for a in view.legal):
            raise UserError("You cannot lay that tile now.")
        choosing = tap.tile
        markup = keyboards.discard_confirmation(t, game, game.move_no, tap.tile)
    elif isinstance(tap, TileTap):
        if not keyboards.lays_of(view, tap.tile):
            raise UserError("You cannot lay that tile now.")
        choosing = tap.tile
        markup = keyboards.lay_choice(t, game, view, game.move_no, tap.tile)
    else:
        markup = keyboards.hand(t, game, view, game.move_no)
    current = query.message.reply_markup if accessible(query.message) else None
    if current == markup:
        return  # a second tap on the same tile: nothing to change
    # Answered before the edit: in a private chat's busy second the edit may wait for its
    # budget, and the spinner must not wait with it (the question shows when it comes).
    await answer_early(query)
    with contextlib.suppress(TelegramError):  # unchanged, or gone: the toast still answers
        await rt.show_choice(game, view, t, choosing, markup)


# family (bot.presentation.callbacks.PATTERNS) -> its route; the kinds of button each family
# carries are declared with the buttons (bot.presentation.callbacks.kinds_of).
ROUTES: dict[str, Route] = {
    "game": game_picked,
    "rules": rules_asked,
    "again": again_tapped,
    "lobby": lobby_tapped,
    "play": tile_tapped,
    "hand": hand_asked,
    "table": table_asked,
    "stop": stop_tapped,
    "leave": leave_tapped,
    "replace": replace_tapped,
    "settings": settings_tapped,
    "replay": replay_tapped,
    "verify": check_tapped,
}
