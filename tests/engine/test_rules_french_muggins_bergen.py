"""RULES.md, "french", "muggins" and "bergen": a test per clause."""

from __future__ import annotations

import pytest
from engine_kit import example, tiles
from stock_kit import saction, sdeal, splay, sstarted

from engine import (
    CrossRequiredError,
    DecidedBy,
    Decision,
    EndRequiredError,
    HandEndReason,
    Match,
    Play,
    PointsScored,
    ScoreReason,
    SpinnerOpened,
    Tile,
    table_view,
    variant,
)
from engine.conformance import answer
from engine.record import replay
from engine.seams import HandEnd, PreviousHand
from engine.tiles import End
from engine.variants.bergen import bergen_blocked_winner
from engine.variants.scoring import nearest_five

MUGGINS = ("5-5 5-0 0-0 1-2 2-6 3-4 6-6", "5-3 0-4 2-2 1-1 4-6 3-6 1-4")
BERGEN = ("2-2 2-3 5-5 0-1 0-2 0-3", "2-5 3-5 4-6 1-3 1-4 1-6")


def scored(events: list[object]) -> list[tuple[int, int, ScoreReason]]:
    return [(e.seat, e.points, e.why) for e in events if isinstance(e, PointsScored)]


# --- french ------------------------------------------------------------------------------
def test_french_two_to_five_players_five_tiles_each() -> None:
    for seats, stock in ((2, 18), (3, 13), (4, 8), (5, 3)):
        match = Match("french", seats)
        assert (match.hand_size, match.stock_size) == (5, stock)


def test_french_the_highest_tile_dealt_leads_higher_half_first_among_equals() -> None:
    match = sstarted("french", sdeal("5-5 0-1 0-2 0-3 0-4", "6-4 1-2 1-3 1-4 2-3"))
    assert match.hand.opener == 1 and match.hand.must_lead == (Tile(4, 6),)
    match = sstarted("french", sdeal("5-5 6-6 0-2 0-3 0-4", "6-4 1-2 1-3 1-4 2-3"))
    assert match.hand.must_lead == (Tile(6, 6),)


def test_french_joining_as_matador_with_honours() -> None:
    match = sstarted("french", sdeal("6-6 0-1 4-3 0-3 0-4", "6-4 1-2 1-3 1-4 2-3"))
    splay(match, "0 6-6", "1 1-2 right", "0 4-3 left cross")
    layout = table_view(match).layout
    assert layout is not None and [e.numbers for e in layout.ends] == [(3, 4), (2,)]


def test_french_out_only_once_the_stock_is_empty() -> None:
    got = answer(example("french_out_with_stock"))["hands"][0]
    assert got["reason"] == "out" and got["stock"] == 0 and got["held"][0] == 0


def test_french_blocked_when_no_tile_off_the_table_fits() -> None:
    got = answer(example("french_dead_layout"))["hands"][0]
    assert got["reason"] == "blocked" and got["stock"] > 0
    ended = replay(example("french_dead_layout")).match.hand.result  # type: ignore[union-attr]
    assert ended is not None and ended.nothing_fits and ended.stock_left  # the stock's no help
    muggins = replay(example("muggins_blocked")).match.hand.result  # type: ignore[union-attr]
    assert muggins is not None and not muggins.nothing_fits  # blocked: nobody can lay or draw


def test_french_penalty_points_are_each_seats_pips_lowest_wins() -> None:
    game = variant("french")
    options = game.options({}, 3)
    result = game.score(options, HandEnd(HandEndReason.BLOCKED, None, (9, 3, 12), [], []))
    assert result.winner == 1 and result.points == (9, 3, 12)
    tied = HandEnd(HandEndReason.BLOCKED, None, (3, 3, 12), [], [])
    assert game.score(options, tied).winner is None


# --- muggins -----------------------------------------------------------------------------
def test_muggins_deal_seven_for_two_five_for_three_or_four() -> None:
    for seats, size, stock in ((2, 7, 14), (3, 5, 13), (4, 5, 8)):
        match = Match("muggins", seats)
        assert (match.hand_size, match.stock_size) == (size, stock)


def test_muggins_lead_by_lot_then_the_previous_winner_then_the_previous_opener() -> None:
    game = variant("muggins")
    options = game.options({}, 2)
    deal = sdeal(*MUGGINS, lot=1)
    assert game.opening(options, deal, None).opener == 1
    assert game.opening(options, deal, PreviousHand(1, 0, 0)).opener == 0
    assert game.opening(options, deal, PreviousHand(1, None, None)).opener == 1


