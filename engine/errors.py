"""The engine's one exception hierarchy.

Every error is a :class:`ValueError` (bad input is a bad value) and carries a ``code``, the
conformance answer it stands for, so that callers never need to map classes to strings.
Messages are written for players: the bot shows them (translated by code) as toasts.
"""

from __future__ import annotations


class DominoError(ValueError):
    """Base class of every error the engine raises."""

    code = "illegal"


class NotYourTurnError(DominoError):
    """The seat acting is not the seat to move (or is not at the table)."""

    code = "not_your_turn"


class HandOverError(DominoError):
    """An action came after the hand had already ended."""

    code = "hand_over"


class IllegalActionError(DominoError):
    """The action is against the rules in the current position."""

    code = "illegal"


class TileNotInHandError(IllegalActionError):
    """The seat does not hold that tile."""


class TileDoesNotFitError(IllegalActionError):
    """The tile shows neither number of the end it was laid at."""


class WrongLeadError(IllegalActionError):
    """The first tile of the hand is not one the rules allow to lead."""


class MustPlayError(IllegalActionError):
    """A knock or a discard while holding a tile that can be laid."""


class WrongStuckActionError(IllegalActionError):
    """A knock in a game with dead tiles, or a discard in one without."""


class EndRequiredError(DominoError):
    """The tile fits both ends, they show different numbers, and no end was chosen."""

    code = "end_required"


class BadInputError(DominoError):
    """Input that cannot describe a game at all: unknown variant, option, malformed tile, deal."""

    code = "bad_input"


class CorruptMatchError(BadInputError):
    """Stored match JSON that is damaged, tampered with, or from an unknown format version."""
