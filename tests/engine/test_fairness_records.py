"""Seeded deals in stored matches and in views: a stored deal is held to its seed, old
matches without seeds still load, a copy without seeds has none, and no view shows a seed
before the hand is over."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import fields, is_dataclass

import pytest
from fairness_kit import play_out, seeds

from engine import (
    CorruptMatchError,
    Match,
    fingerprint,
    match_from_json,
    match_to_json,
    player_view,
    table_view,
)
from engine.record import _digest


# --- stored matches keep their deals to their seeds ----------------------------------------
def seeded_match(game: str, seats: int, hands: int, **options: object) -> Match:
    match = Match(game, seats, options)
    rng = random.Random(game)
    for seed in seeds(f"stored {game}", hands):
        if match.over:
            break
        match.deal_from_seed(seed)
        play_out(match, rng)
    return match


def resealed(data: dict[str, object]) -> str:
    data["digest"] = _digest(data)
    return json.dumps(data)


@pytest.mark.parametrize(("game", "seats"), [("gaple", 4), ("matador", 3), ("gaple-dead", 4)])
def test_a_stored_deal_its_seed_does_not_make_is_corrupt(game: str, seats: int) -> None:
    match = seeded_match(game, seats, 2)
    text = match_to_json(match)
    assert match_from_json(text).hands[1].deal.seed == match.hands[1].deal.seed
    other = json.loads(text)
    other["hands"][1]["seed"] = seeds("another", 1)[0].hex()
    with pytest.raises(CorruptMatchError):
        match_from_json(resealed(other))
    swapped = json.loads(text)
    deal = swapped["hands"][0]["deal"]
    deal[0][0], deal[1][0] = deal[1][0], deal[0][0]
    with pytest.raises(CorruptMatchError):
        match_from_json(resealed(swapped))
    lot = json.loads(text)
    lot["hands"][0]["first"] = (lot["hands"][0]["first"] + 1) % seats
    with pytest.raises(CorruptMatchError):  # even where the lot chooses nobody
        match_from_json(resealed(lot))
    bad = json.loads(text)
    bad["hands"][0]["seed"] = "zz" * 32
    with pytest.raises(CorruptMatchError):
        match_from_json(resealed(bad))


def test_a_stored_match_without_seeds_still_loads() -> None:
    match = seeded_match("muggins", 3, 3)
    old = json.loads(match_to_json(match))
    for hand in old["hands"]:
        del hand["seed"]
    loaded = match_from_json(resealed(old))
    assert [h.deal.seed for h in loaded.hands] == [None] * len(match.hands)
    assert loaded.scores == match.scores
    assert [h.moves for h in loaded.hands] == [h.moves for h in match.hands]


def test_a_copy_without_seeds_has_none() -> None:
    match = seeded_match("kolbasa", 2, 2)
    for seed in (h.deal.seed for h in match.hands):
        assert seed is not None
        assert seed.hex() in match_to_json(match)
        assert seed.hex() not in match_to_json(match, seeds=False)
    assert '"seed"' not in match_to_json(match, seeds=False)
    assert match_from_json(match_to_json(match, seeds=False)).scores == match.scores


def _bytes_in(value: object, seen: set[int]) -> Iterator[bytes]:
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, bytes):
        yield value
    elif is_dataclass(value) and not isinstance(value, type):
        for field in fields(value):
            yield from _bytes_in(getattr(value, field.name), seen)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from _bytes_in(item, seen)
    elif isinstance(value, dict):
        for item in value.items():
            yield from _bytes_in(item, seen)


@pytest.mark.parametrize(("game", "seats"), [("pair", 4), ("french", 3), ("gaple-dead", 5)])
def test_no_view_holds_the_seed_before_the_hand_is_over(game: str, seats: int) -> None:
    match = Match(game, seats)
    seed = seeds("views", 1)[0]
    match.deal_from_seed(seed)
    rng = random.Random(game)
    while True:
        table = table_view(match)
        assert table.fingerprint == fingerprint(seed)
        if match.hand.over:
            assert table.seed == seed.hex()  # the hand's result shows it
            break
        for view in (table, *(player_view(match, s) for s in range(seats))):
            assert seed not in list(_bytes_in(view, set()))
            assert seed.hex() not in repr(view)
        seat = match.to_move
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_actions()))
