"""RULES.md, "Common to all games": one test per clause."""

from __future__ import annotations

import random

import pytest
from engine_kit import (
    NINE_NINE_TIED,
    PAIR_OUT,
    SIX_SIX_AT_0,
    action,
    deal,
    example_moves,
    play,
    started,
    tiles,
)

from engine import (
    KNOCK,
    BadInputError,
    End,
    EndRequiredError,
    HandEnded,
    HandEndReason,
    Knocked,
    Match,
    MustPlayError,
    Play,
    Tile,
    TileDoesNotFitError,
    TilePlayed,
    full_set,
    match_to_dict,
)
from engine.conformance import answer

PAIR_DEAL = deal(*SIX_SIX_AT_0)
# Four hands of seven from the double-9 set with no double among them.
NO_DOUBLES_9 = ("0-1 0-2 0-3 0-4 0-5 0-6 0-7", "1-2 1-3 1-4 1-5 1-6 1-7 1-8",
                "2-3 2-4 2-5 2-6 2-7 2-8 2-9", "3-4 3-5 3-6 3-7 3-8 3-9 4-5")


@pytest.mark.parametrize(("highest", "size"), [(6, 28), (9, 55), (12, 91)])
def test_set_double_n_holds_every_pair_once(highest: int, size: int) -> None:
    tiles_of_set = full_set(highest)
    assert len(tiles_of_set) == size == (highest + 1) * (highest + 2) // 2
    pairs = {(t.low, t.high) for t in tiles_of_set}
    assert pairs == {(a, b) for b in range(highest + 1) for a in range(b + 1)}


def test_set_other_than_6_9_12_is_refused() -> None:
    with pytest.raises(BadInputError):
        full_set(7)
    with pytest.raises(BadInputError):
        Match("pair", 4, {"set": 7})


def test_tiles_are_written_a_b_in_either_order() -> None:
    assert Tile.parse("5-3") is Tile.parse("3-5") is Tile(5, 3)
    assert str(Tile(5, 3)) == "3-5"
    assert Tile.parse("12-0") is Tile(0, 12)


def test_seats_take_turns_after_the_last_seat_comes_seat_0() -> None:
    match = started("pair", PAIR_DEAL)
    seen = [match.to_move]
    for text in ("0 6-6", "1 6-1 right", "2 1-2 right", "3 2-6 right"):
        play(match, text)
        seen.append(match.to_move)
    assert seen == [0, 1, 2, 3, 0]


def test_first_tile_sets_both_ends_as_written() -> None:
    for written, ends in (("4-3", (4, 3)), ("3-4", (3, 4))):
        match = started("pair", PAIR_DEAL, first_lead="lot")  # seat 0 drawn by lot
        play(match, f"0 {written}")
        assert match.hand.ends == ends
        assert [str(p) for p in match.hand.line.placed] == [written]


def test_a_double_first_sets_both_ends_to_its_number() -> None:
    match = started("pair", PAIR_DEAL)
    play(match, "0 6-6")
    assert match.hand.ends == (6, 6)


def test_tile_laid_at_an_end_showing_its_number_leaves_its_other_half_there() -> None:
    match = started("pair", PAIR_DEAL)
    events = play(match, "0 6-6", "1 6-1 right")
    assert match.hand.ends == (6, 1)
    assert events == [TilePlayed(1, Tile(1, 6), End.RIGHT, 6, 1, (6, 1))]
    events = play(match, "2 1-2")  # fits only the right end: the end may be left out
    assert match.hand.ends == (6, 2)
    assert [str(p) for p in match.hand.line.placed] == ["6-6", "6-1", "1-2"]


def test_tile_that_shows_neither_end_cannot_be_laid() -> None:
    match = started("pair", PAIR_DEAL)
    play(match, "0 6-6")
    assert not match.can(1, action("1 1-1"))
    with pytest.raises(TileDoesNotFitError, match="1-1 fits neither end"):
        match.check(1, action("1 1-1"))
    play(match, "1 6-1 right")
    with pytest.raises(TileDoesNotFitError, match="does not fit the left end"):
        match.check(2, action("2 1-2 left"))


def test_tile_fitting_both_different_ends_the_player_chooses_the_end() -> None:
    match = started("pair", PAIR_DEAL)
    play(match, "0 6-6", "1 6-1 right", "2 1-2")
    assert match.hand.ends == (6, 2)
    two_six = Tile(2, 6)
    assert {a.end for a in match.legal_actions() if type(a) is Play and a.tile is two_six} == {
        End.LEFT,
        End.RIGHT,
    }
    with pytest.raises(EndRequiredError):
        match.check(3, action("3 2-6"))
    left = Match("pair", 4)
    left.start_hand(PAIR_DEAL)
    play(left, "0 6-6", "1 6-1 right", "2 1-2", "3 2-6 left")
    assert left.hand.ends == (2, 2)
    play(match, "3 2-6 right")
    assert match.hand.ends == (6, 6)


