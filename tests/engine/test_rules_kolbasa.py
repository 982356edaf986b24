"""RULES.md, "kolbasa": a test per clause."""

from __future__ import annotations

import pytest
from engine_kit import example
from stock_kit import held, saction, sdeal, splay, sstarted

from engine import (
    KNOCK,
    BadInputError,
    Cut,
    CutNotAllowedError,
    HandEndReason,
    Match,
    PieceCut,
    Tile,
    TileDoesNotFitError,
    table_view,
    variant,
)
from engine.conformance import answer
from engine.seams import HandEnd, PreviousHand
from engine.tiles import End

KOLBASA = ("1-1 1-2 1-3 2-4 5-5 0-0 4-6", "1-4 1-5 2-3 3-5 0-6 2-6 3-6")


def test_players_two_to_four_seven_tiles_each_and_the_stock() -> None:
    for seats, stock in ((2, 14), (3, 7), (4, 0)):
        match = Match("kolbasa", seats)
        assert match.hand_size == 7 and match.stock_size == stock
    with pytest.raises(BadInputError):
        Match("kolbasa", 5)


def test_first_lead_is_one_one_then_the_next_double_up_and_blank_double_last() -> None:
    assert sstarted("kolbasa", sdeal(*KOLBASA)).hand.must_lead == (Tile(1, 1),)
    # 1-1 and 2-2 in the stock: the holder of 3-3 leads it, although 0-0 was dealt too
    got = answer(example("kolbasa_out_by_cut"))["hands"][0]
    assert got["opener"] == 0
    only_blank = sdeal("0-0 0-1 0-2 0-3 0-4 0-5 0-6", "1-2 1-3 1-4 1-5 1-6 2-3 2-4")
    match = sstarted("kolbasa", only_blank)
    assert match.hand.opener == 0 and match.hand.must_lead == (Tile(0, 0),)


def test_a_deal_with_no_double_is_dealt_again() -> None:
    no_double = sdeal("0-1 0-2 0-3 0-4 0-5 0-6 1-2", "1-3 1-4 1-5 1-6 2-3 2-4 2-5")
    with pytest.raises(BadInputError):
        sstarted("kolbasa", no_double)


def test_later_hands_the_winner_leads_a_double_of_their_choice_or_passes_the_right_on() -> None:
    game = variant("kolbasa")
    options = game.options({}, 3)
    deal = sdeal("0-1 0-2 0-3 0-4 0-5 0-6 1-2", "1-3 1-4 1-5 1-6 2-3 2-4 2-5",
                 "2-2 4-4 2-6 3-4 3-5 3-6 4-5")
    opening = game.opening(options, deal, PreviousHand(0, 1, 1))
    assert opening.opener == 2 and set(opening.must_lead) == {Tile(2, 2), Tile(4, 4)}
    # a drawn hand: the previous opener is in the winner's place
    opening = game.opening(options, deal, PreviousHand(2, None, None))
    assert opening.opener == 2


def test_the_lead_double_is_the_base_and_two_ribbons_grow_from_its_halves() -> None:
    match = sstarted("kolbasa", sdeal(*KOLBASA))
    splay(match, "0 1-1", "1 1-4 right", "0 1-2 left")
    layout = table_view(match).layout
    assert layout is not None and layout.kind == "ribbons" and layout.center == 1
    assert [str(t.tile) for t in layout.line] == ["1-2", "1-1", "1-4"]
    assert [e.numbers for e in layout.ends] == [(2,), (4,)]


def test_only_one_tile_may_stick_out() -> None:
    match = sstarted("kolbasa", sdeal(*KOLBASA))
    splay(match, "0 1-1", "1 1-4 right")
    # the right ribbon is a tile ahead: seat 0 may lay only on the left one
    assert {a.end for a in match.legal_actions()} == {End.LEFT}  # type: ignore[union-attr]
    with pytest.raises(TileDoesNotFitError):
        match.apply(*saction("0 4-6 right"))
    splay(match, "0 1-2 left", "1 2-3 left")
    with pytest.raises(TileDoesNotFitError):
        match.apply(*saction("0 1-3 left"))


def _level() -> Match:
    match = sstarted("kolbasa", sdeal(*KOLBASA))
    splay(match, "0 1-1", "1 1-4 right", "0 1-2 left", "1 2-3 left", "0 4-6 right")
    return match  # ribbons level at two tiles each: ends 3 and 6


def test_a_cut_needs_level_ribbons() -> None:
    match = sstarted("kolbasa", sdeal(*KOLBASA))
    splay(match, "0 1-1", "1 1-4 right", "0 1-2 left", "1 2-3 left")
    with pytest.raises(CutNotAllowedError):
        match.apply(*saction("0 cut 2-4 left"))


def test_a_cut_must_show_both_ribbon_ends() -> None:
    match = _level()
    assert Cut(Tile(3, 6), End.LEFT) in match.legal_actions()
    with pytest.raises(CutNotAllowedError) as caught:
        match.apply(*saction("1 cut 2-6 left"))
    assert caught.value.reason == "cut_not_allowed"


def test_the_cutter_gives_a_ribbon_to_the_previous_player_who_moves_next() -> None:
    match = _level()
    events = splay(match, "1 cut 3-6 left")
    cut = next(e for e in events if isinstance(e, PieceCut))
    assert cut.taker == 0 and set(cut.taken) == {Tile(1, 2), Tile(2, 3)}
    assert {Tile(1, 2), Tile(2, 3)} <= held(match, 0)
    assert match.to_move == 0
    layout = table_view(match).layout
    assert layout is not None
    assert set(layout.off) == {Tile(1, 1), Tile(1, 4), Tile(4, 6)}
    assert [str(t.tile) for t in layout.line] == ["3-6"] and layout.center == 0
    assert [e.numbers for e in layout.ends] == [(3,), (6,)]


def test_a_cut_with_the_last_tile_goes_out() -> None:
    got = answer(example("kolbasa_out_by_cut"))
    assert got["hands"][0]["reason"] == "out" and got["hands"][0]["held"][1] == 0
    assert got["hands"][0]["points"] == [0, 108]


def test_four_players_have_no_stock_and_knock() -> None:
    got = answer(example("kolbasa_4p_blocked"))["hands"][0]
    assert got["stock"] == 0 and got["reason"] == "blocked"


def test_two_or_three_players_draw_until_they_can_lay() -> None:
    match = _level()
    splay(match, "1 cut 3-6 left")  # seat 0 to move, ends 3 and 6: holds 1-3 2-3 ...
    assert KNOCK not in match.legal_actions()


def test_blocked_fewest_pips_wins_a_tie_is_a_drawn_hand() -> None:
    game = variant("kolbasa")
    options = game.options({}, 2)
    won = game.score(options, HandEnd(HandEndReason.BLOCKED, None, (10, 4), [], []))
    assert won.winner == 1 and won.points == (0, 10)
    tie = game.score(options, HandEnd(HandEndReason.BLOCKED, None, (6, 6), [], []))
    assert tie.winner is None and tie.points == (0, 0)
