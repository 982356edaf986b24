"""The check of a hand's deal against its seed (engine.dealcheck)."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import shlex

import pytest
from fairness_kit import dealt_before_seeds, played_hand, seed_of

from engine import (
    HandNotOverError,
    Match,
    NoSeedError,
    check_deal,
    fingerprint,
    match_from_json,
    match_to_json,
    verify,
)


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("pair", 4, None), ("gaple-dead", 4, None), ("gaple-dead", 5, None), ("kolbasa", 2, None),
    ("kolbasa", 4, None), ("muggins", 3, None), ("matador", 3, None), ("gaple", 4, {"set": 9}),
    ("pair", 4, {"first_lead": "lot"})])
def test_a_played_hand_checks_out_after_it_is_stored(
        game: str, seats: int, options: dict[str, object] | None) -> None:
    match = match_from_json(match_to_json(played_hand(game, seats, 40, options, hands=2)))
    for number in (0, 1):
        check = check_deal(match, number)
        seed = match.hands[number].deal.seed
        assert seed is not None and check.seed == seed.hex()
        assert check.fingerprint == hashlib.sha256(seed).hexdigest()[:16]
        assert check.ok, check
        assert check.hands == match.hands[number].deal.hands
        assert check.stock == match.hands[number].deal.stock
        assert check.opener == match.hands[number].opener
        tiles = [m.action.tile for m in match.hands[number].moves  # type: ignore[union-attr]
                 if getattr(m.action, "tile", None)]
        assert len(check.played) == len(set(tiles))
        assert f"--hand {number + 1}" in check.command()
        out = io.StringIO()  # the command line checks it too, with every seat's tiles
        for seat in range(seats):
            words = shlex.split(check.command(seat))
            assert verify.run(words[3:], out) == 0, out.getvalue()
        assert all(f"--option {k}={v}" in check.command() for k, v in (options or {}).items())


def test_a_deal_that_is_not_its_seeds_fails_the_check() -> None:
    """Had the bot dealt something else than the seed it showed, the check says so."""
    match = played_hand("pair", 4, 41)
    hand = match.hands[0]
    honest = check_deal(match, 0)
    hand.deal = dataclasses.replace(hand.deal, seed=seed_of(999))
    check = check_deal(match, 0)
    assert check.fingerprint == fingerprint(seed_of(999)) != honest.fingerprint
    assert check.fingerprint_ok  # that seed's own fingerprint, of course
    assert not check.deal_ok and not check.ok


def test_a_tile_played_from_another_hand_fails_the_check() -> None:
    match = played_hand("gaple", 4, 42)
    hand = match.hands[0]
    first = hand.moves[0]
    assert check_deal(match, 0).plays_ok
    # the first tile laid, said to be laid by the next seat
    hand.moves[0] = first._replace(seat=(first.seat + 1) % 4)
    check = check_deal(match, 0)
    assert check.deal_ok and not check.plays_ok and not check.ok
    assert check.strays == ((hand.moves[0].seat, first.action.tile),)  # type: ignore[union-attr]


def test_a_hand_being_played_or_dealt_without_a_seed_cannot_be_checked() -> None:
    match = Match("pair", 4)
    match.deal_from_seed(seed_of(43))
    with pytest.raises(HandNotOverError):
        check_deal(match, 0)
    with pytest.raises(HandNotOverError):
        check_deal(match, 5)
    with pytest.raises(NoSeedError):
        check_deal(dealt_before_seeds("pair", 4, 3), 0)
