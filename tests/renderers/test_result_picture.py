"""The end of a hand: every hand laid open with its total where the pips count, dead tiles
face up, the winner marked, the points (a plain 0 for none) and the match score."""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any

import pytest
from picture_kit import laid_view
from PIL import Image

from bot.presentation.pictures import labels_for
from engine import TableView, Tile, table_view
from goldens.positions import played
from goldens.samples import Sample, names_for
from renderers import ViewMismatchError, render_hand_result
from renderers.backdrop import HEADER, MARGIN
from renderers.canvas import face_up
from renderers.labels import ENGLISH
from renderers.result import PAD, ROW_H, TOTAL_W, draw_hand_result
from renderers.sprites import Look
from renderers.themes import THEMES, find_theme


def _finished(game: str, seats: int, seed: int) -> TableView:
    return table_view(played(game, seats, 0, seed=seed, until_over=True))


@pytest.fixture
def laid(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Tile, Look]]:
    """Every face-up tile the result picture lays, with its look."""
    seen: list[tuple[Tile, Look]] = []

    def recording(canvas: Any, palette: Any, x: float, y: float, first: int, second: int,
                  *args: Any, **kwargs: Any) -> None:
        seen.append((Tile(first, second), args[2] if len(args) > 2 else Look.PLAIN))
        face_up(canvas, palette, x, y, first, second, *args, **kwargs)

    monkeypatch.setattr("renderers.result.face_up", recording)
    return seen


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize(("game", "seats"), [("gaple", 4), ("gaple-dead", 4), ("gaple-dead", 5),
                                              ("pair", 4)])
def test_every_game_has_a_result_picture(game: str, seats: int, theme: str) -> None:
    png = render_hand_result(_finished(game, seats, 8), names_for(seats), theme=theme)
    with Image.open(io.BytesIO(png)) as image:
        assert image.width == 1280 and image.height <= image.width
    assert len(png) <= 100_000


def test_every_hand_and_dead_tile_is_laid_open(laid: list[tuple[Tile, Look]]) -> None:
    view = _finished("gaple-dead", 5, 8)
    assert view.revealed_hands is not None and view.revealed_dead is not None
    draw_hand_result(view, names_for(5), find_theme("classic"), ENGLISH)
    hands = [(t, Look.PLAIN) for hand in view.revealed_hands for t in hand]
    dead = [(t, Look.DEAD) for gone in view.revealed_dead for t in gone]
    assert dead, "the sample should have dead tiles"
    assert sorted(laid, key=str) == sorted(hands + dead, key=str)


def test_totals_points_and_scores_are_written(drawn_text: list[str]) -> None:
    view = _finished("pair", 4, 5)
    assert view.result is not None
    draw_hand_result(view, names_for(4), find_theme("classic"), ENGLISH)
    for total in view.result.totals:
        assert str(total) in drawn_text
    for points, score in zip(view.result.points, view.result.scores, strict=True):
        assert (f"+{points}" if points else "0") in drawn_text and str(score) in drawn_text
    assert ENGLISH.winner in drawn_text and ENGLISH.points in drawn_text


