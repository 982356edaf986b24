"""Readable on a phone: a chat shows a picture about 400 px wide, so no text on any picture is
drawn smaller than 32 px (at the 1280-px width every group picture has), and names and scores
are drawn larger still. Every font size the renderers ask for is recorded while drawing every
sample and a set of long translations, and checked against the floor."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import ImageDraw

from engine import player_view, table_view
from goldens.positions import played
from goldens.samples import Sample, names_for, render, samples, scoreboard_rows
from renderers import render_hand, render_hand_result, render_scoreboard, render_table
from renderers.backdrop import backdrop
from renderers.fonts import SMALLEST_TEXT
from renderers.labels import ENGLISH
from renderers.scoreboard import ScoreboardLabels
from renderers.seats import Seat, draw_seat
from renderers.table import slots
from renderers.themes import find_theme
from tests.renderers.test_labels_only_words import RUSSIAN

SAMPLES = samples()
GROUP_WIDTH = 1280
LARGER = 36  # names and scores


@pytest.mark.parametrize("sample", SAMPLES, ids=[sample.name for sample in SAMPLES])
def test_no_sample_draws_text_below_the_floor(sample: Sample,
                                              drawn_sizes: list[tuple[str, int]]) -> None:
    png = render(sample)
    assert drawn_sizes
    small = [(words, size) for words, size in drawn_sizes if size < SMALLEST_TEXT]
    assert small == [], sample.name
    if sample.kind != "hand":  # the group's pictures are all as wide as the table
        assert png[16:20] == GROUP_WIDTH.to_bytes(4, "big"), sample.name


def test_long_translations_are_cut_never_made_smaller(drawn_sizes: list[tuple[str, int]]) -> None:
    dead = played("gaple-dead", 5, 6, seed=4, options={"set": 9})
    render_table(table_view(dead), names_for(5), labels=RUSSIAN)
    longer = replace(RUSSIAN, tiles="костяшек на руке", dead="мёртвые кости",
                     penalty="штрафные очки", to_move="сейчас ходит", knock="стук")
    render_table(table_view(dead), names_for(5), labels=longer)
    render_table(table_view(played("pair", 4, 9, seed=3)), names_for(4), labels=longer)
    over = table_view(played("gaple-dead", 5, 0, seed=8, until_over=True))
    render_hand_result(over, names_for(5), labels=longer)
    seat = dead.to_move
    assert seat is not None
    render_hand(player_view(dead, seat), labels=longer)
    board = ScoreboardLabels(played="сыграно матчей", win_rate="доля побед", streak="серия")
    render_scoreboard(scoreboard_rows(), title="Таблица", labels=board)
    assert min(size for _, size in drawn_sizes) >= SMALLEST_TEXT


def test_names_and_scores_are_drawn_larger(drawn_sizes: list[tuple[str, int]]) -> None:
    palette = find_theme("classic")
    canvas = backdrop(palette.name, 1280, 960).copy()
    seat = Seat("Þórdís", None, tiles=6, dead=3, score=987, knocked=False, to_move=True)
    draw_seat(canvas, ImageDraw.Draw(canvas), slots(5)[1], seat, palette, ENGLISH, "score")
    sizes = dict(drawn_sizes)
    assert sizes["Þórdís"] >= LARGER and sizes["987"] >= LARGER
    drawn_sizes.clear()
    over = table_view(played("pair", 4, 0, seed=5, until_over=True))
    render_hand_result(over, names_for(4))
    assert over.result is not None
    sizes = dict(drawn_sizes)
    for total in over.result.totals:
        assert sizes[str(total)] >= LARGER
    assert sizes[names_for(4)[1]] >= LARGER
