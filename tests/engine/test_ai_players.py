"""Computer players: every decision legal in every game, seen only through the seat's view,
and the same decision for the same view and seed."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from test_properties import CONFIGS, Config

from engine import (
    BadInputError,
    Deal,
    Discard,
    DominoError,
    Match,
    Play,
    Tile,
    full_set,
    player_view,
)
from engine.ai import LEVELS, CountingPlayer, Player, player, safest_action

# The hard level's own algorithm on a small budget, so every configuration stays cheap.
QUICK_HARD = CountingPlayer(steps=200, worlds=4, pool=8)
EXACT_HARD = CountingPlayer()  # the shipped budget: counted work, so no clock to remove
HANDS_PER_CONFIG = 2


def seat_players(quick: bool = True) -> list[Player]:
    hard = QUICK_HARD if quick else EXACT_HARD
    return [hard, player("normal"), player("easy"), hard, player("normal")]


def positions(config: Config, seed: int, hands: int) -> Iterator[tuple[Match, int]]:
    """Every position of ``hands`` hands of a match of ``config``, played by mixed levels:
    the match and the seat to move, before the move is made."""
    rng = random.Random(seed)
    match = Match(config.game, config.seats, {**config.options, "target": 10**6})
    players = seat_players()
    for _ in range(hands):
        match.deal_hand(rng)
        while not match.hand.over:
            seat = match.hand.to_move
            assert seat is not None
            yield match, seat
            match.apply(seat, players[seat].choose(player_view(match, seat), rng))


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_every_level_chooses_a_legal_action_in_every_game(config: Config) -> None:
    levels = seat_players()
    decisions = 0
    for match, seat in positions(config, CONFIGS.index(config), HANDS_PER_CONFIG):
        view = player_view(match, seat)
        for level in (levels[0], levels[1], levels[2]):
            action = level.choose(view, random.Random(decisions))
            assert action in view.legal, (level.level, view.legal, action)
            decisions += 1
    assert decisions > 0


def test_levels_are_found_by_name() -> None:
    assert list(LEVELS) == ["easy", "normal", "hard", "expert"]
    assert [player(level).level for level in LEVELS] == list(LEVELS)
    with pytest.raises(BadInputError):
        player("grandmaster")


def test_a_seat_without_a_move_gets_an_error_not_a_move() -> None:
    match = Match("pair", 4)
    match.deal_hand(random.Random(1))
    waiting = (match.hand.to_move + 1) % 4  # type: ignore[operator]
    view = player_view(match, waiting)
    for level in LEVELS:
        with pytest.raises(ValueError):
            player(level).choose(view, random.Random(0))
    with pytest.raises(ValueError):
        safest_action(view)


def test_the_same_view_and_seed_give_the_same_decision() -> None:
    config = next(c for c in CONFIGS if c.game == "gaple")
    checked = 0
    for match, seat in positions(config, 7, 1):
        view = player_view(match, seat)
        if len(view.legal) < 3:
            continue
        for level in (player("expert"), EXACT_HARD, player("normal"), player("easy")):
            first = level.choose(view, random.Random(99))
            again = level.choose(player_view(match, seat), random.Random(99))
            assert first == again
        checked += 1
    assert checked > 0


# --- the view is all a player sees ----------------------------------------------------
def twin(match: Match, seat: int, rng: random.Random) -> Match | None:
    """The same first hand with every tile ``seat`` cannot see dealt again among the places
    it cannot see (other hands, their dead tiles, the face-down middle, out of play), and
    the same moves replayed: a different full state, or None if the new deal cannot make
    those moves."""
    hand = match.hand
    others = [s for s in range(match.seats) if s != seat]
    laid: dict[int, set[Tile]] = {s: set() for s in range(match.seats)}
    for move in hand.moves:
        if move.seat != seat and type(move.action) is Play:
            laid[move.seat].add(move.action.tile)
    dealt = {t for h in hand.deal.hands for t in h} | set(hand.deal.middle)
    out_of_play = [t for t in full_set(match.options.set) if t not in dealt]
    hidden = [t for s in others for t in hand.hands[s]] + [t for s in others for t in hand.dead[s]]
    hidden += list(hand.deal.middle[1:]) + out_of_play
    rng.shuffle(hidden)
    pool = iter(hidden)
    new_now = {s: [next(pool) for _ in hand.hands[s]] for s in others}
    new_dead = {s: [next(pool) for _ in hand.dead[s]] for s in others}
    middle = hand.deal.middle[:1] + tuple(next(pool) for _ in hand.deal.middle[1:])
    hands = []
    for s in range(match.seats):
        if s == seat:
            hands.append(hand.deal.hands[s])
        else:
            hands.append(tuple(new_now[s]) + tuple(laid[s]) + tuple(new_dead[s]))
    copy = Match(match.variant, match.seats, match.options.to_dict(match.variant.option_names))
    try:
        copy.start_hand(Deal(tuple(hands), middle, hand.deal.lot, hand.deal.turned_left))
        dead_faces = {s: iter(new_dead[s]) for s in others}
        for move in hand.moves:
            action = move.action
            if type(action) is Discard and move.seat != seat:
                action = Discard(next(dead_faces[move.seat]))
            copy.apply(move.seat, action)
    except DominoError:
        return None
    return copy


@pytest.mark.parametrize("game", ["pair", "gaple", "gaple-dead"])
def test_two_states_sharing_a_seats_view_get_the_same_decision(game: str) -> None:
    """A player is handed only the seat's view: states that differ elsewhere cannot differ
    in what it decides, at any level, for the same seed."""
    config = next(c for c in CONFIGS if c.game == game and c.options["set"] == 6)
    rng = random.Random(11)
    compared = 0
    for match, seat in positions(config, 5, 1):
        view = player_view(match, seat)
        if len(view.legal) < 2 or len(match.hand.moves) < 6:
            continue
        other = next((m for m in (twin(match, seat, rng) for _ in range(300)) if m), None)
        if other is None or other.hand.hands == match.hand.hands:
            continue
        assert player_view(other, seat) == view
        for level in (player("expert"), EXACT_HARD, player("normal"), player("easy")):
            mine = level.choose(view, random.Random(compared))
            theirs = level.choose(player_view(other, seat), random.Random(compared))
            assert mine == theirs, level.level
        compared += 1
        if compared == 3:
            break
    assert compared > 0
