"""The route of a hand's tiles: a tile tapped, a lay, back to the tiles.

Apart from the other routes (:mod:`.gametaps`) because a hand's tap is the one that plays:
it checks the tapped message and the button's move against the game, asks the second tap's
question in place, and answers early before the move it plays is committed.
"""

from __future__ import annotations

import contextlib

from telegram import CallbackQuery, InlineKeyboardMarkup
from telegram.error import TelegramError

from engine import Discard, PlayerView, Tile

from ..errors import SeatHandedOnError, UserError
from ..i18n import N_, Translator
from ..models import Game, Status
from ..presentation import keyboards
from ..presentation.laychoices import lays_of
from ..presentation.tilebuttons import BackToHand, Lay, TileIntent, TileTap
from ..publishing.messenger import Place, message_at
from .returns import offered_in_place
from .runtime import Runtime
from .taps import (
    SEND_WAIT,
    Answer,
    Context,
    answer_early,
    game_named,
    is_current,
    translator_of,
)
from .updates import accessible

#: A tile tapped that has no lay (or put face down) now: an old button, a hand moved on.
CANNOT_LAY_NOW = N_("You cannot lay that tile now.")


async def tile_tapped(rt: Runtime, context: Context, query: CallbackQuery,
                      tap: TileTap | Lay | BackToHand) -> Answer:
    game = await game_named(rt, tap.game_id, query)
    user, t = query.from_user, translator_of(query)
    try:
        seat = rt.service.seat_of(game, user.id)
    except SeatHandedOnError as handed:  # away, a computer took the seat: the way back
        if handed.seat is None:
            raise
        return await offered_in_place(rt, query, game, handed.seat)
    stray = t("This message is out of date: your tiles are in the newest one.")
    current = await _adopted(rt, query, game, seat, tap) \
        or await is_current(rt, query, game, seat, stray)
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
            # its turn: another tile is playable (the engine knocks for a hand with none)
            return t("You cannot lay that tile now: the ones marked ✅ can go."), None
        action = tap.action() if isinstance(tap, TileTap | Lay) else None
        if action is not None:
            await rt.service.tapped(game, user.id, tap.move_no, action,
                                    accepted=lambda: answer_early(query))
            return None, None
        assert isinstance(tap, TileTap | BackToHand)
        view = rt.service.choosing(game, user.id, tap.move_no)
        choosing, markup = _choice(t, game, view, tap)
    # The question's edit goes out of the game's lock: a flood wait or a slow answer in
    # this player's private chat must not hold back the other players' taps (QA: a tap
    # answered after a minute); what it stores is stored only if the game is still there.
    shown = query.message.reply_markup if accessible(query.message) else None
    if shown == markup:
        return None, None  # a second tap on the same tile: nothing to change
    # Answered before the edit: in a private chat's busy second the edit may wait for its
    # budget, and the spinner must not wait with it (the question shows when it comes).
    await answer_early(query)
    with contextlib.suppress(TelegramError):  # unchanged, or gone: the toast still answers
        await rt.show_choice(game, view, t, choosing, markup, tap.move_no)
    return None, None


async def _adopted(rt: Runtime, query: CallbackQuery, game: Game, seat: int,
                   tap: TileTap | Lay | BackToHand) -> bool:
    """Whether the tap's message, newer than the seat's the game knows, is its turn's
    message at the game's very move, for the seat to move: sent just before the bot died,
    its id never saved (QA: a SIGKILL the instant a turn arrived, the tap then resent the
    tiles and played nothing). It is adopted as the seat's message, and the tap plays. A
    button of another move is left to :func:`_lost` (a backup restored behind the chat)."""
    match = game.match
    if game.status is not Status.PLAYING or match is None or match.to_move != seat \
            or tap.move_no != game.move_no or not _lost(query, game, seat):
        return False
    await rt.sent(game.game_id, seat, SEND_WAIT)  # (a send in flight: its answer decides)
    if rt.sending_to(game.game_id, seat) or not _lost(query, game, seat) \
            or tap.move_no != game.move_no or match is not game.match \
            or game.status is not Status.PLAYING:
        return False
    assert query.message is not None  # (accessible: _lost)
    await rt.adopt_hand(game, seat, query.message.message_id)
    return True


def _lost(query: CallbackQuery, game: Game, place: Place) -> bool:
    """Whether the tap's message is newer than the game's current one at ``place`` (asked
    once :func:`.taps.is_current` has waited for a send in flight): message ids grow in a
    chat, so the game's record of that place is behind the chat."""
    message, current = query.message, message_at(game.messages, place)
    return accessible(message) and (current is None or message.message_id > current)


def _choice(t: Translator, game: Game, view: PlayerView, tap: TileTap | BackToHand
            ) -> tuple[Tile | None, InlineKeyboardMarkup]:
    """The second tap's question (which end; put this tile face down?) for the tile being
    placed, or back to the tiles (None): the tile, and the buttons its hand message shows."""
    if isinstance(tap, TileTap) and tap.intent is TileIntent.ASK_DISCARD:
        if not any(type(a) is Discard and a.tile is tap.tile for a in view.legal):
            raise UserError(CANNOT_LAY_NOW)
        return tap.tile, keyboards.discard_confirmation(t, game, game.move_no, tap.tile)
    if isinstance(tap, TileTap):
        assert game.match is not None  # (a view to choose in: rt.service.choosing)
        if not lays_of(view, tap.tile, game.match):
            raise UserError(CANNOT_LAY_NOW)
        return tap.tile, keyboards.lay_choice(t, game, view, game.move_no, tap.tile)
    return None, keyboards.hand(t, game, view, game.move_no)
