"""The IS-MCTS yardstick (:mod:`benchmarks.ismcts`): legal moves only, one decision per view
and seed, and deals imagined from the seat's own view only (its hand, the tiles laid, every
knock). Its strength is measured by ``python -m benchmarks.strength``, not here."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from benchmarks.ismcts import IsmctsPlayer, Resampler, seat_returns
from engine.actions import ActionKind
from engine.ai import Player, RandomPlayer
from engine.ai.simulation import SHOWS, mask_of
from engine.match import Match
from engine.tiles import full_set
from engine.views import PlayerView, player_view

TINY = IsmctsPlayer(simulations=24)


def play_hand(game: str, seed: int, chooser: Player,
              seen: Callable[[PlayerView], None] = lambda view: None) -> Match:
    """One hand of ``game``, every seat on ``chooser``, each view shown to ``seen`` before its
    move; the engine refuses an illegal move."""
    match = Match(game, 4)
    match.deal_hand(random.Random(seed))
    ply = 0
    while match.hand.result is None:
        seat = match.hand.to_move
        assert seat is not None
        view = player_view(match, seat)
        seen(view)
        action = chooser.choose(view, random.Random(f"{seed}/{ply}"))
        assert action in view.legal
        match.apply(seat, action)
        ply += 1
    return match


@pytest.mark.parametrize("game", ["pair", "gaple", "gaple-dead"])
def test_it_plays_whole_hands_with_legal_moves_only(game: str) -> None:
    for seed in range(2):
        assert play_hand(game, seed, TINY).hand.result is not None


def views_after_knocks(game: str, wanted: int) -> list[PlayerView]:
    """Views of seats with a choice to make after another seat knocked or went dead."""
    found: list[PlayerView] = []

    def keep(view: PlayerView) -> None:
        stuck = [
            m for m in view.table.history
            if m.kind is not ActionKind.PLAY and m.ends_before and m.seat != view.seat
        ]
        if stuck and len(view.legal) > 1 and len(found) < wanted:
            found.append(view)

    seed = 0
    while len(found) < wanted:
        play_hand(game, seed, RandomPlayer(), keep)
        seed += 1
        assert seed < 500, "random hands always knock somewhere"
    return found


@pytest.mark.parametrize("game", ["pair", "gaple-dead"])
def test_every_imagined_deal_keeps_the_seat_s_hand_and_every_knock(game: str) -> None:
    for view in views_after_knocks(game, 6):
        table = view.table
        laid = mask_of([p.tile for p in table.line])
        lacks = [0] * table.seats  # tiles each seat has shown it cannot hold
        for move in table.history:
            if move.kind is not ActionKind.PLAY and move.ends_before is not None:
                a, b = move.ends_before
                lacks[move.seat] |= SHOWS[a] | SHOWS[b]
        assert any(lacks[s] for s in range(table.seats) if s != view.seat)
        resampler = Resampler(view)
        rng = random.Random(7)
        for _ in range(30):
            world = resampler.world(rng)
            assert world.to_move == view.seat
            assert world.masks[view.seat] == mask_of(view.hand)
            assert world.legal_actions() == view.legal
            held = 0
            for seat in range(table.seats):
                mask = world.masks[seat]
                assert mask.bit_count() == table.players[seat].tile_count
                assert not mask & lacks[seat], "a seat that knocked holds a tile it lacked"
                assert not mask & laid and not held & mask
                held |= mask
                assert len(world.dead[seat]) == table.players[seat].dead_count
            if game == "pair":  # every tile is dealt: each is in a hand or laid
                assert held | laid == mask_of(full_set(table.set))


def test_one_view_and_one_seed_give_one_decision() -> None:
    player = IsmctsPlayer(simulations=60)
    for view in views_after_knocks("pair", 4):
        first = player.choose(view, random.Random(11))
        assert all(player.choose(view, random.Random(11)) == first for _ in range(2))


def test_a_forced_move_needs_no_search_and_no_move_is_refused() -> None:
    match = Match("pair", 4)
    match.deal_hand(random.Random(1))
    seat = match.hand.to_move
    assert seat is not None
    view = player_view(match, seat)
    assert len(view.legal) == 1  # the first hand opens with the highest double
    assert TINY.choose(view, random.Random(0)) == view.legal[0]
    idle = player_view(match, (seat + 1) % 4)
    with pytest.raises(ValueError):
        TINY.choose(idle, random.Random(0))


def test_a_finished_pair_hand_is_worth_the_points_scored_to_each_partnership() -> None:
    match = play_hand("pair", 3, TINY)
    result = match.hand.result
    assert result is not None
    worth = seat_returns("pair", match.sides, result)
    assert worth[0] == worth[2] == result.points[0] - result.points[1] == -worth[1] == -worth[3]


def test_other_games_are_refused_rather_than_guessed() -> None:
    match = Match("muggins", 2)
    match.deal_hand(random.Random(0))
    seat = match.hand.to_move
    assert seat is not None
    view = player_view(match, seat)
    with pytest.raises(ValueError):
        Resampler(view)
