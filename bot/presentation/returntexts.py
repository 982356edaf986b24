"""What a player whose seat was handed to a computer while they were away reads in private:
the way back to it (bot.service.returns), and what became of their tap."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from .. import wording
from ..i18n import N_, Translator
from ..wording import named
from .gamebuttons import TakeSeatBack

#: The button that gives the seat back (its label is named in the texts below).
TAKE_BACK_BUTTON = N_("↩ Take my seat back")
#: In place of the player's last hand, and again wherever they ask for their tiles.
HANDED_WHILE_AWAY = N_(
    "🤖 Your time ran out three turns in a row, so your seat was handed to {computer}, who "
    "plays it for now. Back? Tap “↩ Take my seat back” while the match is on. If the table "
    "plays again (“🔁 Play again”), your seat there is kept for you.")
#: The toast of a tap on an old hand's tile: the message tapped now offers the way back.
TAKE_BACK_BELOW = N_("A computer player took your seat while you were away: tap “↩ Take my "
                     "seat back” to play on.")
#: The toast of "My tiles" in the group: the way back went to the private chat.
TAKE_BACK_SENT = N_("A computer player took your seat while you were away: I sent you "
                    "“↩ Take my seat back” in our private chat.")
#: The toast of the tap that took the seat back.
TAKEN_BACK = N_("Your seat is yours again: your tiles are on their way.")
#: What the message tapped says once the seat is theirs again.
TAKEN_BACK_NOTE = N_("✅ You took your seat back from {computer}. Your tiles come below.")
#: An offer without its button, in place of its words ("Tap ↩ Take my seat back" would
#: invite a tap that does nothing): the seat is theirs again (where the offer, an old hand's
#: picture, could not be deleted in favour of their tiles' new message) ...
OFFER_SEAT_BACK = N_("✅ Your seat is yours again: your tiles are in the newest message.")
#: ... the match is over (the words of the refusal a tap on it would get) ...
OFFER_MATCH_OVER = N_("This match is over: your seat can no longer be taken back.")
#: ... a newer offer holds the button ...
OFFER_NEWER = N_("This offer is no longer open: the newest one is below.")
#: ... or the seat is no longer theirs to take back (they left it with /leave since).
OFFER_CLOSED = N_("This offer is no longer open.")


def take_back(t: Translator, game_id: int, seat: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        t(TAKE_BACK_BUTTON), callback_data=TakeSeatBack(game_id, seat).encode())]])


def handed_while_away(t: Translator, computer: str, place: str) -> str:
    """The offer's words (HTML): why the seat went, how to take it back, and which table
    (``place``, HTML: a person may play at two, each with its "🤖 Rio")."""
    text = t(HANDED_WHILE_AWAY, computer=named(computer.removeprefix("🤖 ")))
    return "\n".join(filter(None, [text, place]))


def closed_offer(t: Translator, words: str, place: str) -> str:
    """An offer's words once it lost its button (HTML): ``words``, one of the ``OFFER_...``
    msgids above, and which table (``place``, HTML), as the offer said."""
    return "\n".join(filter(None, [wording.esc(t(words)), place]))


#: /hand from a player who left a match still played (/leave): which, and that there is no
#: way back to that seat (player QA: "You are not playing a game right now" told nothing,
#: and a player looked for a way back; "↩ Take my seat back" is for seats handed on while
#: their player was away, never after /leave).
LEFT_WITH_LEAVE = N_("🚪 You left <b>{game}</b> with /leave: {computer} plays your seat until "
                     "the match ends, and the match counts as lost for you. A seat left with "
                     "/leave cannot be taken back.")


def left_with_leave(t: Translator, game: str, computer: str, place: str) -> str:
    """The words (HTML) for one who left ``game`` (its title) with /leave: the computer that
    plays their seat (its name), and which table (``place``, HTML, the hands' way back)."""
    text = t(LEFT_WITH_LEAVE, game=wording.esc(game), computer=named(computer))
    return "\n".join(filter(None, [text, place]))
