"""engine.lay_outcome: what a lay would leave, tried on a fork (the hand untouched)."""

from __future__ import annotations

import pytest
from stock_kit import sdeal, splay, sstarted

from engine import (
    Cut,
    End,
    NotYourTurnError,
    Play,
    Tile,
    TileDoesNotFitError,
    lay_outcome,
    player_view,
    table_view,
)


def test_a_matador_along_leaves_its_number_across_both_halves_and_its_points() -> None:
    match = sstarted("matador", sdeal("1-2 0-1 0-2 0-3 0-4 0-5", "1-6 2-2 2-3 3-3 4-4 5-5"),
                     matador_points=True)
    splay(match, "0 1-2")
    before = table_view(match)
    along = lay_outcome(match, 1, Play(Tile(1, 6), End.LEFT, None, False))
    across = lay_outcome(match, 1, Play(Tile(1, 6), End.LEFT, None, True))
    assert along.end(End.LEFT) is not None and across.end(End.LEFT) is not None
    assert (along.end(End.LEFT).numbers, along.points) == ((1,), 0)  # type: ignore[union-attr]
    assert (across.end(End.LEFT).numbers, across.points) == ((1, 6), 10)  # type: ignore[union-attr]
    assert not along.plays_alike(across)
    assert table_view(match) == before  # tried on a fork
    assert player_view(match, 1).legal == player_view(match, 1).legal


def test_muggins_doubles_across_count_twice_but_a_blank_double_plays_alike_both_ways() -> None:
    match = sstarted("muggins", sdeal("5-5 0-0 4-4 3-5 1-2 1-3 1-6",
                                      "0-5 4-5 2-2 2-3 2-4 3-3 0-6"))
    splay(match, "0 5-5", "1 4-5 right", "0 3-5 up", "1 0-5 left")  # left 0, right 4, up 3
    along = lay_outcome(match, 0, Play(Tile(0, 0), End.LEFT, None, False))
    across = lay_outcome(match, 0, Play(Tile(0, 0), End.LEFT, None, True))
    assert along.plays_alike(across)  # 0 and 0-0 both count nothing
    assert along.layout.count == across.layout.count == table_view(match).layout.count
    four_along = lay_outcome(match, 0, Play(Tile(4, 4), End.RIGHT, None, False))
    four_across = lay_outcome(match, 0, Play(Tile(4, 4), End.RIGHT, None, True))
    assert four_across.layout.count - four_along.layout.count == 4  # 4-4 counts 8, not 4
    assert not four_along.plays_alike(four_across)


def test_a_kolbasa_cut_leaves_the_same_ends_whichever_ribbon_it_gives() -> None:
    match = sstarted("kolbasa", sdeal("1-1 1-4 0-0 0-2 0-5 0-6 2-2",
                                      "1-3 3-4 2-5 2-6 5-5 5-6 6-6"))
    splay(match, "0 1-1", "1 1-3 left", "0 1-4 right")
    upper = lay_outcome(match, 1, Cut(Tile(3, 4), End.LEFT))
    lower = lay_outcome(match, 1, Cut(Tile(3, 4), End.RIGHT))
    assert (upper.taken, lower.taken) == ((Tile(1, 3),), (Tile(1, 4),))
    assert [e.numbers for e in upper.layout.ends] == [e.numbers for e in lower.layout.ends] \
        == [(3,), (4,)]
    assert not upper.plays_alike(lower)  # the tiles handed over differ
    assert Tile(1, 3) not in match.hand.hands[0]  # tried on a fork: nobody took a tile


def test_only_a_legal_lay_of_the_seat_to_move_is_tried_and_refused_as_a_move_is() -> None:
    match = sstarted("muggins", sdeal("5-5 0-0 4-4 3-5 1-2 1-3 1-6",
                                      "0-5 4-5 2-2 2-3 2-4 3-3 0-6"))
    splay(match, "0 5-5")
    with pytest.raises(NotYourTurnError):
        lay_outcome(match, 0, Play(Tile(0, 0), End.LEFT))
    with pytest.raises(TileDoesNotFitError):
        lay_outcome(match, 1, Play(Tile(2, 2), End.LEFT))
