"""Who may check a hand's deal, and what a refusal says (bot.service.fairness)."""

from __future__ import annotations

import pytest

from bot.errors import UserError
from bot.gamemessages import Messages
from bot.models import Game, Player, SeatChange, Status
from bot.service.fairness import check_for, hand_check
from bot.wording import fit_caption
from engine import Match
from tests.engine.fairness_kit import dealt_before_seeds, played_hand, seed_of


def game_of(match: Match) -> Game:
    players = [Player(i, f"P{i}") for i in range(1, match.seats + 1)]
    return Game(9, -100, Status.FINISHED, match.variant.name, {}, 1, players, match, 0, "en",
                Messages())


def test_a_hand_being_played_or_dealt_without_a_seed_is_refused_in_words() -> None:
    match = Match("pair", 4)
    match.deal_from_seed(seed_of(43))
    with pytest.raises(UserError, match="still being played"):
        hand_check(game_of(match), 0)
    with pytest.raises(UserError, match="out of date"):
        hand_check(game_of(match), 5)
    with pytest.raises(UserError, match="no seed"):
        hand_check(game_of(dealt_before_seeds("pair", 4, 3)), 0)


def test_only_players_or_the_group_may_check_a_hand() -> None:
    game = game_of(played_hand("pair", 4, 44))
    assert check_for(game, 0, 3, None).ok  # a player, in private
    assert check_for(game, 0, 77, -100).ok  # anyone, from the group's button
    with pytest.raises(UserError, match="hands of your own games"):
        check_for(game, 0, 77, None)
    game.seat_changes = [SeatChange(2, 0, 3, Player(55, "Gone"))]
    assert check_for(game, 0, 55, None).ok  # who left the seat played the hands before


def test_a_caption_too_long_keeps_the_deals_fingerprint_and_seed() -> None:
    """fit_caption drops lines from the middle: never the second (the table's and the hand's
    🔒 line) nor the last two (the result's score and 🔓 line)."""
    for count in range(2, 60):
        lines = ["<b>Pair</b> · hand 1", "🔒 Deal fingerprint: <code>0123456789abcdef</code>",
                 *(f"line {n} " + "x" * 80 for n in range(count)), "Score", "🔓 seed"]
        fitted = fit_caption("\n".join(lines)).split("\n")
        assert fitted[:2] == lines[:2] and fitted[-2:] == lines[-2:]
        assert len("\n".join(fitted)) <= 1024
