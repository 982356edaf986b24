"""A seat or an action not made of the right values is bad input, refused before any rule
looks at it, by every way in (check, can, apply, step and the plain line's fast step), and
it changes nothing: a ``True`` seat once played as seat 1 and left a match that could not be
read back (rules audit)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_kit import deal, started

from engine import (
    KNOCK,
    BadInputError,
    Cut,
    Discard,
    End,
    Knock,
    Match,
    Play,
    Tile,
    match_from_json,
    match_to_json,
)
from engine.masks import tiles_of

GAMES = ["gaple", "pair", "muggins", "kolbasa", "gaple-dead", "matador"]


def _opening(name: str) -> tuple[Match, int, Tile]:
    """A match of ``name`` whose seat to move holds a tile it may lead."""
    match = Match(name, 4 if name in {"gaple", "pair", "gaple-dead"} else 2)
    match.deal_hand(random.Random(7))
    seat = match.to_move
    assert seat is not None
    lead = next(a for a in match.legal_actions() if type(a) is Play)
    assert lead.tile in tiles_of(match.hand.masks[seat])
    return match, seat, lead.tile


def _refused(match: Match, seat: Any, act: Any) -> None:
    before = match_to_json(match)
    for way in (match.check, match.apply, match.step):
        with pytest.raises(BadInputError):
            way(seat, act)
        assert match_to_json(match) == before
    assert not match.can(seat, act)


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_that_is_not_a_whole_number_is_bad_input(name: str) -> None:
    match, seat, tile = _opening(name)
    for wrong in (bool(seat) if seat in (0, 1) else True, float(seat), str(seat), None):
        _refused(match, wrong, Play(tile))
        _refused(match, wrong, KNOCK)


@pytest.mark.parametrize("name", GAMES)
def test_an_action_of_the_wrong_values_is_bad_input(name: str) -> None:
    match, seat, tile = _opening(name)
    for act in (
        None, "6-6", Knock, Play("6-6"), Play(None), Play(tile, "left"),  # type: ignore[arg-type]
        Play(tile, None, "3"), Play(tile, None, None, "yes"),  # type: ignore[arg-type]
        Discard(None), Cut(tile, "left"), Cut(None, End.LEFT),  # type: ignore[arg-type]
    ):
        _refused(match, seat, act)


def test_the_move_after_a_refused_true_seat_is_kept_and_read_back() -> None:
    match = started("gaple", deal(
        "0-0 0-1 0-2 0-3 0-4 0-5 0-6", "1-1 1-2 1-3 1-4 1-5 1-6 2-2",
        "2-3 2-4 2-5 2-6 3-3 3-4 3-5", "3-6 4-4 4-5 4-6 5-5 5-6 6-6"))
    seat = match.to_move
    assert seat == 3  # 6-6 leads
    _refused(match, True, Play(Tile(6, 6)))
    match.apply(seat, Play(Tile(6, 6)))
    again = match_from_json(match_to_json(match))
    assert [m.seat for m in again.hand.moves] == [3]
    assert type(again.hand.moves[0].seat) is int
