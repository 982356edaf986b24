"""Button handlers: one PTB callback per family of buttons, routed by PTB's ``pattern=`` on
the data's prefix (:data:`bot.presentation.callbacks.PATTERNS`).

Each decodes its data strictly and calls its family's route (:data:`ROUTES`: a hand's tiles
in :mod:`.tiletaps`, most others in :mod:`.gametaps`), which calls the game service and
returns a toast (or a URL to open); :func:`answering` answers every callback query exactly
once, with a short toast when refused. This module is that routing and answering only.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram import CallbackQuery, Update
from telegram.error import TelegramError

from ..errors import PrivateChatClosedError, UserError
from ..i18n import N_
from ..presentation.callbacks import decode, kinds_of
from ..publishing.delivery import answer_tap
from ..publishing.ratelimit import StoppingError
from ..serving.latency import arrived
from .failures import database_failure
from .gametaps import (
    again_tapped,
    game_picked,
    hand_asked,
    leave_tapped,
    lobby_tapped,
    replace_tapped,
    rules_asked,
    settings_tapped,
    stop_tapped,
    table_asked,
)
from .ownlanguage import language_chosen
from .replays import replay_tapped
from .returns import take_back_tapped
from .runtime import Runtime, runtime
from .taps import Answer, Context, answered_early, early_answer_at, translator_of
from .tiletaps import tile_tapped
from .updates import thread_of
from .verify import check_tapped

log = logging.getLogger(__name__)
#: What a tap whose handling failed is told (the database's failure, a bug).
APOLOGY = N_("Something went wrong. Please try again.")
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
        # (the toast's words are chosen once the route has run: a tap in private on a
        # group's game speaks as that game's hands do, which the route learns)
        toast: str | None = None
        apology: str | None = None
        url: str | None = None
        answered_early.set(False)
        try:
            button = decode(query.data)
            if not isinstance(button, expected):
                toast = translator_of(query)("That button is out of date.")
            else:
                toast, url = await route(runtime(context), context, query, button)
        except PrivateChatClosedError as closed:  # hands go there: open it first, /start acts
            url = runtime(context).private_link(closed.payload, query.from_user.id)
        except UserError as exc:
            toast = translator_of(query)(exc.message, **exc.params)
        except StoppingError as stopping:  # a reply the limit held when sends were stopped
            log.info("reply not sent: %s", stopping)
        except Exception as exc:
            # The database's failure (PostgreSQL away, a full disk): one line naming it, the
            # move not made (memory is undone with the commit); anything else is a bug.
            failure = database_failure(exc, runtime(context).metrics)
            if failure is None:
                log.exception("button %r failed", query.data)
            else:
                log.warning("button %r not handled: %s", query.data, failure)
            toast = apology = translator_of(query)(APOLOGY)
        if answered_early.get():
            if toast is not None and toast is apology:
                await apologise(query, toast)
            elif toast is not None:
                log.info("tap %s was answered before its move, which said %r", query.id, toast)
            runtime(context).metrics.tap_handled(early_answer_at.get() - tapped,
                                                 failed=apology is not None)
            return
        await answer_tap(query, toast, url)
        runtime(context).metrics.tap_handled(time.monotonic() - tapped,
                                             failed=apology is not None)

    return handle


async def apologise(query: CallbackQuery, text: str) -> None:
    """A tap answered early (blank, before its move was committed) whose move then failed:
    a toast can no longer say so (a tap has one answer), so a message in the tapped message's
    chat does, or the player would see the move just not happen. Telegram's refusal is not
    an error here."""
    message = query.message
    if message is None:  # (an inline message: no chat to write in)
        return
    with contextlib.suppress(TelegramError):
        await query.get_bot().send_message(message.chat.id, text,
                                           message_thread_id=thread_of(message))


async def unknown(update: Update, context: Context) -> None:
    """Data no family claims: garbled, forged or from an old version of the bot."""
    query = update.callback_query
    if query is not None:
        await answer_tap(query, translator_of(query)("That button is out of date."), None)


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
    "take_back": take_back_tapped,
    "settings": settings_tapped,
    "replay": replay_tapped,
    "verify": check_tapped,
    "language": language_chosen,
}
