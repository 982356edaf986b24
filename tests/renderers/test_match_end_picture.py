"""The end of a match: the sides ranked (lowest first where points count against them), pairs
together, rating moves and a settlement with their signs; refused while the match is on."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import table_view
from goldens.positions import finished
from goldens.samples import Sample, names_for
from renderers import ViewMismatchError, render_match_end
from renderers.labels import ENGLISH
from renderers.matchend import ranked_sides
from renderers.seats import signed


def test_the_six_matador_match_end_settles_each_score_with_its_sign(
        by_name: dict[str, Sample], drawn_text: list[str]) -> None:
    view = by_name["match-end-six-matador-3"].table
    assert view is not None and view.settlement is not None
    assert min(view.scores) < 0  # a debt at the end
    render_match_end(view, names_for(3), rating_changes=(-9, 14, None))
    assert ENGLISH.settlement in drawn_text
    assert {signed(v) for v in view.settlement} <= set(drawn_text)
    assert {str(v) for v in view.scores} <= set(drawn_text)
    drawn_text.clear()
    muggins = by_name["match-end-muggins-2"].table
    assert muggins is not None and muggins.settlement is None
    render_match_end(muggins, names_for(2))
    assert ENGLISH.settlement not in drawn_text


def test_the_match_end_ranks_sides_lowest_first_in_penalty_games() -> None:
    french = table_view(finished("french", 5, 3, 40))
    places = ranked_sides(french)
    scores = [french.scores[side] for _, side in places]
    assert scores == sorted(scores)
    assert places[0][1] == french.match_winner
    pair = table_view(finished("pair", 4, 2, 60))
    scores = [pair.scores[side] for _, side in ranked_sides(pair)]
    assert scores == sorted(scores, reverse=True)


def test_the_match_end_shows_pairs_together_and_rating_moves(drawn_text: list[str]) -> None:
    pair = table_view(finished("pair", 4, 2, 60))
    names = ("Ann", "Bo", "Cy", "Di")
    render_match_end(pair, names, rating_changes=(12, -8, None, 0))
    assert {"+12", "-8", "0"} <= set(drawn_text) and "None" not in drawn_text
    for seats in pair.sides:
        assert len(seats) == 2
    assert drawn_text.count(str(pair.scores[0])) >= 1 and ENGLISH.rating in drawn_text


def test_the_match_end_refuses_a_match_still_on() -> None:
    pair = table_view(finished("pair", 4, 2, 60))
    with pytest.raises(ViewMismatchError):
        render_match_end(replace(pair, match_over=False), names_for(4))
    with pytest.raises(ViewMismatchError):
        render_match_end(pair, names_for(4), rating_changes=(1, 2))


def test_a_replaced_person_has_a_row_of_their_own_with_their_change(
        by_name: dict[str, Sample], drawn_text: list[str]) -> None:
    """Below the sides, with no place and no score: the name, the note, the change."""
    view = by_name["match-end-pair"].table
    assert view is not None
    plain = render_match_end(view, names_for(4), rating_changes=(5, None, -5, -5))
    drawn_text.clear()
    png = render_match_end(view, names_for(4), rating_changes=(5, None, -5, -5),
                           replaced=(("Budi", "away: Rio played on", -40),))
    assert {"Budi", "away: Rio played on", "-40"} <= set(drawn_text)
    assert drawn_text.count("-40") == 1 and png != plain
