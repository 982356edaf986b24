"""What every button's route shares: the answer it returns, the game its button names,
whether the tapped message is the game's current one, and the tap's early answer.

Apart from the routing (:mod:`.buttons`, which imports the routes) so that the routes
(:mod:`.gametaps`, :mod:`.tiletaps`) can use these without importing it back.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Coroutine
from contextvars import ContextVar
from typing import Any, TypeVar

from telegram import CallbackQuery
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from ..background import held
from ..errors import OutOfDateError
from ..i18n import Translator
from ..models import Game
from ..publishing.delivery import answer_tap
from ..publishing.messenger import Place, message_at
from .runtime import Runtime
from .speech import about_game, tapper_tr
from .updates import accessible, is_group

Answer = tuple[str | None, str | None]  # (toast, url)
#: How long a move waits for its tap's early answer before going on (answer_tap retries on
#: in the background): the game's lock is held meanwhile.
EARLY_ANSWER_WAIT = 1.0
#: How long a tap on a lobby, table or hand message newer than the one the bot knows waits
#: for a send in flight to be answered (the tapped message may be that send's, whose id comes
#: with it).
SEND_WAIT = 2.0
#: Whether the tap being handled was answered early (each update is handled in its own task).
answered_early: ContextVar[bool] = ContextVar("answered_early", default=False)
#: When the early answer went (or stopped being waited for): time.monotonic().
early_answer_at: ContextVar[float] = ContextVar("early_answer_at", default=0.0)
_background: set[asyncio.Task[Any]] = set()  # tasks nobody awaits, kept referenced till done
Context = ContextTypes.DEFAULT_TYPE
T = TypeVar("T")


async def answer_early(query: CallbackQuery) -> None:
    """Answer a tap now, with no toast: before its move is committed and any picture of it
    drawn, or before the edit that asks the second tap's question. The spinner stops at
    once. Waits at most :data:`EARLY_ANSWER_WAIT` for it."""
    answered_early.set(True)
    answer = in_background(answer_tap(query, None, None), f"answer-{query.id}")
    await asyncio.wait({answer}, timeout=EARLY_ANSWER_WAIT)
    early_answer_at.set(time.monotonic())


def in_background(work: Coroutine[Any, Any, T], name: str) -> asyncio.Task[T]:
    """Run ``work`` while the tap's handler goes on (an early answer still retrying, a stale
    button being taken off): held here until done, since the loop keeps only a weak
    reference to a task and one nobody holds may be collected half-way."""
    return held(_background, work, name)


def translator_of(query: CallbackQuery) -> Translator:
    """The tapper's own language: a toast is read by whoever tapped (in private, on a
    group's game, as that game's private messages to them: :func:`game_named`)."""
    return tapper_tr(query.from_user)


async def game_named(rt: Runtime, game_id: int, query: CallbackQuery) -> Game:
    """The game a button names; a finished one is read back from the database. A button on
    a group's message acts only on that group's games, and one in a private chat only for
    someone who plays (or played) in the game: a modified client can send any data from any
    message (and message ids repeat from chat to chat)."""
    game = await rt.service.find(game_id)
    chat = query.message.chat if query.message is not None else None
    if game is None or (chat is not None and chat.id != game.chat_id and (
            is_group(chat) or not game.played_by(query.from_user.id))):
        raise OutOfDateError()
    # Its toasts speak as its hands do, in the group too: a tapper whose Telegram is in
    # English (as every Icelander's is) reads the game's language, one who chose or whose
    # Telegram speaks another reads that (bot.i18n.private_language).
    about_game(query.from_user.id, game.language)
    return game


async def is_current(rt: Runtime, query: CallbackQuery, game: Game, place: Place, says: str
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
