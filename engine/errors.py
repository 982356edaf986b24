"""The engine's one exception hierarchy.

Every error is a :class:`ValueError` (bad input is a bad value) and carries a ``code``, the
conformance answer it stands for, and a finer ``reason``, unique per class, that the bot keys
its texts by. Messages are written for players (in English; the bot translates by reason).
"""

from __future__ import annotations

import reprlib
from typing import Protocol

_SHOWN = reprlib.Repr()
_SHOWN.maxlevel, _SHOWN.maxstring, _SHOWN.maxother = 2, 40, 40


def shown(value: object) -> str:
    """``repr(value)`` cut short, for a message about a value from outside: a scenario may
    hold a value nested thousands deep (plain ``repr`` overflows) or a whole number too long
    to write in decimal (``repr`` raises ``ValueError``)."""
    try:
        return _SHOWN.repr(value)
    except ValueError:
        return f"a number of {value.bit_length()} bits" if type(value) is int else "a value"


class Allowed(Protocol):
    """What an option allows (an :class:`engine.options.OptionSpec`), as a refusal tells it:
    named here by shape so that the errors sit below the options that raise them."""

    def describe(self) -> str: ...


class DominoError(ValueError):
    """Base class of every error the engine raises."""

    code = "illegal"
    reason = "illegal"


class NotYourTurnError(DominoError):
    """The seat acting is not the seat to move (or is not at the table)."""

    code = "not_your_turn"
    reason = "not_your_turn"


class HandOverError(DominoError):
    """An action came after the hand had already ended."""

    code = "hand_over"
    reason = "hand_over"


class IllegalActionError(DominoError):
    """The action is against the rules in the current position."""

    code = "illegal"
    reason = "illegal"


class TileNotInHandError(IllegalActionError):
    """The seat does not hold that tile."""

    reason = "tile_not_in_hand"


class TileDoesNotFitError(IllegalActionError):
    """The tile does not fit the end it was laid at."""

    reason = "tile_does_not_fit"


class WrongLeadError(IllegalActionError):
    """The first tile of the hand is not one the rules allow to lead."""

    reason = "wrong_lead"


class MustPlayError(IllegalActionError):
    """A knock, a discard or a draw while holding a tile that can be laid."""

    reason = "must_play"


class WrongStuckActionError(IllegalActionError):
    """A knock in a game with dead tiles, or a discard in one without."""

    reason = "wrong_stuck_action"


class MustDrawError(IllegalActionError):
    """A knock while the stock still offers a tile to draw."""

    reason = "must_draw"


class CannotDrawError(IllegalActionError):
    """A draw with nothing to draw, a second draw in a one-draw turn, or in a game without
    a stock."""

    reason = "cannot_draw"


class CrossNotAllowedError(IllegalActionError):
    """A tile asked to lie crosswise (or along) where that way is not legal."""

    reason = "cross_not_allowed"


class NoSuchEndError(IllegalActionError):
    """An end the layout does not have now (``up``/``down`` without a spinner)."""

    reason = "no_such_end"


class CutNotAllowedError(IllegalActionError):
    """A cut outside Kolbasa, across ribbons that are not level, or with a tile that does not
    show both ribbon ends."""

    reason = "cut_not_allowed"


class EndRequiredError(DominoError):
    """The tile fits more than one end and no end was chosen."""

    code = "end_required"
    reason = "end_required"


class CrossRequiredError(DominoError):
    """The tile may lie along or crosswise at that end and the way was not chosen."""

    code = "cross_required"
    reason = "cross_required"


class BadInputError(DominoError):
    """Input that cannot describe a game at all: unknown variant, option, malformed tile, deal."""

    code = "bad_input"
    reason = "bad_input"


class UnknownGameError(BadInputError):
    """No game is called ``name`` (nor has it as an alias)."""

    reason = "unknown_game"

    def __init__(self, message: str, name: object) -> None:
        super().__init__(message)
        self.name = name


class UnknownOptionError(BadInputError):
    """The game has no option called ``option``."""

    reason = "unknown_option"

    def __init__(self, message: str, option: str) -> None:
        super().__init__(message)
        self.option = option


class OptionValueError(BadInputError):
    """``option`` cannot take the value given; ``spec`` says what it allows."""

    reason = "option_value"

    def __init__(self, message: str, option: str, spec: Allowed | None) -> None:
        super().__init__(message)
        self.option = option
        self.spec = spec


class CorruptMatchError(BadInputError):
    """Stored match JSON that is damaged, tampered with, or from an unknown format version."""

    reason = "corrupt_match"


class HandNotOverError(BadInputError):
    """A finished hand was asked for (to replay or check it), and it is not over or not dealt."""

    reason = "hand_not_over"


class NoSeedError(BadInputError):
    """A hand's deal was asked to be checked, and it was not made from a seed (a match stored
    before deals had seeds)."""

    reason = "no_seed"

