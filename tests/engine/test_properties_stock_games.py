"""Properties over seeded random matches of the six games with a stock, every option and seat
count: every tile in exactly one place at every step (a hand, the stock, the layout, the
tiles cut off); a hand not over always offers a legal action, and exactly the listed ones
are accepted; views never hold a hidden tile; save and load round-trip; the points scored
during play plus those at the end agree with the scores.

Set ``ENGINE_PROPERTY_SCALE=10`` (say) to play ten times as many matches locally.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest
from engine_kit import tiles_in
from hypothesis import given
from property_kit import PROFILE, SEEDS

from engine import (
    DRAW,
    KNOCK,
    VARIANTS,
    Cut,
    Event,
    HandEnded,
    Match,
    Play,
    PointsScored,
    Tile,
    full_set,
    match_from_json,
    match_to_json,
    player_view,
    table_view,
)
from engine.conformance import answer
from engine.hand_board import BoardHand
from engine.record import match_to_dict

MATCHES_PER_EXAMPLE = 4
ALL = set(full_set(6))
OPTION_CHOICES = {"matador_points": (False, True), "scoring": ("strict", "simple")}


@dataclass(frozen=True)
class Config:
    game: str
    seats: int
    options: tuple[tuple[str, Any], ...]

    def __str__(self) -> str:
        return f"{self.game}/{self.seats}/" + ",".join(f"{k}={v}" for k, v in self.options)


def every_configuration() -> Iterator[Config]:
    for name, game in VARIANTS.items():
        if not game.has_stock:
            continue
        extra = [spec.name for spec in game.option_specs if spec.name in OPTION_CHOICES]
        for seats in game.seat_counts:
            if not extra:
                yield Config(name, seats, ())
            for option in extra:
                for value in OPTION_CHOICES[option]:
                    yield Config(name, seats, ((option, value),))


CONFIGS = list(every_configuration())


def places(hand: BoardHand) -> list[Tile]:
    out = [t for h in hand.hands for t in h]
    out += list(hand.stock[hand.drawn :])
    out += hand.board.tiles() + hand.board.off
    return out


def check_tiles(hand: BoardHand) -> None:
    where = places(hand)
    assert len(where) == 28 and set(where) == ALL, "a tile is missing or in two places"


def check_views(match: Match) -> None:
    hand = match.hand
    assert isinstance(hand, BoardHand)
    if hand.over:
        return
    view = table_view(match)
    public = set(hand.board.tiles()) | set(hand.board.off)
    hidden = set(hand.stock[hand.drawn :])
    played = {m.tile for m in view.history if m.tile is not None}
    shown = set(tiles_in(replace(view, history=())))
    assert shown <= public, f"the table shows hidden tiles: {shown - public}"
    assert not set(tiles_in(view)) & hidden, "a stock tile's face is in the view"
    for seat in range(match.seats):
        mine = player_view(match, seat)
        assert set(mine.hand) == set(hand.hands[seat])
        others = {t for s, h in enumerate(hand.hands) if s != seat for t in h} | hidden
        leaked = set(tiles_in(replace(mine, table=view))) & others
        assert leaked <= played, f"seat {seat} sees {leaked}"


def check_legal(match: Match, rng: random.Random) -> None:
    hand = match.hand
    assert isinstance(hand, BoardHand)
    legal = match.legal_actions()
    seat = hand.to_move
    assert seat is not None and legal, "a hand not over offers no action"
    for action in legal:
        assert match.can(seat, action)
    other = (seat + 1) % match.seats
    assert not match.can(other, legal[0])
    kinds = {type(a) for a in legal}
    if Play in kinds or Cut in kinds:
        assert not match.can(seat, DRAW) and not match.can(seat, KNOCK)
    for tile in rng.sample(sorted(ALL), 6):
        for end in (None, *hand.board.arms):
            for cross in (None, False, True):
                play = Play(tile, end, None, cross)
                if match.can(seat, play):
                    resolved = match.check(seat, play)
                    assert resolved in legal or hand.board.center is None


def play_match(config: Config, rng: random.Random) -> None:
    options = dict(config.options)
    target = rng.choice((None, 1, 30))
    if target is not None:
        options["target"] = target
    match = Match(config.game, config.seats, options)
    scores = [0] * config.seats
    hands = 0
    while not match.over and hands < 4:
        match.deal_hand(rng)
        hands += 1
        hand = match.hand
        assert isinstance(hand, BoardHand)
        in_play = [0] * config.seats
        events: list[Event] = []
        while not hand.over:
            check_tiles(hand)
            check_legal(match, rng)
            if rng.random() < 0.3:
                check_views(match)
            legal = match.legal_actions()
            events = match.apply(hand.to_move, legal[rng.randrange(len(legal))])  # type: ignore[arg-type]
            for event in events:
                if isinstance(event, PointsScored):
                    in_play[event.seat] += event.points
        check_tiles(hand)
        result = hand.result
        assert isinstance(result, HandEnded) and result in events
        assert list(result.scored) == in_play
        scores = [s + p for s, p in zip(scores, result.points, strict=True)]
        assert list(result.scores) == scores == list(match.scores)
        got = answer(match_to_dict(match))
        assert got["error"] is None and got["match"]["scores"] == scores
    twin = match_from_json(match_to_json(match))
    assert match_to_dict(twin) == match_to_dict(match)
    assert table_view(twin) == table_view(match)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@PROFILE
@given(seed=SEEDS)
def test_random_matches_of_the_six_games_keep_every_property(config: Config, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(MATCHES_PER_EXAMPLE):
        play_match(config, rng)


def test_every_game_seat_count_and_option_is_covered() -> None:
    covered = {(c.game, c.seats) for c in CONFIGS}
    for name, game in VARIANTS.items():
        if game.has_stock:
            assert {(name, s) for s in game.seat_counts} <= covered
    assert {v for c in CONFIGS for k, v in c.options if k == "scoring"} == {"strict", "simple"}
