"""Every refusal: its class, its conformance code, a message a player could read, and that a
refused action changes nothing. Also the bad_input cases of docs/conformance.md and which
error wins when an action is wrong in several ways."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest
from engine_kit import (
    MIDDLE,
    MIDDLE_TIE,
    SIX_SIX_AT_0,
    action,
    deal,
    example,
    example_moves,
    hand_dict,
    play,
    scenario,
    snapshot,
    started,
)

from engine import (
    KNOCK,
    BadInputError,
    CorruptMatchError,
    Discard,
    DominoError,
    EndRequiredError,
    HandOverError,
    IllegalActionError,
    Match,
    MustPlayError,
    NotYourTurnError,
    Play,
    Tile,
    TileDoesNotFitError,
    TileNotInHandError,
    WrongLeadError,
    WrongStuckActionError,
)
from engine.conformance import answer

PAIR_HANDS = SIX_SIX_AT_0
BLOCKING_MOVES = example_moves("pair_blocked_draw")  # the hand is blocked after these
MIDDLE_HANDS = MIDDLE_TIE


def pair_match() -> Match:
    return started("pair", deal(*PAIR_HANDS))


def refuse(match: Match, seat: int, act: Any, error: type[DominoError]) -> DominoError:
    """Check that ``act`` is refused with ``error`` by check, can, apply and step alike, and
    that the refusal leaves the match exactly as it was."""
    before = snapshot(match)
    with pytest.raises(error) as by_check:
        match.check(seat, act)
    assert not match.can(seat, act)
    with pytest.raises(error):
        match.apply(seat, act)
    assert snapshot(match) == before
    with pytest.raises(error):
        match.step(seat, act)
    assert snapshot(match) == before
    message = str(by_check.value)
    assert message.strip()  # words a player reads, never a Python repr
    assert not re.search(r"Tile\(|End\.|<|>|Play\(|None", message), message
    return by_check.value


@pytest.mark.parametrize(
    ("error", "code", "parent"),
    [
        (NotYourTurnError, "not_your_turn", DominoError),
        (HandOverError, "hand_over", DominoError),
        (IllegalActionError, "illegal", DominoError),
        (TileNotInHandError, "illegal", IllegalActionError),
        (TileDoesNotFitError, "illegal", IllegalActionError),
        (WrongLeadError, "illegal", IllegalActionError),
        (MustPlayError, "illegal", IllegalActionError),
        (WrongStuckActionError, "illegal", IllegalActionError),
        (EndRequiredError, "end_required", DominoError),
        (BadInputError, "bad_input", DominoError),
        (CorruptMatchError, "bad_input", BadInputError),
    ],
)
def test_every_error_is_a_domino_value_error_with_its_conformance_code(
    error: type[DominoError], code: str, parent: type[DominoError]
) -> None:
    assert issubclass(error, parent) and issubclass(error, ValueError)
    assert error.code == code


def test_not_your_turn() -> None:
    match = pair_match()
    err = refuse(match, 2, action("2 1-2"), NotYourTurnError)
    assert str(err) == "it is not your turn"


@pytest.mark.parametrize("seat", [4, 99, -1])
def test_a_seat_not_at_the_table_is_not_your_turn(seat: int) -> None:
    refuse(pair_match(), seat, Play(Tile(6, 6)), NotYourTurnError)
    refuse(pair_match(), seat, KNOCK, NotYourTurnError)


def test_tile_not_in_hand() -> None:
    match = pair_match()
    err = refuse(match, 0, Play(Tile(6, 1)), TileNotInHandError)
    assert str(err) == "you do not hold 1-6"
    m = started("gaple-dead", deal(*MIDDLE_HANDS, middle=MIDDLE))
    play(m, "0 0-2 left", "1 6-4")
    assert str(refuse(m, 2, Discard(Tile(0, 0)), TileNotInHandError)) == "you do not hold 0-0"


def test_tile_does_not_fit_the_chosen_end() -> None:
    match = pair_match()
    play(match, "0 6-6", "1 6-1 right")
    err = refuse(match, 2, action("2 1-2 left"), TileDoesNotFitError)
    assert str(err) == "1-2 does not fit the left end"


def test_tile_fits_neither_end() -> None:
    match = pair_match()
    play(match, "0 6-6")
    assert str(refuse(match, 1, action("1 1-1"), TileDoesNotFitError)) == "1-1 fits neither end"


def test_first_tile_laid_as_written_must_show_the_half_named_first() -> None:
    match = started("pair", deal(*PAIR_HANDS), first_lead="lot")
    refuse(match, 0, Play(Tile(3, 4), None, 5), TileDoesNotFitError)


def test_wrong_lead() -> None:
    err = refuse(pair_match(), 0, Play(Tile(0, 6)), WrongLeadError)
    assert str(err) == "this hand must be led with 6-6"


def test_must_play_instead_of_knocking_or_discarding() -> None:
    match = pair_match()
    play(match, "0 6-6")
    assert str(refuse(match, 1, KNOCK, MustPlayError)) == "you must play when you can"
    m = started("gaple-dead", deal(*MIDDLE_HANDS, middle=MIDDLE))
    refuse(m, 0, Discard(Tile(1, 6)), MustPlayError)


def test_wrong_stuck_action_knock_where_dead_tiles_are_played() -> None:
    m = started("gaple-dead", deal(*MIDDLE_HANDS, middle=MIDDLE))
    play(m, "0 0-2 left", "1 6-4")
    err = refuse(m, 2, KNOCK, WrongStuckActionError)
    assert str(err) == "in this game a stuck player discards a dead tile"


def test_wrong_stuck_action_discard_where_stuck_players_knock() -> None:
    match = pair_match()
    play(match, "0 6-6", "1 6-1 right", "2 1-2 right", "3 2-6 right")
    for game_match in (match, started("gaple", deal(*PAIR_HANDS))):
        seat = game_match.to_move
        assert seat is not None
        tile = game_match.hand.hands[seat][0]
        err = refuse(game_match, seat, Discard(tile), WrongStuckActionError)
        assert str(err) == "in this game a stuck player knocks"


def test_end_required() -> None:
    match = pair_match()
    play(match, "0 6-6", "1 6-1 right", "2 1-2")
    err = refuse(match, 3, action("3 2-6"), EndRequiredError)
    assert str(err) == "2-6 fits both ends: choose one"


def test_hand_over() -> None:
    match = pair_match()
    play(match, *BLOCKING_MOVES)
    assert match.hand.over
    err = refuse(match, 2, action("2 3-5"), HandOverError)
    assert str(err) == "this hand is already over"
    refuse(match, 2, KNOCK, HandOverError)
    refuse(match, 7, KNOCK, HandOverError)  # even a seat not at the table: the hand is over


def test_no_hand_dealt_yet_is_hand_over() -> None:
    match = Match("pair", 4)
    with pytest.raises(HandOverError):
        match.apply(0, KNOCK)
    with pytest.raises(HandOverError):
        match.step(0, KNOCK)
    with pytest.raises(HandOverError):
        match.check(0, KNOCK)
    assert not match.can(0, KNOCK)
    assert match.legal_actions() == () and match.to_move is None


def test_dealing_during_an_unfinished_hand_is_bad_input() -> None:
    match = pair_match()
    with pytest.raises(BadInputError, match="not finished"):
        match.start_hand(deal(*PAIR_HANDS))
    with pytest.raises(BadInputError, match="not finished"):
        match.deal_hand(random.Random(0))
    assert len(match.hands) == 1


# --- bad_input in scenarios, with where it was found -------------------------------------
def _pair(*hands: dict[str, object], **extra: object) -> dict[str, object]:
    data = scenario("pair", *hands)
    data.update(extra)
    return data


def _hand(*moves: str, hands: tuple[str, ...] = PAIR_HANDS, **extra: object) -> dict[str, Any]:
    data = hand_dict(*hands, moves=moves)
    data.update(extra)
    return data


FINISHED = _hand(*BLOCKING_MOVES)  # blocked and drawn
PAIR_OUT = example("pair_out")["hands"][0]  # pair 1 wins it and scores 8


def _with_deal(seat: int, tiles: list[str]) -> dict[str, Any]:
    data = _hand()
    data["deal"] = copy.deepcopy(data["deal"])
    data["deal"][seat] = tiles
    return data


BAD_INPUT: list[tuple[str, dict[str, Any], int | None, int | None]] = [
    ("unknown variant", {"variant": "chess", "players": 4, "hands": []}, None, None),
    ("variant not a string", {"variant": 3, "players": 4}, None, None),
    ("unknown option", _pair(options={"spinner": True}), None, None),
    ("bad option value", _pair(options={"target": -1}), None, None),
    ("wrong number of seats", {"variant": "pair", "players": 5, "hands": []}, None, None),
    ("players not a number", {"variant": "gaple", "players": "4", "hands": []}, None, None),
    ("wrong number of hands in a deal", _pair({"deal": [PAIR_HANDS[0].split()] * 3}), 0, None),
    ("wrong number of tiles in a deal", _pair(_with_deal(1, ["6-1", "5-0"])), 0, None),
    ("a tile twice", _pair(_with_deal(1, PAIR_HANDS[0].split())), 0, None),
    ("tile not in the set", _pair(_with_deal(3, ["2-6", "3-6", "2-2", "2-3", "2-4", "2-5",
                                                 "7-7"])), 0, None),
    ("tile not written a-b", _pair(_with_deal(3, ["2-6", "3-6", "2-2", "2-3", "2-4", "2-5",
                                                  "3/3"])), 0, None),
    ("tile as a number", _pair(_with_deal(3, ["2-6", "3-6", "2-2", "2-3", "2-4", "2-5",
                                              33])), 0, None),
    ("wrong number of middle tiles", scenario("gaple-dead", hand_dict(
        *MIDDLE_HANDS, middle="2-6 0-0 0-4")), 0, None),
    ("a middle where the game has none", _pair(_hand(middle=["0-0"])), 0, None),
    ("first hand nobody can lead", scenario("gaple", hand_dict(
        "0-1 0-2 0-3 0-4 0-5 0-6 0-7", "1-2 1-3 1-4 1-5 1-6 1-7 1-8",
        "2-3 2-4 2-5 2-6 2-7 2-8 2-9", "3-4 3-5 3-6 3-7 3-8 3-9 4-5"), options={"set": 9}),
     0, None),
    ("first seat by lot not at the table", scenario("gaple-dead", hand_dict(
        *MIDDLE_HANDS, middle=MIDDLE, first=4)), 0, None),
    ("action with no kind", _pair(_hand() | {"actions": [{"seat": 0}]}), 0, 0),
    ("action with two kinds", _pair(_hand() | {"actions": [
        {"seat": 0, "play": "6-6", "knock": True}]}), 0, 0),
    ("knock not true", _pair(_hand() | {"actions": [{"seat": 0, "knock": False}]}), 0, 0),
    ("end neither left nor right", _pair(_hand() | {"actions": [
        {"seat": 0, "play": "6-6", "end": "top"}]}), 0, 0),
    ("seat not a number", _pair(_hand() | {"actions": [{"seat": "0", "play": "6-6"}]}), 0, 0),
    ("hand after an unfinished hand", _pair(_hand("0 6-6"), _hand()), 1, None),
    ("hand after the match ended", scenario("pair", PAIR_OUT, _hand(), options={"target": 8}),
     1, None),
]


@pytest.mark.parametrize(("data", "hand", "index"), [case[1:] for case in BAD_INPUT],
                         ids=[case[0] for case in BAD_INPUT])
def test_bad_input_is_reported_where_it_was_found(
    data: dict[str, Any], hand: int | None, index: int | None
) -> None:
    assert answer(data)["error"] == {"hand": hand, "action": index, "code": "bad_input"}


def test_sides_are_empty_when_the_variant_is_unknown() -> None:
    assert answer({"variant": "chess", "players": 4})["match"]["sides"] == []
    assert answer({"variant": "pair", "players": 3})["match"]["sides"] == [[0, 2], [1, 3]]


def test_scenario_that_is_not_an_object_is_bad_input() -> None:
    for data in ([], "pair", 3, None):
        assert answer(data)["error"] == {"hand": None, "action": None, "code": "bad_input"}


# --- which error wins -------------------------------------------------------------------
@pytest.mark.parametrize(
    "bad_action",
    [
        {"seat": 1, "play": "6-1", "knock": True},
        {"seat": 1},
        {"seat": 1, "play": "9-9"},
        {"seat": 1, "play": "61"},
        {"seat": None, "play": "6-1"},
        {"seat": 1, "dead": "x"},
    ],
)
def test_malformed_action_is_bad_input_before_hand_over(bad_action: dict[str, Any]) -> None:
    data = _pair(FINISHED | {"actions": [*FINISHED["actions"], bad_action]})
    error = answer(data)["error"]
    assert error == {"hand": 0, "action": len(BLOCKING_MOVES), "code": "bad_input"}


@pytest.mark.parametrize(
    "bad_action",
    [{"seat": 2, "play": "6-6", "dead": "0-0"}, {"seat": 7, "play": "7-7"}, {"seat": 2.0}],
)
def test_malformed_action_is_bad_input_before_not_your_turn(bad_action: dict[str, Any]) -> None:
    data = _pair(_hand() | {"actions": [bad_action]})
    assert answer(data)["error"] == {"hand": 0, "action": 0, "code": "bad_input"}


def test_action_after_the_hand_ended_is_hand_over_before_not_your_turn() -> None:
    data = _pair(FINISHED | {"actions": [*FINISHED["actions"], {"seat": 3, "knock": True}]})
    assert answer(data)["error"] == {"hand": 0, "action": 10, "code": "hand_over"}


@pytest.mark.parametrize("seat", [4, 9, -1])
def test_action_by_a_seat_not_at_the_table_is_not_your_turn(seat: int) -> None:
    data = _pair(_hand("0 6-6") | {"actions": [{"seat": 0, "play": "6-6"},
                                               {"seat": seat, "knock": True}]})
    assert answer(data)["error"] == {"hand": 0, "action": 1, "code": "not_your_turn"}


def test_wrong_seat_with_a_tile_it_does_not_hold_is_not_your_turn() -> None:
    data = _pair(_hand("2 6-6"))
    assert answer(data)["error"] == {"hand": 0, "action": 0, "code": "not_your_turn"}


def test_first_is_ignored_where_the_rules_choose_nobody_by_lot() -> None:
    for first in (9, -3, "x", None):
        result = answer(_pair(_hand("0 6-6") | {"first": first}))
        assert result["error"] is None
        assert result["hands"][0]["opener"] == 0


def test_first_chooses_the_opener_where_the_rules_choose_by_lot() -> None:
    data = scenario("pair", _hand() | {"first": 3}, options={"first_lead": "lot"})
    assert answer(data)["hands"][0]["opener"] == 3
    data = scenario("pair", _hand() | {"first": 4}, options={"first_lead": "lot"})
    assert answer(data)["error"] == {"hand": 0, "action": None, "code": "bad_input"}


# docs/conformance.md: "a `give` or `cross` of the wrong type, is `bad_input` in every game",
# also on an action where the word means nothing (a knock, a play in a game of the plain line).
WRONG_TYPES = [{"cross": "yes"}, {"cross": 1}, {"give": "up"}, {"give": 0}, {"give": True}]


@pytest.mark.parametrize(
    ("name", "index"),
    [("gaple_out", 1), ("gaple_out", 22), ("gaple_dead_middle_tie", 0),
     ("muggins_spinner_lead", 1), ("muggins_spinner_lead", 4), ("kolbasa_out_by_cut", 1)],
)
@pytest.mark.parametrize("extra", WRONG_TYPES, ids=str)
def test_cross_or_give_of_the_wrong_type_is_bad_input_in_every_game(
    name: str, index: int, extra: dict[str, object]
) -> None:
    data = copy.deepcopy(example(name))
    assert answer(data)["error"] is None
    data["hands"][0]["actions"][index].update(extra)
    assert answer(data)["error"] == {"hand": 0, "action": index, "code": "bad_input"}


@pytest.mark.parametrize("name", ["gaple_out", "kolbasa_out_by_cut"])
def test_cross_and_give_of_the_right_type_or_null_are_no_error(name: str) -> None:
    data = copy.deepcopy(example(name))
    expected = answer(data)
    for act in data["hands"][0]["actions"]:
        act.setdefault("cross", None)
        act.setdefault("give", None)
    assert answer(data) == expected
