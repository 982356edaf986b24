"""Events for everything worth announcing, and none naming a hidden tile."""

from __future__ import annotations

from engine_kit import (
    MIDDLE,
    MIDDLE_TIE,
    NINE_NINE_WON,
    PAIR_OUT,
    deal,
    example_moves,
    play,
    started,
    tiles_in,
)

from engine import (
    End,
    HandEnded,
    HandEndReason,
    HandStarted,
    Knocked,
    Match,
    MatchEnded,
    Tile,
    TileDiscarded,
    TilePlayed,
)

PAIR_OUT_HANDS = PAIR_OUT


def test_hand_started_names_the_opener_and_the_tile_the_rules_force() -> None:
    match = Match("pair", 4)
    assert match.start_hand(deal(*PAIR_OUT_HANDS)) == [HandStarted(0, 1, None, (Tile(6, 6),), True)]


def test_hand_started_names_the_turned_up_tile() -> None:
    match = Match("gaple-dead", 4)
    events = match.start_hand(deal(*MIDDLE_TIE, middle=MIDDLE, lot=3))
    assert events == [HandStarted(0, 3, Tile(2, 6), ())]


def test_tile_played_says_who_laid_which_tile_where() -> None:
    match = started("pair", deal(*PAIR_OUT_HANDS))
    assert play(match, "1 6-6") == [TilePlayed(1, Tile(6, 6), End.LEFT, 6, 6, (6, 6))]
    play(match, "2 knock")
    assert play(match, "3 5-6 left") == [TilePlayed(3, Tile(5, 6), End.LEFT, 5, 6, (5, 6))]
    assert play(match, "0 4-6 right") == [TilePlayed(0, Tile(4, 6), End.RIGHT, 6, 4, (5, 4))]


def test_a_lead_is_announced_as_it_lies() -> None:
    match = started("pair", deal(*PAIR_OUT_HANDS), first_lead="lot")
    assert play(match, "0 5-0") == [TilePlayed(0, Tile(0, 5), End.LEFT, 5, 0, (5, 0))]


def test_knock_is_announced_with_the_ends_the_seat_could_not_match() -> None:
    match = started("pair", deal(*PAIR_OUT_HANDS))
    play(match, "1 6-6")
    assert play(match, "2 knock") == [Knocked(2, (6, 6))]


def test_dead_tile_is_announced_face_down() -> None:
    match = started("gaple-dead", deal(*MIDDLE_TIE, middle=MIDDLE))
    events = play(match, "0 0-2 left", "1 6-4", "2 dead 3-2")
    assert events == [TileDiscarded(2, 1, (0, 4))]
    assert list(tiles_in(events)) == []


def test_gaple_out_is_announced_with_the_hand_score_and_the_match_score() -> None:
    match = started("pair", deal(*PAIR_OUT_HANDS))
    *moves, last = example_moves("pair_out")
    play(match, *moves)
    events = play(match, last)
    assert events[1:] == [
        HandEnded(0, HandEndReason.OUT, 3, True, 1, (8, 4, 0, 0), (0, 8), (0, 8)),
    ]


def test_blocked_hand_and_match_won_are_announced() -> None:
    match = started("gaple", deal(*NINE_NINE_WON), set=9)
    events = play(match, "2 9-9")
    assert events == [
        TilePlayed(2, Tile(9, 9), End.LEFT, 9, 9, (9, 9)),
        HandEnded(0, HandEndReason.BLOCKED, None, False, 1, (28, 26, 66, 49), (0, 143, 0, 0),
                  (0, 143, 0, 0)),
        MatchEnded(1, (0, 143, 0, 0)),
    ]
