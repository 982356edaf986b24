"""What the hard level infers from a view, the deals it imagines, and its exact endgame."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator

import pytest

from engine import Discard, Match, PlayerView, full_set, player_view
from engine.ai import player
from engine.ai.belief import choices, log_likelihood
from engine.ai.knowledge import Knowledge, infer, numbers_mask
from engine.ai.search import outcome_value
from engine.ai.solver import solve
from engine.ai.worlds import bins_of, build_world, place_hidden, replay_plan
from engine.hand_line import LineHand as Hand
from engine.masks import mask_of

GAMES = [("pair", {}), ("gaple", {}), ("gaple-dead", {}), ("gaple-dead", {"set": 9, "deal": 7})]


def normal_positions(game: str, options: dict[str, object], seed: int) -> Iterator[Match]:
    """Positions of hands played by the normal level, from the 8th move on."""
    rng = random.Random(seed)
    normal = player("normal")
    match = Match(game, 4, {**options, "target": 10**6})
    for _ in range(6):
        match.deal_hand(rng)
        while not match.hand.over:
            seat = match.hand.to_move
            assert seat is not None
            if len(match.hand.moves) >= 8:
                yield match
            match.apply(seat, normal.choose(player_view(match, seat), rng))


def sampled_views(
    game: str, options: dict[str, object], seed: int, every: int
) -> Iterator[tuple[Match, int, PlayerView, Knowledge]]:
    """Every ``every``-th of those positions, with the seat to move, its view and what it
    infers."""
    for number, match in enumerate(normal_positions(game, options, seed)):
        if number % every:
            continue
        seat = match.hand.to_move
        assert seat is not None
        view = player_view(match, seat)
        yield match, seat, view, infer(view)


def truth(match: Match, seat: int) -> list[int]:
    """The real places of the tiles ``seat`` cannot see, as the bins of :func:`bins_of`."""
    hand = match.hand
    placed = [0 if s == seat else hand.masks[s] for s in range(match.seats)]
    for move in hand.moves:
        if type(move.action) is Discard and move.seat != seat:
            placed.append(move.action.tile.bit)
    know = infer(player_view(match, seat))
    placed.append(know.unseen & ~sum(placed))
    return placed


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_knocks_and_discards_tell_which_numbers_a_seat_lacks(
    game: str, options: dict[str, object]
) -> None:
    checked = 0
    for match, _, _, know in sampled_views(game, options, 3, 1):
        for other in range(4):
            assert not match.hand.masks[other] & numbers_mask(know.void_numbers[other])
        checked += sum(1 for v in know.void_numbers if v)
    assert checked > 0


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_the_hidden_tiles_are_exactly_what_the_seat_cannot_see(
    game: str, options: dict[str, object]
) -> None:
    for match, seat, _, know in sampled_views(game, options, 4, 1):
        hand = match.hand
        visible = mask_of(hand.hands[seat]) | mask_of(hand.dead[seat])
        visible |= mask_of([p.tile for p in hand.line.placed])
        assert know.unseen == mask_of(full_set(match.options.set)) & ~visible
        others = [s for s in range(4) if s != seat]
        in_hands = sum(len(hand.hands[s]) for s in others)
        dead = sum(len(hand.dead[s]) for s in others)
        assert know.elsewhere == know.unseen.bit_count() - in_hands - dead


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_imagined_deal_respects_what_was_inferred_and_reaches_the_position(
    game: str, options: dict[str, object]
) -> None:
    rng = random.Random(8)
    worlds = 0
    for match, seat, view, know in sampled_views(game, options, 5, 5):
        bins = bins_of(know)
        for _ in range(4):
            placed = place_hidden(know.unseen, bins, rng)
            assert placed is not None
            assert sum(placed) == know.unseen  # every hidden tile once (bins are disjoint)
            for b, mask in enumerate(placed):
                assert mask.bit_count() == bins.capacity[b]
                assert not mask & bins.barred[b]
            world = build_world(view, know, replay_plan(view), placed)
            if world is None:  # that deal would have blocked earlier: rare, and retried
                continue
            worlds += 1
            assert world.to_move == seat and world.ends == match.hand.ends
            assert world.hands[seat] == match.hand.hands[seat]
            assert [len(h) for h in world.hands] == [len(h) for h in match.hand.hands]
            assert [len(d) for d in world.dead] == [len(d) for d in match.hand.dead]
            assert world.legal_actions() == match.hand.legal_actions()
    assert worlds > 0


@pytest.mark.parametrize(("game", "options"), GAMES[:3])
def test_the_real_deal_is_likelier_than_most_deals_that_fit_the_knocks(
    game: str, options: dict[str, object]
) -> None:
    """Plays tell more than knocks: judged by the plays the others chose, the real deal beats
    the median consistent deal in most positions."""
    rng = random.Random(9)
    above = total = 0
    for match, seat, view, know in sampled_views(game, options, 6, 4):
        observed = choices(view)
        if not observed:
            continue
        bins = bins_of(know)
        real = log_likelihood(observed, truth(match, seat), 2.0, False)
        imagined = [
            log_likelihood(observed, place_hidden(know.unseen, bins, rng) or [], 2.0, False)
            for _ in range(30)
        ]
        above += real > statistics.median(imagined)
        total += 1
    assert total >= 10
    assert above >= 0.8 * total


# --- the exact endgame ----------------------------------------------------------------
def plain_minimax(hand: Hand, seat: int, value: object) -> float:
    """Minimax without pruning, to check the solver's alpha-beta against."""
    if hand.result is not None:
        return value(seat, hand.result)  # type: ignore[operator, no-any-return]
    mover = hand.to_move
    assert mover is not None
    worths = []
    for action in hand.legal_actions():
        child = hand.fork()
        child.step(mover, action)
        worths.append(plain_minimax(child, seat, value))
    return max(worths) if mover % 2 == seat % 2 else min(worths)


def test_alpha_beta_gives_the_exact_minimax_value_of_each_move() -> None:
    def value(who: int, result: object) -> float:
        return outcome_value("pair", who, who % 2, result)  # type: ignore[arg-type]

    rng = random.Random(12)
    normal = player("normal")
    solved = 0
    for _ in range(12):
        match = Match("pair", 4)
        match.deal_hand(rng)
        hand = match.hand
        while not hand.over and sum(len(h) for h in hand.hands) > 10:
            seat = hand.to_move
            assert seat is not None
            match.apply(seat, normal.choose(player_view(match, seat), rng))
        if hand.over or len(hand.legal_actions()) < 2:
            continue
        seat = hand.to_move
        assert seat is not None
        legal = hand.legal_actions()
        exact = solve(hand, legal, seat, (0, 1, 0, 1), value)
        for action, worth in zip(legal, exact, strict=True):
            child = hand.fork()
            child.step(seat, action)
            assert worth == plain_minimax(child, seat, value)
        solved += 1
    assert solved > 0
