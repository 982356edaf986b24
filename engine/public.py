"""What the whole table sees of a hand's layout and moves, as frozen values.

Kept below :mod:`engine.views` so that each layout (the plain line, the board) can describe
itself in these terms: the views then ask a hand for its layout and its public moves and
never ask which layout it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import ActionKind
from .events import ScoreReason
from .tiles import End, Tile


@dataclass(frozen=True, slots=True)
class PublicMove:
    """A move as everybody saw it. ``tile`` is ``None`` for knocks and face-down discards.

    ``ends_before`` is what the seat faced: a knock or a discard there tells the table that the
    seat held neither number, which is what a counting player infers from.
    """

    seat: int
    kind: ActionKind
    tile: Tile | None
    end: End | None  # a play's end; for Kolbasa's cut, the ribbon given away
    ends_before: tuple[int, int] | None
    cross: bool | None = None  # the tile lies crosswise (None: where no tile ever does)
    left_half: int | None = None  # a lead: the half towards the left
    # What this move scored during play, and why (Six-matador: 1 and 5 for one lay; minus 6
    # for a knock), and for Kolbasa's cut the tiles the previous seat took (the ribbon given,
    # which lay face up on the table). The engine's facts, so that no caller works the rules
    # out again.
    points: tuple[tuple[int, ScoreReason], ...] = ()
    taken: tuple[Tile, ...] = ()

    @property
    def reasons(self) -> frozenset[ScoreReason]:
        return frozenset(why for _, why in self.points)


@dataclass(frozen=True, slots=True)
class LaidTile:
    """A tile as it lies: ``first`` and ``second`` as written (left half first in the line;
    inner half first on a spinner arm); ``cross``: crosswise (then low half first).

    ``joined``: the number of the tile before it (towards the lead; an arm's first tile: the
    spinner's) that it was laid against, where it lies along; ``None`` for the lead and for a
    tile laid crosswise (its middle lies against the tile before). After a crosswise tile,
    whose two numbers are open, it says which of them the tile joined (a picture turning the
    line there shows that number towards it).
    """

    tile: Tile
    first: int
    second: int
    cross: bool
    joined: int | None = None


@dataclass(frozen=True, slots=True)
class OpenEnd:
    """An end of the layout: the numbers a tile may join there (two at a crosswise matador),
    whether a tile may be laid there now (Kolbasa keeps its ribbons level), and whether only
    a matador may join it (no ordinary tile joins any of its numbers), and the halves it adds
    to the layout's count (both of a crosswise double; none for an empty spinner arm)."""

    end: End
    numbers: tuple[int, ...]
    open: bool
    tiles: int  # tiles in that arm or ribbon (for the line: since the lead)
    only_matadors: bool = False
    counted: tuple[int, ...] = ()  # their sum over the ends is ``LayoutView.count``


@dataclass(frozen=True, slots=True)
class LayoutView:
    """The tiles on the table, for every game: the line (Muggins' spinner and its arms,
    Kolbasa's base and ribbons), crosswise tiles, every open end, the tiles cut off."""

    kind: str  # "line", "spinner" or "ribbons"
    line: tuple[LaidTile, ...]  # left to right (Kolbasa: left ribbon, base, right ribbon)
    center: int | None  # index in ``line`` of the lead (Kolbasa: the base)
    spinner: int | None  # index in ``line`` of Muggins' spinner
    up: tuple[LaidTile, ...]  # from the spinner outward
    down: tuple[LaidTile, ...]
    ends: tuple[OpenEnd, ...]
    off: tuple[Tile, ...]  # Kolbasa: the tiles cut off, out of play
    count: int  # the open ends added up (Muggins scores it)
    # Whether a tile may ever lie crosswise in this game (matadors, a crosswise lead or
    # double): a line where none ever does is a plain line of equal numbers end to end.
    crosswise: bool = False
    # Whether the game scores the count (Muggins): then each end's part of it is shown.
    scores_count: bool = False

    @property
    def plain(self) -> bool:
        """A single line on which no tile ever lies crosswise."""
        return self.kind == "line" and not self.crosswise
