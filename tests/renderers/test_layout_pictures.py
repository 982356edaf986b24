"""The layouts beyond a plain line on the table picture: a spinner's cross and a base's
ribbons lie inside the table with matching halves touching, every open end is marked with all
its numbers, the ends only a matador takes are told apart, and the status box, the stock and
the points in play are shown with their signs."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from typing import Any

import pytest
from picture_kit import laid_view
from PIL import Image, ImageDraw

import renderers.canvas
from engine import ActionKind, End, LayoutView, PublicMove, ScoreReason, TableView
from goldens.positions import long_tables
from goldens.samples import FOUND_TABLES, Sample, labels_for, names_for
from renderers import render_table
from renderers.arms import Figure, largest
from renderers.board import badge_words, end_colours, header_kind, status_lines
from renderers.labels import ENGLISH
from renderers.ribbons import arrow
from renderers.seats import signed
from renderers.snake import Spot
from renderers.table import LINE_AREA
from renderers.themes import CLASSIC

AREA_W, AREA_H = LINE_AREA[2] - LINE_AREA[0], LINE_AREA[3] - LINE_AREA[1]
Square = tuple[float, float, float, float]


def _tables_of(by_name: dict[str, Sample], kind: str) -> list[TableView]:
    """The sample tables whose layout is of ``kind``."""
    views = [by_name[f"table-{game}-{seats}"].table for game, seats, *_ in FOUND_TABLES]
    views += list(long_tables())
    return [v for v in views if v is not None and v.layout is not None
            and v.layout.kind == kind]


def _halves(spot: Spot) -> tuple[tuple[Square, int], tuple[Square, int]]:
    s = spot.side
    if spot.vertical:
        return ((spot.x, spot.y, spot.x + s, spot.y + s), spot.first), (
            (spot.x, spot.y + s, spot.x + s, spot.y + 2 * s), spot.second)
    return ((spot.x, spot.y, spot.x + s, spot.y + s), spot.first), (
        (spot.x + s, spot.y, spot.x + 2 * s, spot.y + s), spot.second)


def _distance(a: Square, b: Square) -> float:
    dx = max(0.0, a[0] - b[2], b[0] - a[2])
    dy = max(0.0, a[1] - b[3], b[1] - a[3])
    return dx + dy


def _centre_distance(a: Square, b: Square) -> float:
    return float(abs(a[0] + a[2] - b[0] - b[2]) + abs(a[1] + a[3] - b[1] - b[3]))


def _touching_number(spot: Spot, other: Spot) -> int:
    """The number of ``spot``'s half nearest to ``other``'s centre (centre to centre: a
    corner's halves may both touch a standing tile's edge, and a corner after a crosswise
    double meets the double's middle)."""
    x0, y0, x1, y1 = other.box
    return min(_halves(spot), key=lambda half: _centre_distance(half[0], (x0, y0, x1, y1)))[1]


def _arms(layout: LayoutView, figure: Figure) -> list[list[Spot]]:
    """The figure's spots as arms, each from the hub (or base) outwards."""
    hub = layout.spinner if layout.spinner is not None else layout.center or 0
    lengths = [hub, len(layout.line) - hub - 1]
    if layout.kind == "spinner" and any(e.end is End.UP for e in layout.ends):
        lengths += [len(layout.up), len(layout.down)]
    arms, index = [], 1
    for length in lengths:
        arms.append([figure.spots[0], *figure.spots[index : index + length]])
        index += length
    assert index == len(figure.spots)
    return arms


@pytest.mark.parametrize("kind", ["spinner", "ribbons"])
def test_every_tile_lies_inside_with_matching_halves_touching(by_name: dict[str, Sample],
                                                               kind: str) -> None:
    views = _tables_of(by_name, kind)
    assert len(views) >= 4
    for view in views:
        assert view.layout is not None
        figure = largest(view.layout, AREA_W, AREA_H)
        assert figure.fits, view.game
        laid = len(view.layout.line) + len(view.layout.up) + len(view.layout.down)
        assert len(figure.spots) == laid
        for arm in _arms(view.layout, figure):
            for before, after in pairwise(arm):
                gap = min(_distance(a[0], b[0]) for a in _halves(before)
                          for b in _halves(after))
                assert gap <= figure.side // 6, (view.game, after.tile)
                if before is not arm[0] or kind == "spinner":  # the base shows two numbers
                    assert _touching_number(before, after) == _touching_number(after, before)


def test_the_muggins_spinner_sits_in_the_middle_with_a_mark_on_every_arm(
        by_name: dict[str, Sample]) -> None:
    view = by_name["table-muggins-4"].table
    assert view is not None and view.layout is not None
    figure = largest(view.layout, AREA_W, AREA_H)
    hub = figure.spots[0]
    assert hub.vertical and hub.tile.is_double
    assert abs(hub.x + hub.side / 2 - AREA_W / 2) <= 1
    assert abs(hub.y + hub.side - AREA_H / 2) <= 1
    assert {m.end for m in figure.marks} == {End.LEFT, End.RIGHT, End.UP, End.DOWN}


def test_kolbasa_ribbons_keep_their_marks_on_their_own_side(by_name: dict[str, Sample]) -> None:
    for view in _tables_of(by_name, "ribbons"):
        assert view.layout is not None
        figure = largest(view.layout, AREA_W, AREA_H)
        base = figure.spots[0]
        marks = {m.end: m for m in figure.marks}
        middle = base.y + base.side
        assert marks[End.LEFT].y + figure.badge_radius <= middle
        assert marks[End.RIGHT].y - figure.badge_radius >= middle


def test_kolbasas_ribbons_are_named_upper_and_lower_as_they_lie(
        by_name: dict[str, Sample], monkeypatch: pytest.MonkeyPatch) -> None:
    """Player QA: the ribbons lie one above the other, both running right, yet the picture
    named them "◀ left" and "▶ right", and players looked for a ribbon running off to the
    left. Each is named with the caller's upper and lower words (the buttons' and captions'),
    the upper by the upper ribbon, beside a triangle pointing up or down as the buttons' ▲
    and ▼."""
    assert (ENGLISH.upper, ENGLISH.lower) == ("upper", "lower")
    drawn: dict[str, float] = {}
    original = renderers.canvas.letter

    def recording(draw: ImageDraw.ImageDraw, xy: tuple[float, float], words: str, size: int,
                  *args: Any, **kwargs: Any) -> None:
        drawn[words] = xy[1]
        original(draw, xy, words, size, *args, **kwargs)

    monkeypatch.setattr(renderers.canvas, "letter", recording)
    view = by_name["table-kolbasa-2"].table
    assert view is not None
    render_table(view, names_for(2), labels=replace(ENGLISH, upper="Upo", lower="Lowa"))
    assert drawn["Upo"] < drawn["Lowa"]
    assert not {"left", "right", ENGLISH.upper, ENGLISH.lower} & set(drawn)

    def opaque(sprite: Image.Image, row: int) -> int:
        alpha = sprite.getchannel("A")
        return sum(1 for x in range(sprite.width) if alpha.getpixel((x, row)))

    up, down = arrow(End.UP, (250, 200, 40)), arrow(End.DOWN, (250, 200, 40))
    assert opaque(up, 0) <= 2 < opaque(up, up.height - 1)  # a tip on top, its base below
    assert opaque(down, down.height - 1) <= 2 < opaque(down, 0)


def test_cut_off_tiles_and_a_closed_ribbon_are_drawn(by_name: dict[str, Sample],
                                                     drawn_text: list[str]) -> None:
    view = by_name["table-kolbasa-4"].table
    assert view is not None and view.layout is not None
    assert view.layout.off and not all(e.open for e in view.layout.ends)
    render_table(view, names_for(4))
    assert ENGLISH.cut_off in drawn_text
    assert ENGLISH.ribbon_waits in " ".join(drawn_text)  # the grey mark's legend (wrapped)
    assert (ENGLISH.ribbon_waits, "waits") in status_lines(view, ENGLISH)


def test_the_stock_is_counted_only_where_the_hand_has_one(by_name: dict[str, Sample],
                                                          drawn_text: list[str]) -> None:
    """Four Kolbasa players are dealt every tile: no "stock 0" all hand long."""
    four = by_name["table-kolbasa-4"].table
    assert four is not None and not four.stock_dealt
    render_table(four, names_for(4))
    assert ENGLISH.stock not in drawn_text
    drawn_text.clear()
    two = by_name["table-kolbasa-2"].table
    assert two is not None and two.stock_dealt
    render_table(two, names_for(2))
    assert ENGLISH.stock in drawn_text


def test_two_numbers_share_one_mark_and_the_legend_names_the_honours(
        by_name: dict[str, Sample], drawn_text: list[str]) -> None:
    view = by_name["table-french-5"].table
    assert view is not None and view.layout is not None
    two = next(e for e in view.layout.ends if len(e.numbers) == 2)
    render_table(view, names_for(5), labels=labels_for("french"))
    assert "|".join(map(str, two.numbers)) in drawn_text
    if any(e.only_matadors for e in view.layout.ends):
        assert "honour" in " ".join(drawn_text)


def test_bergen_headers_are_named(by_name: dict[str, Sample]) -> None:
    double = by_name["table-bergen-2"].table
    triple = by_name["table-bergen-3"].table
    assert double is not None and double.layout is not None
    assert triple is not None and triple.layout is not None
    assert header_kind(double) is ScoreReason.DOUBLE_HEADER
    assert header_kind(triple) is ScoreReason.TRIPLE_HEADER
    assert status_lines(double, ENGLISH) == [(ENGLISH.double_header, None)]
    assert status_lines(triple, ENGLISH) == [(ENGLISH.triple_header, None)]


def test_the_header_shown_is_the_engines_fact_about_the_latest_lay(
        by_name: dict[str, Sample]) -> None:
    """The picture names a header when the latest lay's points say one was scored, and
    nothing else: it never works the rule out from the ends again."""
    double = by_name["table-bergen-2"].table
    assert double is not None and double.layout is not None
    index = max(i for i, m in enumerate(double.history) if m.kind is ActionKind.PLAY)
    history = list(double.history)
    history[index] = replace(history[index], points=())  # ends still equal, nothing scored
    assert status_lines(replace(double, history=tuple(history)), ENGLISH) == []
    history[index] = replace(history[index], points=((3, ScoreReason.TRIPLE_HEADER),))
    assert status_lines(replace(double, history=tuple(history)), ENGLISH) == [
        (ENGLISH.triple_header, None)]
    later = (*double.history, PublicMove(0, ActionKind.KNOCK, None, None, double.ends))
    assert header_kind(replace(double, history=later)) is ScoreReason.DOUBLE_HEADER


def test_the_stock_and_the_points_in_play_are_shown_with_their_sign(
        by_name: dict[str, Sample], drawn_text: list[str]) -> None:
    view = by_name["table-six-matador-3"].table
    assert view is not None
    assert min(view.scored) < 0
    render_table(view, names_for(3))
    assert ENGLISH.stock in drawn_text and str(view.stock_count) in drawn_text
    assert ENGLISH.in_play in drawn_text
    for points in view.scored:
        assert signed(points) in drawn_text
    assert [signed(n) for n in (12, 0, -6)] == ["+12", "0", "-6"]


def test_the_muggins_count_is_on_the_table(by_name: dict[str, Sample],
                                           drawn_text: list[str]) -> None:
    view = by_name["table-muggins-2"].table
    assert view is not None and view.layout is not None
    render_table(view, names_for(2))
    assert ENGLISH.count in drawn_text and str(view.layout.count) in drawn_text


def test_the_muggins_marks_say_what_each_end_adds_to_the_count(drawn_text: list[str]) -> None:
    """The QA's "0, 6, 5, 5 beside count 10": a crosswise double's mark reads both halves it
    counts, an empty arm's mark is a ring the status box explains, and what the marks count
    adds up to the count shown."""
    view = laid_view("muggins", 2, ("0 5-5", "1 5-0 right"))
    layout = view.layout
    assert [badge_words(e, True) for e in layout.ends] == ["5+5", "0", "5", "5"]
    assert layout.count == 10 and sum(sum(e.counted) for e in layout.ends) == 10
    ringed = [e.end for e in layout.ends
              if end_colours(e, CLASSIC, True) != end_colours(layout.ends[0], CLASSIC, True)]
    assert ringed == [End.UP, End.DOWN]
    assert (ENGLISH.counts_nothing, "nothing") in status_lines(view, ENGLISH)
    render_table(view, names_for(2))
    assert "5+5" in drawn_text and ENGLISH.counts_nothing in drawn_text
    assert badge_words(layout.ends[0]) == "5"  # where the count does not score: the number