def test_tile_fitting_both_equal_ends_goes_to_the_left_when_no_end_is_given() -> None:
    match = started("pair", PAIR_DEAL)
    play(match, "0 6-6")
    one_six = Tile(1, 6)
    assert [a for a in match.legal_actions() if type(a) is Play and a.tile is one_six] == [
        Play(one_six, End.LEFT)
    ]
    events = play(match, "1 6-1")
    assert [str(p) for p in match.hand.line.placed] == ["1-6", "6-6"]
    assert match.hand.ends == (1, 6)
    assert isinstance(events[0], TilePlayed) and events[0].end is End.LEFT


def test_player_holding_a_tile_that_can_be_laid_must_lay_one() -> None:
    match = started("pair", PAIR_DEAL)
    play(match, "0 6-6")
    with pytest.raises(MustPlayError, match="must play"):
        match.apply(1, KNOCK)
    assert all(type(a) is Play for a in match.legal_actions())


def test_only_a_player_who_cannot_lay_may_knock() -> None:
    # Seat 2 holds no 6 after seat 1 leads 6-6: knocking is its only action.
    match = started("pair", deal(*PAIR_OUT))
    play(match, "1 6-6")
    assert match.legal_actions() == (KNOCK,)
    assert play(match, "2 knock") == [Knocked(2, (6, 6))]
    assert len(match.hand.hands[2]) == 7


def test_tile_value_is_the_sum_of_its_halves() -> None:
    assert [t.pips for t in tiles("0-0 4-6 5-5 1-2")] == [0, 10, 10, 3]
    match = started("pair", PAIR_DEAL)
    assert match.hand.totals() == (45, 39, 39, 45)


@pytest.mark.parametrize(
    ("game", "seats", "options", "hand_size", "middle"),
    [
        ("gaple", 4, {"set": 9}, 7, 0),
        ("pair", 4, {"set": 12}, 7, 0),
        ("gaple-dead", 4, {"set": 12}, 6, 4),
        ("gaple-dead", 4, {"set": 9, "deal": 7}, 7, 0),
        ("gaple-dead", 5, {"set": 12}, 5, 3),
    ],
)
def test_tiles_neither_dealt_nor_in_the_middle_are_out_of_play_hand_sizes_stay(
    game: str, seats: int, options: dict[str, object], hand_size: int, middle: int
) -> None:
    match = Match(game, seats, options)
    match.deal_hand(random.Random(3))
    the_deal = match.hand.deal
    assert [len(h) for h in the_deal.hands] == [hand_size] * seats
    assert len(the_deal.middle) == middle
    in_play = {t for h in the_deal.hands for t in h} | set(the_deal.middle)
    out_of_play = set(full_set(match.options.set)) - in_play
    assert len(out_of_play) == len(full_set(match.options.set)) - seats * hand_size - middle
    seat = match.to_move
    assert seat is not None
    for tile in out_of_play:
        assert not match.can(seat, Play(tile))


def test_first_hand_led_by_the_highest_double_dealt_set_9() -> None:
    # 9-9 is not dealt; 8-8 is the highest double dealt, at seat 2.
    the_deal = deal(*NINE_NINE_TIED[:2], "8-8 7-7 6-6 5-5 4-4 3-3 3-9", NINE_NINE_TIED[3])
    for game in ("gaple", "pair"):
        match = started(game, the_deal, set=9)
        assert match.hand.opener == 2
        assert match.legal_actions() == (Play(Tile(8, 8)),)


def test_first_hand_led_by_the_highest_double_dealt_set_12() -> None:
    the_deal = deal(*NINE_NINE_TIED[:2], "8-8 7-7 6-6 5-5 4-4 3-3 3-9",
                    "1-5 1-6 1-7 2-3 2-4 2-5 11-11")
    match = started("pair", the_deal, set=12)
    assert match.hand.opener == 3
    assert match.legal_actions() == (Play(Tile(11, 11)),)


def test_first_hand_led_by_the_lowest_double_dealt_gaple_dead_deal_7_set_9() -> None:
    # 0-0 is out of play: 1-1, at seat 3, is the lowest double dealt.
    the_deal = deal(NINE_NINE_TIED[0], "9-9 1-2 1-3 1-4 0-8 2-2 2-8",
                    "8-8 7-7 6-6 5-5 4-4 3-3 3-9", "1-5 1-6 1-7 2-3 2-4 2-5 1-1")
    match = started("gaple-dead", the_deal, set=9, deal=7)
    assert match.hand.opener == 3
    assert match.legal_actions() == (Play(Tile(1, 1)),)


def test_first_hand_nobody_can_lead_without_a_double_dealt() -> None:
    no_doubles = deal(*NO_DOUBLES_9)
    for game, options in (("gaple", {}), ("pair", {}), ("gaple-dead", {"deal": 7})):
        match = Match(game, 4, {"set": 9, **options})
        with pytest.raises(BadInputError, match="nobody can lead"):
            match.start_hand(no_doubles)
        assert match.hands == []


