"""Sets of tiles as bit masks: one bit a tile (its ``index`` in the double-12 set), so that
"which of these tiles fit" is one AND. The lowest floor of the machinery: variants declare
their matching rules with these masks, and the hand plays them."""

from __future__ import annotations

from operator import attrgetter

from .tiles import MAX_PIPS, Tile, full_set

__all__ = ["EVERY_TILE", "SHOWS", "TILE_AT", "mask_of", "tiles_of"]

_ALL = full_set(MAX_PIPS)
TILE_AT: tuple[Tile, ...] = tuple(sorted(_ALL, key=lambda t: t.index))
SHOWS: tuple[int, ...] = tuple(
    sum(1 << t.index for t in _ALL if t.shows(n)) for n in range(MAX_PIPS + 1)
)
EVERY_TILE = sum(t.bit for t in _ALL)  # the mask of the whole double-12 set

_BIT = attrgetter("bit")


def mask_of(tiles: tuple[Tile, ...] | list[Tile]) -> int:
    return sum(map(_BIT, tiles))  # tiles are distinct, so the sum is the OR


def tiles_of(mask: int) -> list[Tile]:
    """The tiles of ``mask`` in set order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(TILE_AT[low.bit_length() - 1])
        mask ^= low
    return out
