"""The check of a hand's deal (bot.service.fairness)."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import random
import shlex

import pytest

from bot.errors import UserError
from bot.models import Game, Messages, Player, SeatChange, Status
from bot.service.fairness import check_for, hand_check
from bot.wording import fit_caption
from engine import Match, fingerprint, match_from_json, match_to_json, verify


def seed_of(n: int) -> bytes:
    return n.to_bytes(32, "big")


def played_hand(game: str, seats: int, seed: int, options: dict[str, object] | None = None,
                hands: int = 1) -> Match:
    """A match whose first ``hands`` hands were dealt from seeds and played to their end,
    each seat making its first legal move."""
    match = Match(game, seats, options, automate=True)
    for number in range(hands):
        match.deal_from_seed(seed_of(seed + number))
        while not match.hand.over:
            seat = match.to_move
            assert seat is not None
            match.apply(seat, match.legal_actions()[0])
    return match


@pytest.mark.parametrize(("game", "seats", "options"), [
    ("pair", 4, None), ("gaple-dead", 4, None), ("gaple-dead", 5, None), ("kolbasa", 2, None),
    ("kolbasa", 4, None), ("muggins", 3, None), ("matador", 3, None), ("gaple", 4, {"set": 9}),
    ("pair", 4, {"first_lead": "lot"})])
def test_a_played_hand_checks_out_after_it_is_stored(
        game: str, seats: int, options: dict[str, object] | None) -> None:
    match = match_from_json(match_to_json(played_hand(game, seats, 40, options, hands=2)))
    for number in (0, 1):
        check = hand_check(match, 7, number)
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
    honest = hand_check(match, 1, 0)
    hand.deal = dataclasses.replace(hand.deal, seed=seed_of(999))
    check = hand_check(match, 1, 0)
    assert check.fingerprint == fingerprint(seed_of(999)) != honest.fingerprint
    assert check.fingerprint_ok  # that seed's own fingerprint, of course
    assert not check.deal_ok and not check.ok


def test_a_tile_played_from_another_hand_fails_the_check() -> None:
    match = played_hand("gaple", 4, 42)
    hand = match.hands[0]
    first = hand.moves[0]
    assert hand_check(match, 1, 0).plays_ok
    # the first tile laid, said to be laid by the next seat
    hand.moves[0] = first._replace(seat=(first.seat + 1) % 4)
    check = hand_check(match, 1, 0)
    assert check.deal_ok and not check.plays_ok and not check.ok
    assert check.strays == ((hand.moves[0].seat, first.action.tile),)  # type: ignore[union-attr]


def test_a_hand_being_played_or_dealt_without_a_seed_is_refused() -> None:
    match = Match("pair", 4)
    match.deal_from_seed(seed_of(43))
    with pytest.raises(UserError, match="still being played"):
        hand_check(match, 1, 0)
    with pytest.raises(UserError, match="out of date"):
        hand_check(match, 1, 5)
    old = Match("pair", 4, automate=True)
    old.deal_hand(random.Random(3))  # as matches were dealt before seeds
    while not old.hand.over:
        seat = old.to_move
        assert seat is not None
        old.apply(seat, old.legal_actions()[0])
    with pytest.raises(UserError, match="no seed"):
        hand_check(old, 1, 0)


def test_only_players_or_the_group_may_check_a_hand() -> None:
    players = [Player(i, f"P{i}") for i in range(1, 5)]
    game = Game(9, -100, Status.FINISHED, "pair", {}, 1, players, played_hand("pair", 4, 44),
                0, "en", Messages())
    assert check_for(game, 0, 3, None).ok  # a player, in private
    assert check_for(game, 0, 77, -100).ok  # anyone, from the group's button
    with pytest.raises(UserError, match="games you played"):
        check_for(game, 0, 77, None)
    game.seat_changes = [SeatChange(2, 0, 3, Player(55, "Gone"))]
    assert check_for(game, 0, 55, None).ok  # who left the seat played the hands before


def test_a_caption_too_long_keeps_the_deals_fingerprint_and_seed() -> None:
    """fit_caption drops lines from the middle: never the second (the table's and the hand's
    🔒 line) nor the last two (the result's score and 🔓 line)."""
    for count in range(2, 60):
        lines = ["<b>Pair</b> · hand 1", "🔒 Deal <code>0123456789abcdef</code>",
                 *(f"line {n} " + "x" * 80 for n in range(count)), "Score", "🔓 seed"]
        fitted = fit_caption("\n".join(lines)).split("\n")
        assert fitted[:2] == lines[:2] and fitted[-2:] == lines[-2:]
        assert len("\n".join(fitted)) <= 1024
