"""A plain-line hand's push and pop: the exact solver's what-if on one hand. Every push taken
back leaves the hand as it was, and a push is the move ``step`` makes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Match
from engine.ai.plain_line import outcome_value
from engine.ai.simulation import LineHand
from engine.ai.solver import solve


def state(hand: LineHand) -> tuple[Any, ...]:
    """Everything play changes in a hand, the line and the table's sight included."""
    return (
        tuple(hand.masks), tuple(tuple(d) for d in hand.dead), hand.in_hands, hand.ends,
        hand.to_move, tuple(hand.moves), hand.result, hand.reason, hand.out_seat,
        hand.legal_actions(), tuple(hand.line.placed), hand.table_sight(),
    )


@pytest.mark.parametrize(("game", "seats"), [("pair", 4), ("gaple", 4), ("gaple-dead", 4),
                                             ("gaple-dead", 5)])
def test_every_move_pushed_and_popped_leaves_the_hand_as_it_was(game: str, seats: int) -> None:
    rng = random.Random(5)
    checked = ended = 0
    for _ in range(20):
        match = Match(game, seats)
        match.deal_hand(rng)
        hand = match.hand
        assert isinstance(hand, LineHand)
        while not hand.over:
            seat = hand.to_move
            assert seat is not None
            before = state(hand)
            for action in hand.legal_actions():
                stepped = hand.fork()
                stepped.step(seat, action)
                hand.push(seat, action)
                assert state(hand) == state(stepped)  # the move step makes
                ended += hand.result is not None
                hand.pop()
                assert state(hand) == before
                checked += 1
            legal = hand.legal_actions()
            match.apply(seat, legal[rng.randrange(len(legal))])
    assert checked > 500 and ended > 0


def test_a_pushed_hand_pops_back_through_many_moves() -> None:
    rng = random.Random(8)
    match = Match("gaple-dead", 4)
    match.deal_hand(rng)
    hand = match.hand
    assert isinstance(hand, LineHand)
    before = state(hand)
    pushed = 0
    while not hand.over:
        legal = hand.legal_actions()
        hand.push(hand.to_move, legal[rng.randrange(len(legal))])  # type: ignore[arg-type]
        pushed += 1
    assert pushed > 5
    for _ in range(pushed):
        hand.pop()
    assert state(hand) == before


@pytest.mark.parametrize(("game", "sides"), [("pair", (0, 1, 0, 1)),
                                             ("gaple-dead", (0, 1, 2, 3))])
def test_the_solver_leaves_its_world_as_it_found_it(game: str, sides: tuple[int, ...]) -> None:
    rng = random.Random(3)
    solved = 0
    for _ in range(30):
        match = Match(game, 4)
        match.deal_hand(rng)
        hand = match.hand
        assert isinstance(hand, LineHand)
        while not hand.over and hand.in_hands.bit_count() > 9:
            legal = hand.legal_actions()
            match.apply(hand.to_move, legal[rng.randrange(len(legal))])  # type: ignore[arg-type]
        if hand.over or len(hand.legal_actions()) < 2:
            continue
        seat = hand.to_move
        assert seat is not None
        before = state(hand)
        worths = solve(hand, hand.legal_actions(), seat, sides,
                       lambda who, result: outcome_value(game, who, sides[who], result))
        assert state(hand) == before
        assert len(worths) == len(hand.legal_actions())
        solved += 1
    assert solved > 5
