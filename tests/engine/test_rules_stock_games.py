"""RULES.md, the common rules of the six games with a stock: a test per clause."""

from __future__ import annotations

import random

import pytest
from engine_kit import example
from stock_kit import held, saction, sdeal, splay, sstarted

from engine import (
    DRAW,
    KNOCK,
    VARIANTS,
    BadInputError,
    CannotDrawError,
    CrossRequiredError,
    EndRequiredError,
    Match,
    MustDrawError,
    MustPlayError,
    OptionValueError,
    Tile,
    TileDrawn,
    table_view,
    variant,
)
from engine.conformance import answer

KOLBASA = ("1-1 1-2 1-3 2-4 5-5 0-0 4-6", "1-4 1-5 2-3 3-5 0-6 2-6 3-6")
STOCK_GAMES = [name for name, game in VARIANTS.items() if game.has_stock]


def test_six_games_are_registered_after_the_first_three() -> None:
    assert list(VARIANTS) == [
        "gaple", "gaple-dead", "pair",
        "kolbasa", "matador", "six-matador", "french", "muggins", "bergen",
    ]


@pytest.mark.parametrize(
    ("typed", "name"),
    [("колбаса", "kolbasa"), ("Матадор", "matador"), ("шестерной-матадор", "six-matador"),
     ("six_matador", "six-matador"), ("SixMatador", "six-matador"), ("французская", "french"),
     ("маггинс", "muggins"), ("берген", "bergen"), ("Six Matador", "six-matador")],
)
def test_the_six_games_are_found_by_their_russian_and_ascii_names(typed: str, name: str) -> None:
    assert variant(typed).name == name


@pytest.mark.parametrize("game", STOCK_GAMES)
def test_set_is_double_six_only(game: str) -> None:
    seats = variant(game).seat_counts[0]
    assert Match(game, seats, {"set": 6}).options.set == 6
    with pytest.raises(OptionValueError):
        Match(game, seats, {"set": 9})


@pytest.mark.parametrize("game", STOCK_GAMES)
def test_every_tile_not_dealt_is_in_the_stock(game: str) -> None:
    for seats in variant(game).seat_counts:
        match = Match(game, seats)
        match.deal_hand(random.Random(seats))
        hand = match.hand
        dealt = sum(len(h) for h in hand.deal.hands)
        assert dealt + len(hand.deal.stock) == 28


def test_a_draw_takes_the_first_tile_left_in_the_stock_and_keeps_the_turn() -> None:
    # Matador, 2 players: seat 0 leads 3-3 (along); seat 1 holds no 4 and no matador.
    match = sstarted(
        "matador", sdeal("3-3 6-6 5-5 0-1 0-2 0-3", "1-1 2-2 1-2 5-6 3-5 0-5", stock="2-4 0-4")
    )
    splay(match, "0 3-3")
    events = splay(match, "1 draw")
    assert Tile(2, 4) in held(match, 1) and match.to_move == 1
    drawn = [e for e in events if isinstance(e, TileDrawn)]
    assert drawn == [TileDrawn(1, 1, 15, 7)]


def test_drawing_while_able_to_lay_is_not_allowed() -> None:
    match = sstarted("matador", sdeal("3-3 6-6 5-5 0-1 0-2 0-3", "2-4 2-2 1-2 5-6 3-5 0-5"))
    splay(match, "0 3-3")
    with pytest.raises(MustPlayError):
        match.apply(*saction("1 draw"))


def test_knocking_while_able_to_draw_is_not_allowed() -> None:
    match = sstarted("matador", sdeal("3-3 6-6 5-5 0-1 0-2 0-3", "1-1 2-2 1-2 5-6 3-5 0-5"))
    splay(match, "0 3-3")
    assert match.legal_actions() == (DRAW,)
    with pytest.raises(MustDrawError) as caught:
        match.apply(*saction("1 knock"))
    assert caught.value.code == "illegal" and caught.value.reason == "must_draw"


def test_one_tile_per_turn_in_matador_then_lay_or_knock() -> None:
    match = sstarted(
        "matador", sdeal("3-3 6-6 5-5 0-1 0-2 0-3", "1-1 2-2 1-2 5-6 3-5 0-5", stock="0-6")
    )
    splay(match, "0 3-3", "1 draw")
    assert match.legal_actions() == (KNOCK,)
    with pytest.raises(CannotDrawError):
        match.apply(*saction("1 draw"))
    splay(match, "1 knock")
    assert match.to_move == 0


def test_draw_until_a_tile_can_be_laid_in_french() -> None:
    # French, 2 players: seat 0 holds the highest tile 6-6 and leads it; seat 1 needs a 1.
    match = sstarted(
        "french", sdeal("6-6 0-2 0-3 0-4 2-2", "2-3 2-4 3-3 4-5 4-4", stock="0-5 3-5 1-3")
    )
    splay(match, "0 6-6", "1 draw", "1 draw")
    assert match.to_move == 1 and match.legal_actions() == (DRAW,)
    splay(match, "1 draw")
    assert any(a.tile is Tile(1, 3) for a in match.legal_actions() if hasattr(a, "tile"))


