"""The table's view of the games with a stock carries the engine's facts: what each move scored
and why, how many tiles a cut handed over, and Six-matador's settlement at the match's end,
so that no picture or sentence works a rule out again."""

from __future__ import annotations

import random

import pytest
from stock_kit import sdeal, splay, sstarted

from engine import ActionKind, Match, PointsScored, ScoreReason, Tile, table_view, variant


@pytest.mark.parametrize("game", ["six-matador", "muggins", "bergen", "matador"])
def test_each_move_in_the_view_carries_the_points_its_events_scored(game: str) -> None:
    rng = random.Random(3)
    match = Match(game, 3, {"matador_points": True} if game == "matador" else {})
    for _ in range(3):
        if match.over:
            break
        match.deal_hand(rng)
        said: list[tuple[tuple[int, ScoreReason], ...]] = []
        while match.hand.result is None:
            seat = match.to_move
            assert seat is not None
            legal = match.legal_actions()
            events = match.apply(seat, legal[rng.randrange(len(legal))])
            said.append(tuple((e.points, e.why) for e in events if isinstance(e, PointsScored)))
        view = table_view(match)
        assert [move.points for move in view.history] == said
        assert view.result is not None
        assert sum(p for move in view.history for p, _ in move.points) == sum(view.result.scored)


def test_a_six_matador_knock_shows_its_minus_six() -> None:
    match = sstarted("six-matador", sdeal("1-2 4-4 4-5 4-6 5-5 5-6", "0-1 0-2 0-3 1-1 1-3 2-2",
                                          stock="2-3"))
    splay(match, "0 1-2", "1 draw", "1 knock")  # nothing fits 1 or 2 (a 5 or a 4 would)
    history = table_view(match).history
    assert [m.kind for m in history] == [ActionKind.PLAY, ActionKind.DRAW, ActionKind.KNOCK]
    assert [m.points for m in history] == [(), (), ((-6, ScoreReason.KNOCK),)]
    assert history[-1].reasons == frozenset({ScoreReason.KNOCK})


def test_a_kolbasa_cut_in_the_view_says_which_tiles_were_handed_over() -> None:
    match = sstarted("kolbasa", sdeal("1-1 1-4 0-0 0-2 0-5 0-6 2-2",
                                      "1-3 3-4 2-5 2-6 5-5 5-6 6-6"))
    splay(match, "0 1-1", "1 1-3 left", "0 1-4 right", "1 cut 3-4 left")
    cut = table_view(match).history[-1]
    assert cut.kind is ActionKind.CUT and cut.taken == (Tile(1, 3),)  # the left ribbon


def test_six_matadors_settlement_comes_with_the_final_scores_only() -> None:
    rng = random.Random(5)
    match = Match("six-matador", 3, {"target": 40})
    while not match.over:
        match.deal_hand(rng)
        assert table_view(match).settlement is None  # not while the match is on
        while match.hand.result is None:
            seat = match.to_move
            assert seat is not None
            legal = match.legal_actions()
            match.apply(seat, legal[rng.randrange(len(legal))])
    view = table_view(match)
    settle = variant("six-matador").settlement  # type: ignore[attr-defined]
    assert view.settlement == settle(match.scores, match.winner)
    assert view.settlement is not None and sum(view.settlement) == 0


def test_games_without_a_settlement_show_none() -> None:
    rng = random.Random(2)
    match = Match("muggins", 2, {"target": 20})
    while not match.over:
        match.deal_hand(rng)
        while match.hand.result is None:
            seat = match.to_move
            assert seat is not None
            legal = match.legal_actions()
            match.apply(seat, legal[rng.randrange(len(legal))])
    assert table_view(match).match_over and table_view(match).settlement is None


@pytest.mark.parametrize(("game", "seats", "dealt"), [
    ("kolbasa", 2, True), ("kolbasa", 4, False), ("six-matador", 4, False),
    ("six-matador", 3, True), ("muggins", 4, True),
])
def test_the_view_says_whether_the_hand_has_a_stock_at_all(game: str, seats: int,
                                                           dealt: bool) -> None:
    match = Match(game, seats)
    match.deal_hand(random.Random(1))
    view = table_view(match)
    assert view.stock_dealt is dealt
    assert (view.stock_count > 0) is dealt  # at the deal, a stock is never empty