def test_later_gaple_dead_hand_nobody_can_lead_without_a_double_dealt() -> None:
    # RULES.md: the previous hand's winner leads a double, or the next seat holding one; it
    # defines no redeal for gaple-dead (only Kolbasa's), so such a deal is refused as the
    # first hand's is (docs/conformance.md: bad_input). The first hand's play is any legal
    # play to its end: whoever won it, nobody holds a double in the second.
    rng = random.Random(0)
    match = Match("gaple-dead", 4, {"set": 9, "deal": 7, "target": 1000})
    match.deal_hand(rng)
    while not match.hand.over:
        match.step(match.hand.to_move, rng.choice(match.legal_actions()))  # type: ignore[arg-type]
    no_doubles = deal(*NO_DOUBLES_9)
    with pytest.raises(BadInputError, match="nobody can lead"):
        match.start_hand(no_doubles)
    assert len(match.hands) == 1
    scenario = match_to_dict(match, seeds=False)
    scenario["hands"].append({"deal": [hand.split() for hand in NO_DOUBLES_9], "actions": []})
    assert answer(scenario)["error"] == {"hand": 1, "action": None, "code": "bad_input"}


def test_blocked_as_soon_as_no_player_holds_a_tile_that_can_be_laid() -> None:
    match = started("pair", PAIR_DEAL)
    *moves, last = example_moves("pair_blocked_draw")
    play(match, *moves)
    assert not match.hand.over
    assert last == "1 6-4 left"
    events = play(match, last)  # every 6 is now laid and both ends show 6
    assert match.hand.ends == (6, 6)
    assert [type(e) for e in events] == [TilePlayed, HandEnded]
    ended = events[-1]
    assert isinstance(ended, HandEnded) and ended.reason is HandEndReason.BLOCKED
    assert match.to_move is None and match.legal_actions() == ()
    assert all(not match.hand.can_lay(seat) for seat in range(4))


def test_blocked_at_once_when_nobody_can_lay_on_the_turned_up_tile() -> None:
    # Double-12 set: nobody holds a 12, so the turned-up 12-12 blocks the hand before any move.
    match = started(
        "gaple-dead",
        deal(
            "0-2 3-3 4-4 5-5 1-6 2-7",
            "0-1 1-2 3-4 2-9 4-8 0-8",
            "9-9 10-10 11-11 8-8 7-7 6-6",
            "9-10 10-11 9-11 8-10 8-11 7-11",
            middle="12-12 11-12 10-12 9-12",
        ),
        set=12,
        target=1000,
    )
    assert match.hand.over and match.hand.moves == []
    assert match.hand.result is not None
    assert match.hand.result.reason is HandEndReason.BLOCKED


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("pair", 4, {"set": 8}),
        ("pair", 4, {"set": "6"}),
        ("pair", 4, {"set": True}),
        ("gaple", 4, {"target": 0}),
        ("gaple", 4, {"target": -5}),
        ("gaple", 4, {"target": 1.5}),
        ("gaple", 4, {"target": "100"}),
        ("gaple", 4, {"target": True}),
        ("gaple", 4, {"target": None}),
        ("gaple-dead", 4, {"deal": 5}),
        ("gaple-dead", 4, {"deal": 8}),
        ("gaple-dead", 5, {"deal": 6}),
        ("gaple-dead", 5, {"deal": 7}),
        ("gaple-dead", 4, {"dead_tiles": 1}),
        ("gaple-dead", 4, {"dead_tiles": "no"}),
        ("gaple-dead", 4, {"blank_double_25": 0}),
        ("pair", 4, {"first_lead": "5-5"}),
        ("pair", 4, {"block_count": "none"}),
        ("pair", 4, {"dead_tiles": False}),
        ("pair", 4, {"deal": 7}),
        ("pair", 4, {"blank_double_25": True}),
        ("gaple", 4, {"deal": 7}),
        ("gaple", 4, {"first_lead": "lot"}),
        ("gaple", 4, {"block_count": "all"}),
        ("gaple-dead", 4, {"first_lead": "lot"}),
        ("gaple-dead", 4, {"block_count": "all"}),
        ("gaple-dead", 4, {"colour": "red"}),
        ("pair", 4, []),
    ],
)
def test_option_values_outside_the_rules_are_bad_input(
    game: str, players: int, options: object
) -> None:
    result = answer({"variant": game, "players": players, "options": options, "hands": []})
    assert result["error"] == {"hand": None, "action": None, "code": "bad_input"}
    assert result["hands"] == []
    with pytest.raises(BadInputError):
        Match(game, players, options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("pair", 4, {"set": 9, "target": 1, "first_lead": "lot", "block_count": "all"}),
        ("pair", 4, {"first_lead": "6-6", "block_count": "opponents"}),
        ("gaple", 4, {"set": 12, "target": 250}),
        ("gaple-dead", 4, {"deal": 7, "dead_tiles": False, "blank_double_25": True}),
        ("gaple-dead", 4, {"deal": 6}),
        ("gaple-dead", 5, {"deal": 5, "set": 9}),
        ("gaple-dead", 5, None),
    ],
)
def test_option_values_within_the_rules_are_accepted(
    game: str, players: int, options: dict[str, object] | None
) -> None:
    data: dict[str, object] = {"variant": game, "players": players, "hands": []}
    if options is not None:
        data["options"] = options
    assert answer(data)["error"] is None
    match = Match(game, players, options)
    for name, value in (options or {}).items():
        assert getattr(match.options, name) == value
