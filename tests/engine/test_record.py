"""Stored matches: JSON out and back to the same state; anything damaged is refused whole."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from engine_kit import snapshot

from engine import (
    CorruptMatchError,
    KeptHands,
    Match,
    match_from_json,
    match_to_dict,
    match_to_json,
    player_view,
    table_view,
)
from engine.record import FORMAT, VERSION, _digest


def random_match(game: str, seats: int, seed: int, moves: int | None = None,
                 **options: object) -> Match:
    """A match played at random: to its end, or for ``moves`` moves."""
    rng = random.Random(seed)
    match = Match(game, seats, options)
    match.deal_hand(rng)
    made = 0
    while not match.over and (moves is None or made < moves):
        if match.can_deal():
            match.deal_hand(rng)
            continue
        seat = match.to_move
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_actions()))
        made += 1
    return match


def stored(match: Match) -> dict[str, Any]:
    return json.loads(match_to_json(match))


def resealed(data: dict[str, Any]) -> str:
    """``data`` with its digest recomputed, as a tamperer who knows the format would."""
    data["digest"] = _digest(data)
    return json.dumps(data)


def same_state(a: Match, b: Match) -> None:
    assert snapshot(a) == snapshot(b)
    assert table_view(a) == table_view(b)
    for seat in range(a.seats):
        assert player_view(a, seat) == player_view(b, seat)


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("pair", 4, {}),
        ("gaple", 4, {"set": 9}),
        ("gaple-dead", 4, {}),
        ("gaple-dead", 4, {"deal": 7, "blank_double_25": True}),
        ("gaple-dead", 5, {"set": 12, "dead_tiles": False}),
    ],
)
def test_round_trip_gives_the_same_state(game: str, seats: int, options: dict[str, Any]) -> None:
    for moves in (0, 1, 17, None):
        match = random_match(game, seats, 11, moves, **options)
        text = match_to_json(match)
        back = match_from_json(text)
        same_state(match, back)
        assert match_to_json(back) == text
        assert match_from_json(text.encode()).scores == match.scores


@pytest.mark.parametrize(("game", "seats"), [("pair", 4), ("gaple-dead", 4), ("kolbasa", 2),
                                            ("matador", 3), ("muggins", 4), ("french", 2)])
def test_kept_hands_write_the_same_text_after_every_move(game: str, seats: int) -> None:
    rng = random.Random(5)
    match = Match(game, seats, {})
    kept, unseeded = KeptHands(), KeptHands()
    writes = 0
    while not match.over and writes < 400:
        if match.can_deal():
            match.deal_hand(rng)
        else:
            seat = match.to_move
            assert seat is not None
            match.apply(seat, rng.choice(match.legal_actions()))
        assert match_to_json(match, kept=kept) == match_to_json(match)
        assert match_to_json(match, False, unseeded) == match_to_json(match, False)
        writes += 1
    assert len(match.hands) > 1
    text = match_to_json(match, kept=kept)
    # another match (here: the same one loaded again) is written afresh, not from the kept
    back = match_from_json(text)
    assert match_to_json(back, kept=kept) == text
    assert match_to_json(random_match(game, seats, 9, 3), kept=kept) == match_to_json(
        random_match(game, seats, 9, 3))


def test_stored_match_names_its_format_version_and_options() -> None:
    data = match_to_dict(random_match("pair", 4, 3, 5, block_count="all"))
    assert data["format"] == FORMAT and data["version"] == VERSION == 1
    assert data["variant"] == "pair" and data["players"] == 4
    assert data["options"] == {"set": 6, "target": 100, "first_lead": "6-6",
                               "block_count": "all"}
    assert len(data["digest"]) == 64


def refused(text: str | bytes) -> CorruptMatchError:
    with pytest.raises(CorruptMatchError) as caught:
        match_from_json(text)
    assert str(caught.value)
    return caught.value


def good() -> dict[str, Any]:
    return stored(random_match("gaple-dead", 4, 5, 30))


def test_refuses_text_that_is_not_json() -> None:
    assert "not JSON" in str(refused("{not json"))
    refused("")
    refused(b"\xff\xfe\x00")  # not UTF-8
    refused("[" * 100_000)  # nested too deep to parse


def test_refuses_truncated_json() -> None:
    text = json.dumps(good())
    for cut in (1, len(text) // 2, len(text) - 1):
        refused(text[:cut])


def test_refuses_json_that_is_not_a_stored_match() -> None:
    refused("[]")
    refused('"a match"')
    data = good()
    del data["format"]
    refused(resealed(data))
    refused(resealed({**good(), "format": "chess-match"}))


@pytest.mark.parametrize("version", [2, 0, "1", 1.0, True, None])
def test_refuses_an_unknown_format_version(version: object) -> None:
    data = good()
    data["version"] = version
    assert "version" in str(refused(resealed(data)))


def test_refuses_a_digest_mismatch() -> None:
    data = good()
    data["hands"][0]["actions"][0]["seat"] = (data["hands"][0]["actions"][0]["seat"] + 1) % 4
    assert "digest" in str(refused(json.dumps(data)))
    data = good()
    data["digest"] = "0" * 64
    refused(json.dumps(data))
    data = good()
    del data["digest"]
    refused(json.dumps(data))


def test_refuses_an_illegal_action_even_with_a_recomputed_digest() -> None:
    data = good()
    actions = data["hands"][0]["actions"]
    actions.append(dict(actions[-1]))  # the same seat again: not its turn, or hand over
    assert "does not replay" in str(refused(resealed(data)))


def test_refuses_a_changed_deal_with_a_recomputed_digest() -> None:
    data = good()
    deal = data["hands"][0]["deal"]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]  # the moves no longer fit the hands
    refused(resealed(data))
    data = good()
    data["hands"][0]["deal"][0][0] = data["hands"][0]["deal"][1][0]  # a tile twice
    refused(resealed(data))


def test_refuses_bad_options_and_tables_with_a_recomputed_digest() -> None:
    for change in ({"options": {"target": 0}}, {"players": 6}, {"variant": "chess"},
                   {"options": "x"}, {"hands": "x"}):
        refused(resealed({**good(), **change}))


def test_refuses_an_unfinished_hand_before_the_last() -> None:
    data = stored(random_match("pair", 4, 8, target=300))
    assert len(data["hands"]) >= 2
    data["hands"][0]["actions"].pop()
    refused(resealed(data))


def test_refusal_leaves_nothing_half_built() -> None:
    data = good()
    data["hands"][0]["actions"].append({"seat": 9, "knock": True})
    result: Match | None = None
    with pytest.raises(CorruptMatchError):
        result = match_from_json(resealed(data))
    assert result is None


def test_corrupt_match_error_is_bad_input() -> None:
    error = refused("{")
    assert isinstance(error, ValueError) and error.code == "bad_input"
