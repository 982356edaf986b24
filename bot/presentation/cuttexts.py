"""Kolbasa's cut as the players read it: which ribbon went to whom, named as the picture
draws it (the engine's left end the upper ribbon), how many tiles, and whether the taker moves
next; as the group, the cutter and the taker each read it (:mod:`.movetexts` tells the moves
around it)."""

from __future__ import annotations

from engine import End, PublicMove

from ..i18n import Translator


def describe_cut(t: Translator, move: PublicMove, name: str, taker: str,
                 last: bool = False, you: bool = False) -> str:
    """Kolbasa's cut (names already escaped): which ribbon went to whom, named as the picture
    draws it (the engine's left end the upper ribbon), and how many tiles; that the taker
    moves next, unless the cut was the cutter's last tile (``last``); with ``you``, as the
    cutter reads it."""
    assert move.tile is not None
    count, tile = len(move.taken), str(move.tile)
    if you:
        return _your_cut(t, move.end is End.LEFT, last, count, tile, taker)
    if last and move.end is End.LEFT:
        return t.plural("✂ {name} cut with {tile}: {taker} takes the upper ribbon, {count} "
                        "tile.",
                        "✂ {name} cut with {tile}: {taker} takes the upper ribbon, {count} "
                        "tiles.", count, name=name, tile=tile, taker=taker)
    if last:
        return t.plural("✂ {name} cut with {tile}: {taker} takes the lower ribbon, {count} "
                        "tile.",
                        "✂ {name} cut with {tile}: {taker} takes the lower ribbon, {count} "
                        "tiles.", count, name=name, tile=tile, taker=taker)
    if move.end is End.LEFT:
        return t.plural(
            "✂ {name} cut with {tile}: {taker} takes the upper ribbon, {count} tile, and "
            "moves next.",
            "✂ {name} cut with {tile}: {taker} takes the upper ribbon, {count} tiles, and "
            "moves next.", count, name=name, tile=tile, taker=taker)
    return t.plural(
        "✂ {name} cut with {tile}: {taker} takes the lower ribbon, {count} tile, and "
        "moves next.",
        "✂ {name} cut with {tile}: {taker} takes the lower ribbon, {count} tiles, and "
        "moves next.", count, name=name, tile=tile, taker=taker)


def _your_cut(t: Translator, upper: bool, last: bool, count: int, tile: str,
              taker: str) -> str:
    """:func:`describe_cut`'s sentences as the cutter reads them (each a literal plural, so
    the catalogues find it)."""
    if last and upper:
        return t.plural("✂ You cut with {tile}: {taker} takes the upper ribbon, {count} tile.",
                        "✂ You cut with {tile}: {taker} takes the upper ribbon, {count} tiles.",
                        count, tile=tile, taker=taker)
    if last:
        return t.plural("✂ You cut with {tile}: {taker} takes the lower ribbon, {count} tile.",
                        "✂ You cut with {tile}: {taker} takes the lower ribbon, {count} tiles.",
                        count, tile=tile, taker=taker)
    if upper:
        return t.plural(
            "✂ You cut with {tile}: {taker} takes the upper ribbon, {count} tile, and moves "
            "next.",
            "✂ You cut with {tile}: {taker} takes the upper ribbon, {count} tiles, and moves "
            "next.", count, tile=tile, taker=taker)
    return t.plural(
        "✂ You cut with {tile}: {taker} takes the lower ribbon, {count} tile, and moves next.",
        "✂ You cut with {tile}: {taker} takes the lower ribbon, {count} tiles, and moves "
        "next.", count, tile=tile, taker=taker)


def describe_cut_to_taker(t: Translator, move: PublicMove, name: str) -> str:
    """The cut, in the private message of the player who takes the ribbon: which tiles
    they got (``name``, the cutter's, already escaped)."""
    assert move.tile is not None
    tiles = ", ".join(map(str, move.taken))
    if move.end is End.LEFT:
        return t("✂ {name} cut with {tile}: you take the upper ribbon: {tiles}.", name=name,
                 tile=str(move.tile), tiles=tiles)
    return t("✂ {name} cut with {tile}: you take the lower ribbon: {tiles}.", name=name,
             tile=str(move.tile), tiles=tiles)
