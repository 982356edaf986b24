"""The moves nobody decides (a knock when nothing fits, a draw when the stock must be used)
are the engine's: a match built with ``automate=True`` plays them as soon as they are due,
for every caller alike, exactly as the bot's service used to play them itself."""

from __future__ import annotations

import random

import pytest

from engine import (
    DRAW,
    KNOCK,
    VARIANTS,
    Action,
    Event,
    Knocked,
    Match,
    TileDrawn,
    match_from_json,
)
from engine import match_to_json as to_json

GAMES = [(name, seats) for name, game in VARIANTS.items() for seats in game.seat_counts]


def forced_by_hand(match: Match) -> list[Event]:
    """The reference: the loop the bot's service ran after every move (knock or draw while
    that is the only legal action, whoever is to move; the next hand is not dealt)."""
    events: list[Event] = []
    while not match.hand.over and match.legal_actions() in ((KNOCK,), (DRAW,)):
        seat = match.to_move
        assert seat is not None
        events += match.apply(seat, match.legal_actions()[0])
    return events


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_automate_plays_what_the_service_played_in_the_same_order(game: str, seats: int) -> None:
    by_hand, automated = Match(game, seats), Match(game, seats, automate=True)
    deals, picks = random.Random(seats), random.Random(7)
    automatic = 0
    while not by_hand.over:
        seed = deals.random()
        expected = by_hand.deal_hand(random.Random(seed)) + forced_by_hand(by_hand)
        assert automated.deal_hand(random.Random(seed)) == expected
        while not by_hand.hand.over:
            legal = by_hand.legal_actions()
            assert automated.legal_actions() == legal
            assert legal not in ((KNOCK,), (DRAW,))  # never left to a player
            assert automated.forced_action() is None
            seat = by_hand.to_move
            assert seat is not None
            action = picks.choice(legal)
            forced = forced_by_hand_after(by_hand, seat, action)
            automatic += len(forced[1])
            assert automated.apply(seat, action) == forced[0] + forced[1]
        assert automated.scores == by_hand.scores and automated.over == by_hand.over
    assert [h.moves for h in automated.hands] == [h.moves for h in by_hand.hands]
    # The record holds every move, forced or chosen: it replays without automation.
    assert [h.moves for h in match_from_json(to_json(automated)).hands] == [
        h.moves for h in automated.hands
    ]
    if not VARIANTS[game].has_dead_tiles(by_hand.options):  # there, a stuck seat chooses
        assert automatic, "no move was forced: the comparison proved nothing"


def forced_by_hand_after(
    match: Match, seat: int, action: Action
) -> tuple[list[Event], list[Event]]:
    chosen = match.apply(seat, action)
    return chosen, forced_by_hand(match)


def test_without_automate_a_forced_move_waits_and_play_forced_plays_it() -> None:
    match = Match("kolbasa", 2)
    rng = random.Random(3)
    match.deal_hand(rng)
    while match.forced_action() is None:
        seat = match.to_move
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_actions()))
    waiting = match.forced_action()
    assert waiting in (KNOCK, DRAW) and match.legal_actions() == (waiting,)  # it waits
    mover = match.to_move
    events = match.play_forced()
    assert isinstance(events[0], TileDrawn if waiting == DRAW else Knocked)
    assert events[0].seat == mover
    assert match.forced_action() is None and match.play_forced() == []
