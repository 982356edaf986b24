"""What a seat can do on its turn, as frozen values.

A whole hand is its deal plus a list of these (with the seat that made each), so they are
small, hashable and eval-able from their ``repr``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

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


class Move(NamedTuple):
    """An action together with the seat that made it: one entry of a hand's log."""

    seat: int
    action: Action