def test_muggins_the_first_double_is_the_spinner_with_four_ends_at_once() -> None:
    match = sstarted("muggins", sdeal(*MUGGINS))
    events = splay(match, "0 5-5")
    assert any(isinstance(e, SpinnerOpened) for e in events)
    ends = {a.end for a in match.legal_actions() if type(a) is Play and a.tile is Tile(3, 5)}
    assert ends == {End.LEFT, End.RIGHT, End.UP, End.DOWN}
    with pytest.raises(EndRequiredError):
        match.apply(*saction("1 5-3"))
    later = answer(example("muggins_spinner_later"))["hands"][0]
    assert later["spinner"] not in (None, 0)


def test_muggins_later_doubles_along_or_crosswise() -> None:
    match = sstarted("muggins", sdeal(*MUGGINS))
    splay(match, "0 5-5", "1 5-3 right", "0 5-0 up", "1 3-6 right")
    with pytest.raises(CrossRequiredError):
        match.apply(*saction("0 0-0 up"))
    splay(match, "0 0-0 up cross")
    layout = table_view(match).layout
    assert layout is not None and layout.up[-1].cross


def test_muggins_the_count_adds_the_open_ends() -> None:
    match = sstarted("muggins", sdeal(*MUGGINS))
    splay(match, "0 5-5")
    assert table_view(match).layout.count == 10  # type: ignore[union-attr]  # one tile: once
    splay(match, "1 5-3 right")
    assert table_view(match).layout.count == 13  # type: ignore[union-attr]  # spinner twice
    splay(match, "0 5-0 up", "1 3-6 right", "0 0-0 up cross")
    assert table_view(match).layout.count == 16  # type: ignore[union-attr]


def test_muggins_each_open_end_says_what_it_adds_to_the_count() -> None:
    """The view's ends add up to its count: an empty spinner arm adds nothing, a crosswise
    double at an end both halves, a lone lead each half once."""

    def parts() -> dict[End, tuple[int, ...]]:
        layout = table_view(match).layout
        assert layout.scores_count and sum(sum(e.counted) for e in layout.ends) == layout.count
        return {e.end: e.counted for e in layout.ends}

    match = sstarted("muggins", sdeal(*MUGGINS))
    splay(match, "0 5-5")
    assert parts() == {End.LEFT: (5,), End.RIGHT: (5,), End.UP: (), End.DOWN: ()}
    splay(match, "1 5-3 right")
    assert parts() == {End.LEFT: (5, 5), End.RIGHT: (3,), End.UP: (), End.DOWN: ()}
    splay(match, "0 5-0 up", "1 3-6 right", "0 0-0 up cross")
    assert parts() == {End.LEFT: (5, 5), End.RIGHT: (6,), End.UP: (0, 0), End.DOWN: ()}
    assert not table_view(sstarted("bergen", sdeal(*BERGEN))).layout.scores_count


def test_muggins_a_count_that_is_a_multiple_of_five_scores_the_count() -> None:
    match = sstarted("muggins", sdeal(*MUGGINS))
    events = splay(match, "0 5-5")
    assert scored(events) == [(0, 10, ScoreReason.FIFTEEN)]
    assert scored(splay(match, "1 5-3 right")) == []


def test_muggins_going_out_scores_ten_more() -> None:
    game = variant("muggins")
    result = game.score(game.options({}, 2), HandEnd(HandEndReason.OUT, 1, (14, 0), [], []))
    assert result.winner == 1 and result.points == (0, 10)


def test_muggins_blocked_lightest_scores_the_others_minus_its_own_rounded_to_five() -> None:
    assert [nearest_five(n) for n in (31, 32, 33, 34, 35)] == [30, 30, 35, 35, 35]
    game = variant("muggins")
    result = game.score(game.options({}, 4),
                        HandEnd(HandEndReason.BLOCKED, None, (10, 4, 18, 8), [], []))
    assert result.winner == 1 and result.points == (0, 30, 0, 0)
    assert answer(example("muggins_blocked"))["hands"][0]["points"][1] == 45


# --- bergen ------------------------------------------------------------------------------
def test_bergen_deal_and_stock() -> None:
    for seats, size, stock in ((2, 6, 16), (3, 6, 10), (4, 5, 8)):
        match = Match("bergen", seats)
        assert (match.hand_size, match.stock_size) == (size, stock)


