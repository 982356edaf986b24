"""Where the pips sit on one half of a tile, for 0 to 12, as on real tiles.

Positions are in a unit square with the tile standing (its long side vertical); 1 to 9 use
the usual 3x3 grid, 10 to 12 a 3-column, 4-row grid that stays symmetric.
"""

from __future__ import annotations

Point = tuple[float, float]

_LO, _MID, _HI = 0.24, 0.5, 0.76
_ROWS4 = (0.17, 0.39, 0.61, 0.83)


def _columns(xs: tuple[float, ...], ys: tuple[float, ...]) -> tuple[Point, ...]:
    return tuple((x, y) for x in xs for y in ys)


_SIX = _columns((_LO, _HI), (_LO, _MID, _HI))
_FOUR_ROWS = _columns((_LO, _HI), _ROWS4)

PIP_LAYOUTS: tuple[tuple[Point, ...], ...] = (
    (),
    ((_MID, _MID),),
    ((_HI, _LO), (_LO, _HI)),
    ((_HI, _LO), (_MID, _MID), (_LO, _HI)),
    ((_LO, _LO), (_HI, _LO), (_LO, _HI), (_HI, _HI)),
    ((_LO, _LO), (_HI, _LO), (_MID, _MID), (_LO, _HI), (_HI, _HI)),
    _SIX,
    (*_SIX, (_MID, _MID)),
    (*_SIX, (_MID, _LO), (_MID, _HI)),
    (*_SIX, (_MID, _LO), (_MID, _MID), (_MID, _HI)),
    (*_FOUR_ROWS, (_MID, 0.28), (_MID, 0.72)),
    (*_FOUR_ROWS, (_MID, 0.2), (_MID, _MID), (_MID, 0.8)),
    _columns((_LO, _MID, _HI), _ROWS4),
)


def pip_radius(number: int) -> float:
    """A pip's radius as a fraction of the half's side: smaller where 10 or more must fit."""
    return 0.085 if number >= 10 else 0.1
