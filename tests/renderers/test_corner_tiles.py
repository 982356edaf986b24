"""Only a double or a matador stands across the line: a plain tile at a corner of the line is
laid along it (entered through its end), so that it never reads as a double laid across. Read
from the layout: a tile is across where the tile before it (towards the lead) lies beside one
of its long sides (a tile lying across the turn beneath a double's corner is itself a double,
and is not counted: rows lie level)."""

from __future__ import annotations

import pytest

from engine import TableView
from goldens.samples import Sample, tables
from renderers.board import across
from renderers.snake import Snake, Spot, lead_index, stands
from renderers.table import line_layout

Box = tuple[int, int, int, int]


def _standing_across(spot: Spot, before: Box) -> bool:
    """Whether a standing tile (the rows lie level) is entered from beside one of its long
    sides rather than through its end: it then stands across the line's way."""
    return spot.vertical and (before[2] <= spot.box[0] or before[0] >= spot.box[2])


def _across(laid: Snake, lead: int) -> list[int]:
    """The indices of the tiles drawn crosswise to the line where they lie."""
    return [i for i, spot in enumerate(laid.spots) if i != lead and _standing_across(
        spot, laid.spots[i - 1 if i > lead else i + 1].box)]


def _view(sample: Sample) -> TableView:
    assert sample.table is not None
    return sample.table


def _crosswise(view: TableView) -> tuple[Snake, list[int]]:
    laid, _, _ = line_layout(view)
    return laid, _across(laid, lead_index(len(laid.spots), view.layout.center or 0))


LINES = [s for s in tables() if s.table is not None and s.table.layout.kind == "line"
         and len(s.table.layout.line) > 1]


@pytest.mark.parametrize("sample", LINES, ids=[s.name for s in LINES])
def test_only_doubles_and_matadors_stand_across_the_line(sample: Sample) -> None:
    view = _view(sample)
    laid, crosswise = _crosswise(view)
    wrong = [laid.spots[i].tile for i in crosswise if not stands(across(view), laid.spots[i].tile)]
    assert not wrong, (sample.name, wrong)


def test_the_samples_hold_corners_and_tiles_across() -> None:
    """The test above sees turns: long lines whose corners are plain tiles, and tiles across."""
    names = {s.name for s in LINES}
    assert {"table-pair-91", "table-double-9"} <= names
    turned = [s for s in LINES if line_layout(_view(s))[0].rows > 1]
    assert len(turned) >= 3
    assert any(_crosswise(_view(s))[1] for s in LINES)
