"""engine.lay_outcome: what a lay would leave, tried on a fork (the hand untouched)."""

from __future__ import annotations

import pytest
from stock_kit import sdeal, splay, sstarted

from engine import (
    Cut,
    Deal,
    End,
    HandEndReason,
    Match,
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


# Gaple, four seats: seat 3's last tile is 0-1 with the ends 1 and 0 ("gaple!" either way).
GAPLE_LAST = sdeal("0-2 5-5 2-5 0-5 0-0 3-6 1-2", "1-3 4-4 1-5 4-5 2-6 2-4 3-5",
                   "0-4 3-4 1-6 5-6 0-3 2-3 3-3", "0-6 2-2 1-4 4-6 1-1 0-1 6-6", lot=2)
GAPLE_MOVES = (
    "3 6-6", "0 3-6 left", "1 2-6 right", "2 2-3 left", "3 2-2 left", "0 0-2 left",
    "1 2-4 right", "2 0-3 left", "3 1-4 right", "0 1-2 right", "1 1-3 left", "2 1-6 left",
    "3 4-6 left", "0 2-5 right", "1 3-5 right", "2 3-4 right", "1 4-5 left", "2 0-4 right",
    "3 0-6 right", "0 5-5 left", "1 1-5 left", "2 5-6 right", "3 1-1 left", "0 0-5 right")


def automated(game: str, the_deal: Deal) -> Match:
    """A match whose knocks and draws nobody decides are played (as the bot's are)."""
    match = Match(game, the_deal.seats, automate=True)
    match.start_hand(the_deal)
    return match


def test_a_last_tile_going_out_at_either_end_ends_the_hand_alike() -> None:
    """Player QA (Gaple): a last tile fitting both ends ends the hand either way, with the
    same result: the outcomes say so, though the line they leave differs."""
    match = automated("gaple", GAPLE_LAST)
    splay(match, *GAPLE_MOVES)
    assert [e.numbers for e in table_view(match).layout.ends] == [(1,), (0,)]
    left = lay_outcome(match, 3, Play(Tile(0, 1), End.LEFT))
    right = lay_outcome(match, 3, Play(Tile(0, 1), End.RIGHT))
    assert left.over and right.over and left.ended is not None
    assert (left.ended.reason, left.ended.out_seat, left.ended.by_play) == (
        HandEndReason.OUT, 3, True)
    assert left.ends_alike(right) and right.ends_alike(left)
    assert not left.plays_alike(right)  # the ends left differ: 0 and 0, or 1 and 1
    assert not match.hand.over  # tried on a fork


def test_a_matador_player_going_out_does_not_end_the_hand_so_the_end_still_matters() -> None:
    """Matador: a seat laying its last tile is skipped and the hand goes on (RULES.md), so
    the end it leaves is the others' to play on: not alike."""
    match = automated("matador", sdeal("5-5 6-6 3-4 2-4 1-4 2-6", "0-1 1-1 1-3 3-3 1-6 0-6",
                                       stock="1-2 0-2 0-3 0-4 4-5 2-5 2-3 4-6 4-4 5-6 2-2",
                                       lot=1))
    splay(match, "1 3-3", "0 3-4 right cross", "1 1-3 right along", "0 6-6 right along",
          "1 1-1 right along", "0 2-4 left along", "1 0-6 right along", "0 5-5 left along",
          "1 1-6 right cross", "0 2-6 left along")
    assert match.hand.hands[1] == [Tile(0, 1)]
    left = lay_outcome(match, 1, Play(Tile(0, 1), End.LEFT, None, False))
    right = lay_outcome(match, 1, Play(Tile(0, 1), End.RIGHT, None, False))
    assert not left.over and not right.over
    assert not left.ends_alike(right)


def test_muggins_going_out_at_ends_that_count_differently_ends_unlike() -> None:
    """Muggins: going out ends the hand, but each end leaves its own count, so the points
    (and the result) differ."""
    match = automated("muggins", sdeal("2-6 1-1 5-5 2-5 0-5 1-3 0-0",
                                       "0-4 4-5 4-4 3-4 2-2 6-6 3-5",
                                       stock="5-6 2-3 1-2 3-3 1-6 1-4 2-4 0-3 3-6 0-2 1-5"))
    splay(match, "0 2-5", "1 3-5 right along", "0 1-3 right along", "1 2-2 left cross",
          "0 2-6 left along", "1 6-6 left cross", "0 1-1 right along", "1 5-6 left along",
          "0 5-5 left cross", "1 4-5 left along", "0 2-3 down along", "1 4-4 left cross",
          "0 1-2 up along", "1 3-4 down along", "0 1-6 right along")
    assert match.hand.hands[1] == [Tile(0, 4)]
    left = lay_outcome(match, 1, Play(Tile(0, 4), End.LEFT, None, False))
    down = lay_outcome(match, 1, Play(Tile(0, 4), End.DOWN, None, False))
    assert left.over and down.over
    assert left.layout.count != down.layout.count  # 4-4 across counted 8, the down arm 4
    assert not left.ends_alike(down)


def test_bergen_going_out_ends_the_hand_alike_unless_a_header_differs() -> None:
    """Bergen: going out ends the hand (2 points); a double header made at either end scores
    alike, but where one end makes a triple header (beside a double) the results differ."""
    alike = automated("bergen", sdeal("2-5 0-4 4-6 2-6 4-5 5-5", "2-2 0-5 0-1 0-6 4-4 1-6",
                                      stock="0-2 6-6 1-3 2-3 0-3 1-2 1-4 1-5 2-4 3-4 5-6"))
    splay(alike, "1 2-2", "0 2-6 left along", "1 0-6 left along", "0 2-5 right along",
          "1 0-5 right along", "0 0-4 left along", "1 4-4 left cross", "0 4-6 left along",
          "1 0-1 right along")
    left = lay_outcome(alike, 1, Play(Tile(1, 6), End.LEFT, None, False))
    right = lay_outcome(alike, 1, Play(Tile(1, 6), End.RIGHT, None, False))
    assert left.over and right.ends_alike(left)
    unlike = automated("bergen", sdeal("2-4 0-2 1-5 6-6 3-5 0-1", "0-3 4-6 4-5 3-6 1-1 0-4",
                                       stock="2-2 0-6 1-2 5-5 2-5 1-6 2-3 2-6 0-0 4-4 1-3"))
    splay(unlike, "1 1-1", "0 1-5 right along", "1 4-5 right along", "0 0-1 left along",
          "1 0-4 right along", "0 0-2 right along", "1 0-3 left along", "0 2-4 right along",
          "1 3-6 left along", "0 6-6 left cross")
    [last] = unlike.hand.hands[1]
    left = lay_outcome(unlike, 1, Play(last, End.LEFT, None, False))
    right = lay_outcome(unlike, 1, Play(last, End.RIGHT, None, False))
    assert left.over and right.over
    assert left.points != right.points and not left.ends_alike(right)
