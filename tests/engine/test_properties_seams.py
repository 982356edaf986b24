"""The seams: every game plays on the layout its declared seams call for, and a game that
only declares a seam (no hand class of its own) is played by the same machine, whole
matches long, with every tile in exactly one place and a legal action whenever the hand is
not over."""

from __future__ import annotations

import random

import pytest

from engine import (
    VARIANTS,
    Deal,
    HandEnded,
    Match,
    Play,
    Tile,
    full_set,
    variant,
)
from engine.hand_board import BoardHand
from engine.hand_line import LineHand
from engine.match import plays_on_line
from engine.tiles import End
from engine.variants.gaple import Gaple

LINE_GAMES = ("gaple", "gaple-dead", "pair")


class SevensGaple(Gaple):
    """Gaple whose tiles join where their halves add up to 7: one seam declared, no more."""

    name = "sevens-gaple"
    join_sum = 7


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(word) for word in text.split())


@pytest.mark.parametrize("game", tuple(VARIANTS))
def test_every_game_plays_on_the_layout_its_seams_call_for(game: str) -> None:
    rules = variant(game)
    for seats in rules.seat_counts:
        match = Match(game, seats)
        match.deal_hand(random.Random(seats))
        kind = LineHand if game in LINE_GAMES else BoardHand
        assert type(match.hand) is kind, (game, seats)
        assert plays_on_line(rules, match.options, seats) is (game in LINE_GAMES)


def test_a_declared_matching_rule_is_the_one_the_hand_plays_by() -> None:
    match = Match(SevensGaple(), 4)
    assert not plays_on_line(match.variant, match.options, 4)
    match.start_hand(Deal((
        tiles("6-6 2-2 3-3 4-4 5-5 0-0 2-3"),
        tiles("0-1 5-6 0-2 0-3 0-4 0-5 0-6"),
        tiles("1-1 1-2 1-3 1-4 1-5 1-6 2-4"),
        tiles("2-5 2-6 3-4 3-5 3-6 4-5 4-6"),
    )))
    assert isinstance(match.hand, BoardHand)
    match.apply(0, Play(Tile(6, 6)))  # the highest double leads, as in Gaple
    # On a 6 only a 1 joins: 0-1 at either end, never 5-6 or 0-6 as in plain Gaple.
    assert {(a.tile, a.end) for a in match.legal_actions()} == {  # type: ignore[union-attr]
        (Tile(0, 1), End.LEFT), (Tile(0, 1), End.RIGHT)
    }
    assert not match.can(1, Play(Tile(5, 6), End.LEFT))


@pytest.mark.parametrize("seed", range(6))
def test_a_game_declared_by_its_seams_alone_plays_whole_matches(seed: int) -> None:
    rng = random.Random(seed)
    match = Match(SevensGaple(), 4, {"target": 60})
    everything = set(full_set(6))
    while not match.over:
        match.deal_hand(rng)
        hand = match.hand
        assert isinstance(hand, BoardHand)
        scores = match.scores
        while True:
            held = [t for h in hand.hands for t in h]
            laid = hand.board.tiles()
            assert len(held) + len(laid) == 28 and set(held) | set(laid) == everything
            if hand.over:
                break
            legal = match.legal_actions()
            assert legal and all(match.can(hand.to_move, a) for a in legal)  # type: ignore[arg-type]
            match.apply(hand.to_move, rng.choice(legal))  # type: ignore[arg-type]
        result = hand.result
        assert isinstance(result, HandEnded) and result.scores == match.scores
        assert tuple(a + b for a, b in zip(scores, result.points, strict=True)) == match.scores
