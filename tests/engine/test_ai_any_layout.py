"""Computer players in the games on the general board: every level moves legally from its view
alone, and hard learns from draws, knocks and cuts."""

from __future__ import annotations

import random

import pytest
from stock_kit import sdeal, splay, sstarted

from engine import VARIANTS, Match, Tile, full_set, player_view
from engine.ai import player, safest_action
from engine.ai.board_worlds import board_of, imagine, read_history
from engine.variants import variant

GAMES = [(name, seats) for name, g in VARIANTS.items()
         if g.has_stock for seats in g.seat_counts]


@pytest.mark.parametrize(("game", "seats"), GAMES)
@pytest.mark.parametrize("level", ["easy", "normal", "hard", "safe"])
def test_every_level_finishes_a_hand_of_every_game_and_seat_count(
    game: str, seats: int, level: str
) -> None:
    rng = random.Random(f"{game}/{seats}/{level}")
    match = Match(game, seats)
    match.deal_hand(rng)
    while not match.hand.over:
        seat = match.to_move
        assert seat is not None
        view = player_view(match, seat)
        action = safest_action(view) if level == "safe" else player(level).choose(view, rng)
        assert action in view.legal
        match.apply(seat, action)


def test_hard_never_imagines_a_tile_a_knocker_could_have_laid() -> None:
    # Matador, 2 players: seat 1 draws once and knocks facing 3 and 3 (it holds no 4 and
    # no matador); every imagined hand of seat 1 must lack them too.
    match = sstarted(
        "matador", sdeal("3-3 6-6 5-5 0-1 0-2 0-3", "1-1 2-2 1-2 5-6 3-5 0-5", stock="0-6")
    )
    splay(match, "0 3-3", "1 draw", "1 knock")
    view = player_view(match, 0)
    game = variant("matador")
    known = read_history(view, game)
    board = board_of(view)
    fitting = {t for t in full_set(6) if game.lay_mask(board) & t.bit}
    assert Tile(4, 6) in fitting and Tile(6, 1) in fitting
    rng = random.Random(3)
    for _ in range(30):
        world = imagine(view, board, rng, known)
        assert not set(world.hands[1]) & fitting


def test_hard_knows_the_ribbon_the_previous_player_took() -> None:
    match = sstarted("kolbasa", sdeal("1-1 1-2 1-3 2-4 5-5 0-0 4-6", "1-4 1-5 2-3 3-5 0-6 2-6 3-6"))
    splay(match, "0 1-1", "1 1-4 right", "0 1-2 left", "1 2-3 left", "0 4-6 right",
          "1 cut 3-6 left")
    view = player_view(match, 1)
    game = variant("kolbasa")
    known = read_history(view, game)
    assert known.held[0] == {Tile(1, 2), Tile(2, 3)}
    world = imagine(view, board_of(view), random.Random(1), known)
    assert {Tile(1, 2), Tile(2, 3)} <= set(world.hands[0])
    assert len(world.hands[0]) == len(match.hand.hands[0])


def _state(hand: object) -> tuple[object, ...]:
    """What a move changes in a hand on the board, for comparing two ways of making it."""
    board = hand.board  # type: ignore[attr-defined]
    return (
        list(hand.masks), hand.ends, list(hand.scored), hand.to_move,  # type: ignore[attr-defined]
        hand.result, hand.drawn, hand.draws,  # type: ignore[attr-defined]
        board.center, {end: list(arm) for end, arm in board.arms.items()}, board.spinner,
        list(board.off), hand.legal_actions(),  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_advance_makes_every_legal_move_as_apply_does(game: str, seats: int) -> None:
    # The search's unchecked move (advance) must leave the hand exactly as the checked one,
    # for every legal action at every position of random hands: leads, cuts, draws, knocks,
    # points and the hand's end included.
    rng = random.Random(f"advance/{game}/{seats}")
    compared = 0
    for _ in range(6):
        match = Match(game, seats)
        match.deal_hand(rng)
        hand = match.hand
        while not hand.over:
            seat = hand.to_move
            assert seat is not None
            for action in hand.legal_actions():
                checked, unchecked = hand.fork(), hand.fork()
                checked.apply(seat, action)
                unchecked.advance(seat, action)
                assert _state(unchecked) == _state(checked), (game, action)
                compared += 1
            match.apply(seat, rng.choice(hand.legal_actions()))
    assert compared > 100
