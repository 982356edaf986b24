"""RULES.md, "matador" and "six-matador": a test per clause."""

from __future__ import annotations

import pytest
from engine_kit import example
from stock_kit import saction, sdeal, splay, sstarted

from engine import (
    BadInputError,
    CrossNotAllowedError,
    HandEndReason,
    Match,
    Play,
    PointsScored,
    ScoreReason,
    Tile,
    TileDoesNotFitError,
    table_view,
    variant,
)
from engine.conformance import answer
from engine.tiles import End

MATADOR = ("3-3 5-2 5-5 0-1 0-2 0-3", "2-4 2-2 1-2 5-6 3-5 0-4")
SIX = ("2-3 0-1 1-5 0-0 5-5 6-6", "4-6 3-4 1-1 2-2 0-2 5-6")


def ends(match: Match) -> list[tuple[int, ...]]:
    layout = table_view(match).layout
    assert layout is not None
    return [e.numbers for e in layout.ends]


def test_matador_deal_six_each_for_two_or_three_five_for_four() -> None:
    for seats, size, stock in ((2, 6, 16), (3, 6, 10), (4, 5, 8)):
        match = Match("matador", seats)
        assert (match.hand_size, match.stock_size) == (size, stock)


def test_matador_lead_every_hand_by_lot_any_tile() -> None:
    match = sstarted("matador", sdeal(*MATADOR, lot=1))
    assert match.hand.opener == 1 and match.hand.must_lead == ()
    deal = sdeal(*MATADOR)
    hand = {"deal": [h.split() for h in MATADOR], "stock": [str(t) for t in deal.stock]}
    scenario = {"variant": "matador", "players": 2, "hands": [hand]}
    assert answer(scenario)["error"] == {"hand": 0, "action": None, "code": "bad_input"}
    assert answer({**scenario, "hands": [{**hand, "first": 1}]})["error"] is None


def test_matador_joining_adds_up_to_seven() -> None:
    match = sstarted("matador", sdeal(*MATADOR))
    splay(match, "0 3-3", "1 2-4 right")
    assert [str(p) for p in table_view(match).line] == ["3-3", "4-2"]
    assert ends(match) == [(3,), (2,)]


def test_matador_nothing_is_laid_along_on_a_blank() -> None:
    match = sstarted("matador", sdeal("0-1 5-2 5-5 3-3 0-2 0-3", "2-4 2-2 1-2 5-6 3-5 0-4"))
    splay(match, "0 0-1")  # ends 0 and 1
    with pytest.raises(TileDoesNotFitError):
        match.apply(*saction("1 0-4 left"))
    assert all(a.end is not End.LEFT for a in match.legal_actions())  # type: ignore[union-attr]


def test_matador_laid_crosswise_at_any_end_leaves_both_halves_open() -> None:
    match = sstarted("matador", sdeal(*MATADOR))
    splay(match, "0 3-3", "1 2-4 right", "0 5-2 left cross")
    assert ends(match) == [(2, 5), (2,)]
    assert str(table_view(match).line[0]) == "2-5"
    splay(match, "1 5-6 left")  # its 5 joins the 2: the end shows 6
    assert ends(match)[0] == (6,)


def test_matador_may_also_go_along_where_it_fits_and_leaves_the_same_number() -> None:
    match = sstarted("matador", sdeal(*MATADOR))
    splay(match, "0 3-3", "1 2-4 right", "0 5-2 right along")
    assert ends(match) == [(3,), (2,)]


def test_matador_blank_double_only_crosswise_and_then_only_a_matador_follows() -> None:
    match = sstarted("matador", sdeal("0-0 6-1 5-5 3-3 0-2 0-3", "2-4 2-2 1-2 5-6 3-5 0-4"))
    splay(match, "0 0-0")
    layout = table_view(match).layout
    assert layout is not None and layout.line[0].cross
    assert not [a for a in match.legal_actions() if type(a) is Play]
    other = sstarted("matador", sdeal("3-3 6-1 5-5 0-0 0-2 0-3", "2-4 2-2 1-2 5-6 3-5 0-4"))
    splay(other, "0 3-3", "1 2-4 right")
    with pytest.raises(CrossNotAllowedError):
        other.apply(*saction("0 0-0 left along"))


def test_matador_the_hand_does_not_end_when_a_player_is_out() -> None:
    got = answer(example("matador_out_draws_on_skipped"))["hands"][0]
    assert got["reason"] == "blocked" and got["stock"] == 0 and got["held"].count(0) == 2


def test_matador_fewest_pips_scores_the_others_a_tie_scores_nobody() -> None:
    game = variant("matador")
    options = game.options({}, 3)
    won = game.score_hand(options, game.ending(options, HandEndReason.BLOCKED, None,
                                               [[Tile(0, 1)], [Tile(6, 6)], [Tile(2, 3)]],
                                               (0, 0, 0)))
    assert won.winner == 0 and won.points == (17, 0, 0)
    tie = game.score_hand(options, game.ending(options, HandEndReason.BLOCKED, None,
                                               [[], [Tile(6, 6)], []], (0, 0, 0)))
    assert tie.winner is None and tie.points == (0, 0, 0)


