"""The moves nobody decides (a knock when nothing fits, a draw when the stock must be used, the
discard of a stuck seat's only tile where dead tiles are played) are the engine's: a match
built with ``automate=True`` plays them as soon as they are due, for every caller alike,
exactly as the bot's service used to play them itself."""

from __future__ import annotations

import random

import pytest
from engine_kit import deal, play
from test_rules_gaple_dead import DISCARDER_DEAL, DISCARDER_MOVES

from engine import (
    DRAW,
    KNOCK,
    VARIANTS,
    Action,
    Discard,
    Event,
    HandEnded,
    Knocked,
    Match,
    Tile,
    TileDiscarded,
    TileDrawn,
    match_from_json,
)
from engine import match_to_json as to_json

GAMES = [(name, seats) for name, game in VARIANTS.items() for seats in game.seat_counts]


def only_forced(legal: tuple[Action, ...]) -> bool:
    """A knock, a draw or a discard as the only legal action."""
    return len(legal) == 1 and (legal[0] in (KNOCK, DRAW) or isinstance(legal[0], Discard))


def forced_by_hand(match: Match) -> list[Event]:
    """The reference: the loop the bot's service ran after every move (knock or draw while
    that is the only legal action, whoever is to move; the next hand is not dealt), and now
    the discard of a stuck seat's only tile."""
    events: list[Event] = []
    while not match.hand.over and only_forced(match.legal_actions()):
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
            assert not only_forced(legal)  # never left to a player
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



# gaple-dead, double-12 set, turned-up 0-1 whose 0 end is never reopened: seat 0 holds only
# tiles of 10 to 12 and is stuck every turn while seats 1-3 lay (test_rules_gaple_dead's deal);
# after these moves seat 0 discards 11-12 or 12-12, its choice; seats 1-3 lay 7-8, 8-8, 8-9
STUCK_DEAL = DISCARDER_DEAL
STUCK_MOVES = DISCARDER_MOVES[:16]


def stuck_seat(automate: bool = False) -> Match:
    match = Match("gaple-dead", 4, {"set": 12, "target": 1000}, automate=automate)
    match.start_hand(deal(*STUCK_DEAL, middle="0-1 1-12 2-12 3-12"))
    play(match, *STUCK_MOVES)
    return match


def test_a_stuck_seat_s_only_tile_goes_face_down_by_itself_where_dead_tiles_are_played() -> None:
    """Player QA (gaple-dead): a seat holding one tile that fits nowhere was asked to choose
    it, then to confirm, while its timer ran; it is the only legal action, so nobody decides
    it. With two tiles left, which one goes face down is the player's choice."""
    match = stuck_seat()
    assert match.to_move == 0 and match.hand.hands[0] == [Tile(11, 12), Tile(12, 12)]
    assert len(match.legal_actions()) == 2 and match.forced_action() is None
    assert match.play_forced() == []  # a choice: it waits for the player
    play(match, "0 dead 11-12", "1 7-8", "2 8-8", "3 8-9")
    assert match.hand.hands[0] == [Tile(12, 12)] and match.hand.ends == (0, 9)
    assert match.forced_action() == Discard(Tile(12, 12))
    events = match.play_forced()
    assert events[0] == TileDiscarded(0, 6, (0, 9))
    assert isinstance(events[-1], HandEnded) and events[-1].out_seat == 0
    assert match.hand.dead[0][-1] == Tile(12, 12) and match.hand.over
    # The record holds it like any move: the match replays without automation.
    assert match_from_json(to_json(match)).hand.moves == match.hand.moves


def test_automate_discards_the_only_tile_after_the_move_before_it() -> None:
    match = stuck_seat(automate=True)
    play(match, "0 dead 11-12", "1 7-8", "2 8-8")
    assert not match.hand.over
    events = play(match, "3 8-9")  # hands seat 0 its turn, with 12-12 alone
    assert match.hand.over and match.hand.dead[0][-1] == Tile(12, 12)
    assert [type(e) for e in events][-2:] == [TileDiscarded, HandEnded]
