"""The values passed between a hand and its game's rules: who opens a hand, what the next
opening may depend on, how a hand ended and its score, and what the rules may read of a hand
in play.

They sit below both: a variant declares its rules over them without knowing the machinery
(:mod:`engine.hand`) that plays them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .events import Decision, HandEndReason, ScoreReason
from .tiles import Tile

Score = tuple[int, ScoreReason]  # points scored during play and why
NO_POINTS: tuple[Score, ...] = ()


@dataclass(frozen=True, slots=True)
class Opening:
    """Who acts first in a hand and what they may lead."""

    opener: int
    must_lead: tuple[Tile, ...] = ()  # empty: any tile (or the line is already started)
    turned_up: Tile | None = None  # a middle tile that starts the line, belonging to nobody


@dataclass(frozen=True, slots=True)
class PreviousHand:
    """What the next hand's opening may depend on."""

    opener: int
    winner_side: int | None
    winner_seat: int | None  # in games of one seat a side; None in partnership games


@dataclass(frozen=True, slots=True)
class HandScore:
    winner: int | None  # side; None for a drawn hand
    points: tuple[int, ...]  # per side
    # Why the winner won where the lowest total alone did not say (HandEnded.decision)
    decision: Decision | None = None


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a hand ended: everything a game's scoring reads."""

    reason: HandEndReason
    out_seat: int | None  # the seat that went out (None: blocked)
    totals: tuple[int, ...]  # per seat, the pips that count against it
    hands: Sequence[Sequence[Tile]]  # per seat, the tiles left in hand
    dead: Sequence[Sequence[Tile]] = ()  # per seat, its dead tiles (where the game has them)
    scored: tuple[int, ...] = ()  # per seat, the points scored in play (empty: none kept)


class HandState(Protocol):
    """What a game's rules read of a hand in play to say whether it has ended."""

    @property
    def masks(self) -> list[int]:
        """Each seat's tiles as a bit mask (:mod:`engine.masks`)."""

    @property
    def stock(self) -> tuple[Tile, ...]:
        """The stock in draw order, drawn tiles included."""

    @property
    def drawn(self) -> int:
        """How many tiles of the stock have been drawn."""

    @property
    def stock_left(self) -> int: ...

    @property
    def laid(self) -> bool:
        """Whether the layout holds a tile yet."""

    def lay_mask(self) -> int:
        """The tiles that could be laid somewhere now, as a bit mask."""
