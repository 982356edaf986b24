"""What a player reads when the rules refuse a move: the engine's error reasons, as msgids.

The engine's messages are English and written for developers; each of its errors carries a
``reason`` code, and this table is where the bot gives every code its sentence.
"""

from __future__ import annotations

from engine import BadInputError, DominoError

from .i18n import N_

RULE_MESSAGES: dict[str, str] = {
    "not_your_turn": N_("It is not your turn."),
    "hand_over": N_("This hand is over."),
    "tile_not_in_hand": N_("You don't hold that tile."),
    "tile_does_not_fit": N_("That tile does not fit there."),
    "wrong_lead": N_("This hand must be led with another tile."),
    "must_play": N_("You must play when you can."),
    "wrong_stuck_action": N_("When you cannot lay a tile, use the buttons I sent you."),
    "end_required": N_("That tile fits both ends: choose one."),
    "must_draw": N_("Draw from the stock first."),
    "cannot_draw": N_("You cannot draw any more this turn."),
    "cross_not_allowed": N_("That tile cannot lie that way there."),
    "no_such_end": N_("There is no such end on the table."),
    "cut_not_allowed": N_("You cannot cut the ribbons with that tile now."),
    "cross_required": N_("Say whether the tile lies across or along."),
}


def rule_message(error: DominoError) -> str:
    """The catalogue message for an engine error."""
    if error.reason in RULE_MESSAGES:
        return RULE_MESSAGES[error.reason]
    if isinstance(error, BadInputError):
        return N_("That button is out of date.")
    return N_("That move is not allowed.")