def test_bergen_the_lowest_double_leads_and_scores_two() -> None:
    match = sstarted("bergen", sdeal(*BERGEN))
    assert match.hand.must_lead == (Tile(2, 2),)
    assert scored(splay(match, "0 2-2")) == [(0, 2, ScoreReason.DOUBLE_LEAD)]


def test_bergen_with_no_double_dealt_the_lowest_tile_leads() -> None:
    match = sstarted("bergen", sdeal("0-2 1-3 1-4 1-5 1-6 2-3", "0-3 0-4 2-4 2-5 2-6 3-4"))
    assert match.hand.must_lead == (Tile(0, 2),)
    assert scored(splay(match, "0 0-2")) == []


def test_bergen_every_double_lies_crosswise() -> None:
    match = sstarted("bergen", sdeal(*BERGEN))
    splay(match, "0 2-2", "1 2-5 left", "0 2-3 right", "1 3-5 right")
    assert {a.cross for a in match.legal_actions() if type(a) is Play and a.tile.is_double} == {
        True
    }


def test_bergen_double_and_triple_headers() -> None:
    match = sstarted("bergen", sdeal(*BERGEN))
    splay(match, "0 2-2", "1 2-5 left", "0 2-3 right")
    assert scored(splay(match, "1 3-5 right")) == [(1, 2, ScoreReason.DOUBLE_HEADER)]
    assert scored(splay(match, "0 5-5 left")) == [(0, 3, ScoreReason.TRIPLE_HEADER)]
    assert table_view(match).scored == (5, 2)


def test_bergen_going_out_scores_two() -> None:
    game = variant("bergen")
    result = game.score(game.options({}, 2), HandEnd(HandEndReason.OUT, 0, (0, 9), [], []))
    assert result.winner == 0 and result.points == (2, 0)


def test_bergen_blocked_two_points_to_the_lightest_without_a_double() -> None:
    hands = [tiles("1-2 5-5"), tiles("0-1"), tiles("6-6")]
    assert bergen_blocked_winner((13, 1, 12), hands) == 1
    assert bergen_blocked_winner((3, 3), [tiles("1-2"), tiles("0-3")]) is None
    all_doubles = [tiles("1-1 2-3"), tiles("0-0 6-5"), tiles("4-4")]
    assert bergen_blocked_winner((7, 11, 8), all_doubles) == 1
    assert answer(example("bergen_blocked_all_doubles"))["hands"][0]["winner"] == 1


def test_bergen_blocked_with_every_player_holding_a_double_names_the_lowest() -> None:
    """The hand's end says why its winner won (D20): the lowest double, not the pips."""
    ended = replay(example("bergen_blocked_all_doubles")).match
    assert ended is not None
    result = ended.hands[0].result
    assert result is not None and result.reason is HandEndReason.BLOCKED
    held = ended.hands[0].hands
    assert all(any(t.is_double for t in hand) for hand in held)
    lowest = min((t for h in held for t in h if t.is_double), key=lambda t: t.low)
    assert result.decision == Decision(DecidedBy.LOWEST_DOUBLE, (result.winner or 0,), (lowest,))
    assert lowest in held[result.winner or 0]
    game = variant("bergen")
    lighter = game.score(game.options({}, 3), HandEnd(
        HandEndReason.BLOCKED, None, (13, 1, 12),
        [tiles("1-2 5-5"), tiles("0-1"), tiles("6-6")], [[], [], []]))
    # Seat 1 is the only one holding no double.
    assert lighter.winner == 1
    assert lighter.decision == Decision(DecidedBy.NO_DOUBLE, (1,))
    # Seats 0 and 2 hold no double: seat 0's hand is the lighter of the two.
    two_plain = game.score(game.options({}, 3), HandEnd(
        HandEndReason.BLOCKED, None, (3, 13, 13),
        [tiles("1-2"), tiles("6-6 0-1"), tiles("5-6 0-2")], [[], [], []]))
    assert two_plain.winner == 0
    assert two_plain.decision == Decision(DecidedBy.NO_DOUBLE, (0, 2))
    # Seats 0 and 2, holding no double, level on 5 (seat 1 has 2 but holds 1-1): a drawn
    # hand, and the result says which seats tied.
    level = game.score(game.options({}, 3), HandEnd(
        HandEndReason.BLOCKED, None, (5, 2, 5),
        [tiles("1-4"), tiles("1-1"), tiles("2-3")], [[], [], []]))
    assert level.winner is None and level.points == (0, 0, 0)
    assert level.decision == Decision(DecidedBy.NO_DOUBLE, (0, 2))
