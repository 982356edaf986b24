"""What a seat can do on its turn, as frozen values.

A whole hand is its deal plus a list of these (with the seat that made each), so they are
small, hashable and eval-able from their ``repr``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from .errors import BadInputError, shown
from .tiles import End, Tile


class ActionKind(enum.Enum):
    PLAY = "play"
    KNOCK = "knock"
    DISCARD = "dead"
    DRAW = "draw"
    CUT = "cut"


@dataclass(frozen=True, slots=True)
class Play:
    """Lay ``tile`` at ``end``.

    ``end`` may be ``None`` when only one end fits or both show the same number. ``left_half``
    matters only for the first tile of a line: the half that faces left (default: the low one).
    ``cross`` (where tiles may lie crosswise): lay it crosswise (True) or along (False);
    ``None`` when only one way is legal at that end.
    """

    tile: Tile
    end: End | None = None
    left_half: int | None = None
    cross: bool | None = None

    kind = ActionKind.PLAY


@dataclass(frozen=True, slots=True)
class Knock:
    """Pass: only when no tile in hand can be laid, in games without dead tiles."""

    kind = ActionKind.KNOCK


@dataclass(frozen=True, slots=True)
class Discard:
    """Put ``tile`` face down as a dead tile: only when stuck, in games with dead tiles."""

    tile: Tile

    kind = ActionKind.DISCARD


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the first tile of the stock: only when no tile in hand can be laid."""

    kind = ActionKind.DRAW


@dataclass(frozen=True, slots=True)
class Cut:
    """Kolbasa: lay ``tile`` across both level ribbon ends and give the ``give`` ribbon to the
    previous player."""

    tile: Tile
    give: End

    kind = ActionKind.CUT


Action = Play | Knock | Discard | Draw | Cut

KNOCK = Knock()
DRAW = Draw()


def check_form(seat: object, action: object) -> None:
    """Refuse, as bad input, a seat or an action that is not made of the right values (a
    ``True`` seat is a 1 to Python, and a match holding it could not be read back), before
    any rule looks at it."""
    if type(seat) is not int:
        raise BadInputError(f"a seat is a whole number, not {shown(seat)}")
    kind = type(action)
    if kind is Play:
        play: Play = action  # type: ignore[assignment]
        _check_value(play.tile, Tile, "a tile")
        _check_value(play.end, End, "an end", optional=True)
        if play.left_half is not None and type(play.left_half) is not int:
            raise BadInputError(f"a half is a whole number, not {shown(play.left_half)}")
        _check_value(play.cross, bool, "along or across", optional=True)
    elif kind is Discard:
        _check_value(action.tile, Tile, "a tile")  # type: ignore[attr-defined]
    elif kind is Cut:
        _check_value(action.tile, Tile, "a tile")  # type: ignore[attr-defined]
        _check_value(action.give, End, "a ribbon")  # type: ignore[attr-defined]
    elif kind is not Knock and kind is not Draw:
        raise BadInputError(f"not an action: {shown(action)}")


def _check_value(value: object, kind: type, what: str, optional: bool = False) -> None:
    if (value is None and not optional) or (value is not None and type(value) is not kind):
        raise BadInputError(f"expected {what}, not {shown(value)}")


class Move(NamedTuple):
    """An action together with the seat that made it: one entry of a hand's log."""

    seat: int
    action: Action