def test_matador_points_ten_for_each_crosswise_matador_not_the_lead() -> None:
    match = sstarted("matador", sdeal("5-2 6-1 5-5 3-3 0-2 0-3", "2-4 2-2 1-2 5-6 3-5 0-4"),
                     matador_points=True)
    events = splay(match, "0 5-2")
    assert not [e for e in events if isinstance(e, PointsScored)]
    splay(match, "1 2-2 left", "0 6-1 left cross")
    assert table_view(match).scored == (10, 0)
    plain = sstarted("matador", sdeal("5-2 6-1 5-5 3-3 0-2 0-3", "2-4 2-2 1-2 5-6 3-5 0-4"))
    splay(plain, "0 5-2", "1 2-2 left", "0 6-1 left cross")
    assert table_view(plain).scored == (0, 0)
    assert answer(example("matador_crosswise_matador"))["hands"][0]["scored"] == [20, 0, 20]


def test_six_matador_deal_seven_each_for_four_no_stock() -> None:
    for seats, size, stock in ((2, 6, 16), (3, 6, 10), (4, 7, 0)):
        match = Match("six-matador", seats)
        assert (match.hand_size, match.stock_size) == (size, stock)


def test_six_matador_touching_halves_add_up_to_six() -> None:
    match = sstarted("six-matador", sdeal(*SIX))
    splay(match, "0 2-3", "1 4-6 left")
    assert ends(match) == [(6,), (3,)]


def test_six_matador_on_a_free_blank_only_a_matador() -> None:
    match = sstarted("six-matador", sdeal("0-1 2-3 1-5 0-0 5-5 6-6", "4-6 3-4 1-1 2-2 0-2 5-6"))
    splay(match, "0 0-1")
    with pytest.raises(TileDoesNotFitError):
        match.apply(*saction("1 4-6 left"))


def test_six_matador_matadors_always_crosswise() -> None:
    match = sstarted("six-matador", sdeal("2-3 0-1 1-5 0-0 5-5 6-6", "4-6 3-4 1-1 2-2 0-2 5-6"))
    splay(match, "0 2-3", "1 4-6 left", "0 0-1 left", "1 3-4 right")  # ends 1 and 4
    ways = {a.cross for a in match.legal_actions() if type(a) is Play and a.tile is Tile(1, 5)}
    assert ways == {True}  # it would fit the 1 along, but lies crosswise
    with pytest.raises(CrossNotAllowedError):
        match.apply(*saction("0 1-5 left along"))


def test_six_matador_strict_scoring() -> None:
    match = sstarted("six-matador", sdeal(*SIX))
    events = splay(match, "0 2-3")
    assert not [e for e in events if isinstance(e, PointsScored)]  # the lead scores nothing
    events = splay(match, "1 4-6 left")  # along, and the free half is a 6
    why = [(e.points, e.why) for e in events if isinstance(e, PointsScored)]
    assert why == [(1, ScoreReason.JOINT), (5, ScoreReason.FREE_SIX)]
    events = splay(match, "0 1-5 left")  # a matador, crosswise
    assert [(e.points, e.why) for e in events if isinstance(e, PointsScored)] == [
        (10, ScoreReason.MATADOR)
    ]
    got = answer(example("six_matador_4p_strict"))["hands"][0]
    assert got["points"] == got["scored"] == [25, 10, 6, 17]


def test_six_matador_simple_scoring_counts_only_matadors() -> None:
    match = sstarted("six-matador", sdeal(*SIX), scoring="simple")
    splay(match, "0 2-3", "1 4-6 left", "0 1-5 left")
    assert table_view(match).scored == (10, 0)
    got = answer(example("six_matador_simple"))["hands"][0]
    assert all(points % 10 == 0 for points in got["scored"])


def test_six_matador_a_knock_costs_six_in_strict() -> None:
    game = variant("six-matador")
    assert game.knock_points(game.options({}, 2)) == ((-6, ScoreReason.KNOCK),)  # type: ignore[attr-defined]
    assert game.knock_points(game.options({"scoring": "simple"}, 2)) == ()  # type: ignore[attr-defined]


def test_six_matador_the_most_points_win_the_hand() -> None:
    game = variant("six-matador")
    options = game.options({}, 3)
    won = game.score_hand(options, game.ending(options, HandEndReason.BLOCKED, None,
                                               [[], [], []], (5, 12, -6)))
    assert won.winner == 1 and won.points == (5, 12, -6)
    tie = game.score_hand(options, game.ending(options, HandEndReason.BLOCKED, None,
                                               [[], [], []], (12, 12, 0)))
    assert tie.winner is None


def test_six_matador_unknown_scoring_is_refused() -> None:
    with pytest.raises(BadInputError):
        Match("six-matador", 2, {"scoring": "strict-ish"})


def test_six_matador_settlement_the_winner_receives_each_difference() -> None:
    game = variant("six-matador")
    assert game.settlement((120, 40, -10), 0) == (210, -80, -130)  # type: ignore[attr-defined]
    assert game.settlement((120, 40), None) is None  # type: ignore[attr-defined]
    assert variant("matador").settlement((120, 40), 0) is None  # type: ignore[attr-defined]
