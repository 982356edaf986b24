"""A crosswise tile that is no double (French and Matador lay their matadors across, both
halves open) where the line turns: the half the next tile joined faces that tile, whether the
crosswise tile is the corner or lies across the turn beneath a corner (standing in a row, it
meets the tile after it, a plain corner too, with its middle). Read from the strokes a table's
layout lays (each tile's sprite and its box), for positions played through the engine and laid
in areas of many widths, so that the line turns at each of its tiles, in both branches and in
rows running both ways."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from picture_kit import laid_view
from PIL import Image

from engine import LaidTile, TableView, Tile
from renderers.board import draw_layout
from renderers.labels import ENGLISH
from renderers.strokes import recording
from renderers.themes import find_theme

Box = tuple[int, int, int, int]
HEIGHT = 2400  # tall enough for every row: the width alone decides where the line turns
WIDTHS = range(420, 1400, 12)

# Seat 0 leads 6-6 (the heaviest tile: French leads it). Crosswise: 1-6 and 2-5 one after the
# other on the right (a corner, and then a tile across the turn beneath it), 3-4 on the left;
# 4-5 joins the 2 of 2-5 (its low number), 2-3 the 4 of 3-4 (its high one).
FRENCH = ("0 6-6", "1 1-6 right cross", "2 2-5 right cross", "0 4-5 right",
          "1 3-4 left cross", "2 2-3 left", "0 3-5 right", "1 5-5 left", "2 2-6 right",
          "0 1-2 right", "1 2-2 left", "2 5-6 left", "0 1-4 left", "1 0-5 right",
          "2 0-0 right cross")
# The same far from the lead, where the line has turned before (rows running back): four
# seats, 1-6 and 2-5 the right arm's 7th and 8th tiles, 3-4 the left arm's 7th.
FRENCH_FAR = ("0 6-6", "1 1-5 right", "2 1-4 left", "3 2-4 right", "0 3-6 left", "1 3-3 right",
              "2 1-2 left", "3 4-4 right", "0 5-6 left", "1 3-5 right", "2 1-1 left",
              "3 2-6 right", "0 0-6 left", "1 1-6 right cross", "2 3-4 left cross",
              "3 2-5 right cross", "0 4-5 right", "1 2-3 left")
# Seat 0 leads by lot. Crosswise: 3-4 and 2-5 one after the other on the right, 1-6 on the
# left; 2-6 joins the 5 of 2-5 (high), 1-2 the 6 of 1-6 (high).
MATADOR = ("0 5-5", "1 3-4 right cross", "0 2-5 right cross", "1 2-6 right",
           "0 1-6 left cross", "1 1-2 left", "0 1-4 right", "1 4-5 left", "0 3-6 right",
           "1 3-3 left")

def _halves(name: tuple[object, ...], box: Box) -> tuple[tuple[int, Box], tuple[int, Box]]:
    """A tile sprite's halves as drawn, each number with its box (the shadow left out)."""
    _, first, second, side, vertical, *_ = name
    assert isinstance(first, int) and isinstance(second, int) and isinstance(side, int)
    x, y = box[0], box[1]
    if vertical:
        return (first, (x, y, x + side, y + side)), (second, (x, y + side, x + side, y + 2 * side))
    return (first, (x, y, x + side, y + side)), (second, (x + side, y, x + 2 * side, y + side))


def _drawn(view: TableView, width: int) -> dict[Tile, tuple[tuple[int, Box], ...]]:
    """Each laid tile's halves, from the strokes of the layout drawn ``width`` wide."""
    canvas = Image.new("RGB", (width, HEIGHT))
    with recording(canvas) as strokes:
        draw_layout(canvas, view, find_theme("classic"), ENGLISH, (0, 0, width, HEIGHT))
    out = {}
    for stroke in strokes:
        name = stroke.name
        if isinstance(name, tuple) and name and name[0] == "tile":
            halves = _halves(name, stroke.box)
            out[Tile(halves[0][0], halves[1][0])] = halves
    return out


def _distance(a: Box, b: Box) -> int:
    return max(b[0] - a[2], a[0] - b[2], 0) + max(b[1] - a[3], a[1] - b[3], 0)


def _joins(line: Sequence[LaidTile], lead: int) -> list[tuple[LaidTile, LaidTile]]:
    """Each crosswise tile that is no double with the tile after it (away from the lead)
    that joined one of its numbers."""
    pairs = [(line[i - 1], line[i]) for i in range(lead + 1, len(line))]
    pairs += [(line[i + 1], line[i]) for i in range(lead)]
    return [(cross, after) for cross, after in pairs if cross.cross
            and not cross.tile.is_double and after.joined is not None]


def _facing(view: TableView) -> Counter[str]:
    """At every width: for each crosswise tile whose halves are not equally near the tile
    after it (where the line turns), whether the nearer one is the number that tile joined
    ("right") or not ("wrong"), and how (the crosswise tile standing or lying)."""
    seen: Counter[str] = Counter()
    layout = view.layout
    assert layout.center is not None
    pairs = _joins(layout.line, layout.center)
    assert len(pairs) == 2
    for width in WIDTHS:
        drawn = _drawn(view, width)
        for cross, after in pairs:
            halves = drawn[cross.tile]
            near = [min(_distance(box, other) for _, other in drawn[after.tile])
                    for _, box in halves]
            if near[0] == near[1]:
                continue  # the tile after it meets its middle: the line runs straight on
            facing = halves[0][0] if near[0] < near[1] else halves[1][0]
            # Lying: across the turn, beneath a corner; standing: the corner (a crosswise
            # tile standing in a row meets a plain corner after it with its middle too).
            way = "across the turn" if halves[0][1][0] != halves[1][1][0] else "corner"
            seen[f"{way} {'right' if facing == after.joined else 'wrong'}"] += 1
    return seen


@pytest.mark.parametrize("game, seats, moves", [
    ("french", 3, FRENCH), ("french", 4, FRENCH_FAR), ("matador", 2, MATADOR)])
def test_the_half_the_next_tile_joined_faces_it_where_the_line_turns(
        game: str, seats: int, moves: tuple[str, ...]) -> None:
    seen = _facing(laid_view(game, seats, moves))
    assert not any(what.endswith("wrong") for what in seen), seen
    assert seen["corner right"] >= 10 and seen["across the turn right"] >= 10, seen


def test_the_engine_says_which_number_of_a_crosswise_tile_each_tile_joined() -> None:
    line = laid_view("french", 3, FRENCH).layout.line
    assert [(str(t.tile), t.joined) for t in line] == [
        ("1-4", 6), ("5-6", 2), ("2-2", 5), ("5-5", 2), ("2-3", 4), ("3-4", None),
        ("6-6", None), ("1-6", None), ("2-5", None), ("4-5", 2), ("3-5", 4), ("2-6", 5),
        ("1-2", 6), ("0-5", 2), ("0-0", None)]