@pytest.mark.parametrize("theme", THEMES)
def test_the_winning_side_is_framed(theme: str) -> None:
    view = _finished("pair", 4, 5)
    assert view.result is not None and view.result.winner is not None
    palette = find_theme(theme)
    image = draw_hand_result(view, names_for(4), palette, ENGLISH)
    for player in view.players:
        top = HEADER + PAD + player.seat * ROW_H
        edge = image.getpixel((MARGIN + 12 + 1, top + ROW_H // 2))
        assert (edge == palette.winner) == (player.side == view.result.winner)


def test_a_drawn_hand_says_so_and_the_last_hand_its_own_verdict(drawn_text: list[str]) -> None:
    """The last hand's picture says how the hand ended, not "match won": above another
    seat's "winner" that read as that seat winning the match (Icelandic QA: Bergen's last
    hand went out by one player, the match to another); the match's picture says who won."""
    view = _finished("gaple", 4, 8)
    assert view.result is not None
    drawn = replace(view, result=replace(view.result, winner=None))
    draw_hand_result(drawn, names_for(4), find_theme("dark"), ENGLISH)
    assert ENGLISH.draw in drawn_text and ENGLISH.winner not in drawn_text
    for match_winner in (0, 1):
        drawn_text.clear()
        won = replace(view, match_over=True, match_winner=match_winner)
        draw_hand_result(won, names_for(4), find_theme("dark"), ENGLISH)
        assert ENGLISH.match_won not in drawn_text and ENGLISH.winner in drawn_text


def test_a_hand_still_being_played_has_no_result_picture() -> None:
    with pytest.raises(ViewMismatchError):
        render_hand_result(table_view(played("pair", 4, 3)), names_for(4))


def test_a_side_that_scored_nothing_shows_a_plain_zero(
        by_name: dict[str, Sample], drawn_text: list[str]) -> None:
    sample = by_name["result-pair"]  # the losing pair scored nothing this hand
    assert sample.table is not None and 0 in sample.table.result.points  # type: ignore[union-attr]
    draw_hand_result(sample.table, sample.names, find_theme(sample.theme), ENGLISH)
    assert "+0" not in drawn_text and "0" in drawn_text


def test_the_pips_in_hand_are_totalled_only_where_they_count(
        by_name: dict[str, Sample], drawn_text: list[str]) -> None:
    """Six-matador's hand is decided by the points of play alone: no pip totals beside the
    hands (a real group asked what they were for); gaple's pips are the points."""
    six = by_name["result-six-matador-3"]
    assert six.table is not None
    draw_hand_result(six.table, six.names, find_theme(six.theme), ENGLISH)
    assert ENGLISH.total not in drawn_text
    pair = by_name["result-pair"]
    assert pair.table is not None
    draw_hand_result(pair.table, pair.names, find_theme(pair.theme), ENGLISH)
    assert drawn_text.count(ENGLISH.total) == 4


# Muggins for two: seat 0 leads 0-1 and goes out with its seventh tile, 3-5, on the right.
OUT = ("0 0-1", "1 1-2 right", "0 2-3 right", "1 3-4 right", "0 4-5 right", "1 5-6 right",
       "0 6-0 right", "1 0-2 right", "0 2-4 right", "1 4-6 right", "0 6-1 right",
       "1 1-3 right", "0 3-5 right")


def test_the_went_out_badge_takes_the_width_its_word_needs(drawn_text: list[str]) -> None:
    """Russian's "без костяшек" was cut to "без костя…" beside "победа", with the row empty
    to its right (tester5 F16): a seat that went out holds no tiles there."""
    view = laid_view("muggins", 2, OUT)
    assert view.result is not None and view.result.out_seat == 0
    assert view.revealed_hands is not None and not view.revealed_hands[0]
    labels = replace(ENGLISH, winner="победа", went_out="без костяшек")
    render_hand_result(view, names_for(2), labels=labels)
    assert "победа" in drawn_text and "без костяшек" in drawn_text


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_winner_who_went_out_with_dead_tiles_has_both_pills_whole(
        language: str, drawn_text: list[str]) -> None:
    """A gaple-dead seat that went out (nothing in hand) after laying a tile face down: its
    dead tile used to start where the hand's tiles do, and "went out" after "winner" was cut
    to "went o…" (an English demo; Russian's "без костяшек" is longer still)."""
    for seed in range(1, 200):
        view = _finished("gaple-dead", 5, seed)
        ended = view.result
        assert ended is not None and view.revealed_dead is not None
        if ended.out_seat is not None and ended.winner == view.players[ended.out_seat].side \
                and view.revealed_dead[ended.out_seat]:
            break
    else:
        pytest.fail("no winner who went out with a dead tile")
    labels = labels_for(language, "gaple-dead")
    draw_hand_result(view, names_for(5), find_theme("classic"), labels)
    assert labels.winner in drawn_text and labels.went_out in drawn_text


def test_a_long_hand_stays_clear_of_its_total(monkeypatch: pytest.MonkeyPatch) -> None:
    """A two-player French hand can end with 20 tiles in one hand: laid in one row of
    full-size tiles they ran over the row's total and out of the picture (a Russian
    rendering). They shrink, in two rows, to the room before the total."""
    spots: list[tuple[float, float, int]] = []

    def recording(canvas: Any, palette: Any, x: float, y: float, first: int, second: int,
                  side: int, *args: Any, **kwargs: Any) -> None:
        spots.append((x, y, side))
        face_up(canvas, palette, x, y, first, second, side, *args, **kwargs)

    monkeypatch.setattr("renderers.result.face_up", recording)
    view = _finished("french", 2, 37)
    assert view.revealed_hands is not None and max(map(len, view.revealed_hands)) == 20
    draw_hand_result(view, names_for(2), find_theme("classic"), ENGLISH)
    right = 1280 - MARGIN - 12 - PAD - TOTAL_W  # where the total's words may start
    assert max(x + side for x, _, side in spots) <= right
    assert min(side for _, _, side in spots) >= 26  # still tiles a phone shows
    assert all(any(HEADER + PAD + row * ROW_H <= y and y + 2 * side <= HEADER + PAD
                   + (row + 1) * ROW_H - 10 for row in range(2)) for _, y, side in spots)