def test_bergen_never_draws_the_last_two_tiles() -> None:
    match = Match("bergen", 2)
    match.deal_hand(random.Random(7))
    hand = match.hand
    rng = random.Random(1)
    while not hand.over:
        legal = match.legal_actions()
        match.apply(hand.to_move, legal[rng.randrange(len(legal))])  # type: ignore[arg-type]
        assert hand.stock_left >= 2  # type: ignore[union-attr]


def test_the_lead_is_laid_as_written() -> None:
    match = sstarted("matador", sdeal("5-2 6-6 5-5 0-1 0-2 0-3", "1-1 2-2 1-2 5-6 3-5 0-4"))
    splay(match, "0 5-2")
    assert answer_line(match) == ["5-2"]


def answer_line(match: Match) -> list[str]:
    return [str(p) for p in table_view(match).line]


def test_a_double_lead_lies_crosswise_where_the_game_says() -> None:
    lead = {
        "muggins": (Tile(5, 5), True),
        "bergen": (Tile(5, 5), True),
        "matador": (Tile(0, 0), True),
        "six-matador": (Tile(3, 3), True),
        "french": (Tile(5, 5), False),
    }
    for game, (tile, cross) in lead.items():
        assert variant(game).lead_cross(tile) is cross  # type: ignore[attr-defined]
    assert not variant("matador").lead_cross(Tile(5, 5))  # type: ignore[attr-defined]
    assert not variant("six-matador").lead_cross(Tile(4, 4))  # type: ignore[attr-defined]


def test_a_tile_fitting_two_ends_needs_the_end_also_when_they_show_the_same_number() -> None:
    match = sstarted("kolbasa", sdeal(*KOLBASA))
    splay(match, "0 1-1")  # both ribbons show 1
    with pytest.raises(EndRequiredError):
        match.apply(*saction("1 1-4"))
    splay(match, "1 1-4 right")


def test_crosswise_or_along_must_be_said_when_both_are_legal_at_that_end() -> None:
    match = sstarted("matador", sdeal("3-3 5-2 5-5 0-1 0-2 0-3", "2-4 2-2 1-2 5-6 3-5 0-4"))
    splay(match, "0 3-3", "1 2-4 right")  # ends 3 and 2
    with pytest.raises(CrossRequiredError) as caught:
        match.apply(*saction("0 5-2 right"))
    assert caught.value.code == "cross_required"
    with pytest.raises(EndRequiredError):
        match.apply(*saction("0 5-2"))


def test_blocked_as_soon_as_nobody_can_lay_or_draw() -> None:
    got = answer(example("kolbasa_4p_blocked"))["hands"][0]
    assert got["reason"] == "blocked" and got["stock"] == 0


def test_out_comes_first_when_both_ways_end_the_hand() -> None:
    got = answer(example("kolbasa_out_by_cut"))["hands"][0]
    assert got["reason"] == "out"


def test_match_tie_for_the_best_score_plays_on() -> None:
    got = answer(example("bergen_3p_match_tie_plays_on"))
    assert len(got["hands"]) == 4 and got["match"]["over"] and got["match"]["winner"] == 2
    game = variant("bergen")
    options = game.options({}, 3)
    assert game.match_outcome(options, (3, 11, 11), False) == (False, None, True)
    assert game.match_outcome(options, (3, 9, 8), True) == (True, 1, True)


def test_penalty_games_let_the_lowest_score_win_the_match() -> None:
    game = variant("french")
    options = game.options({}, 3)
    assert game.lowest_total_wins
    assert game.match_outcome(options, (40, 101, 30), False) == (True, 2, True)


@pytest.mark.parametrize(
    ("game", "seats", "target"),
    [("kolbasa", 3, 100), ("matador", 2, 100), ("six-matador", 4, 100), ("french", 5, 101),
     ("muggins", 3, 200), ("bergen", 2, 15), ("bergen", 3, 10), ("bergen", 4, 10)],
)
def test_default_targets(game: str, seats: int, target: int) -> None:
    assert variant(game).default_options(seats).target == target
    assert Match(game, seats).options.target == target


def test_options_matador_points_and_scoring() -> None:
    assert variant("matador").options({"matador_points": True}, 2).matador_points
    assert variant("six-matador").options({"scoring": "simple"}, 2).scoring == "simple"
    with pytest.raises(BadInputError):
        variant("six-matador").options({"scoring": "loose"}, 2)
    with pytest.raises(BadInputError):
        variant("kolbasa").options({"matador_points": True}, 2)
