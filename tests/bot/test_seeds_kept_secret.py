"""Computer players and the timer's safe move never read a deal's seed (which makes every
seat's tiles): the question a computer player gets carries none, and its decision, like the
safe move, is the same whatever seed the deal was made from."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from bot.computers import COMPUTER_LEVELS
from bot.service.thinker import Question, decide
from engine import DRAW, KNOCK, Match, ai, match_from_json, match_to_json, player_view
from tests.engine.fairness_kit import seed_of


def positions() -> list[tuple[Match, int]]:
    """Matches dealt from seeds at several points of their first hand, with the seat to move
    (each a copy as the bot stores it)."""
    found: list[tuple[Match, int]] = []
    for game, seats, n in (("gaple", 4, 1), ("muggins", 3, 2), ("kolbasa", 2, 3)):
        match = Match(game, seats, {})
        match.deal_from_seed(seed_of(n))
        rng = random.Random(game)
        for step in range(9):
            seat = match.to_move
            if match.hand.over or seat is None:
                break
            if match.legal_actions() not in ((KNOCK,), (DRAW,)) and step % 4 == 0:
                found.append((match_from_json(match_to_json(match)), seat))
            match.apply(seat, ai.player("easy").choose(player_view(match, seat), rng))
    return found


def with_seed(match: Match, seed: bytes | None) -> Match:
    """The same match and deal, another seed attached to its deal (as if the bot had drawn
    another seed that happened to make this deal)."""
    again = match_from_json(match_to_json(match))
    hand = again.hands[-1]
    hand.deal = dataclasses.replace(hand.deal, seed=seed)
    return again


def test_a_computer_players_question_carries_no_seed() -> None:
    for match, seat in positions():
        seed = match.hand.deal.seed
        assert seed is not None
        question = Question.of(match, seat, "hard", "1:1", 1)
        assert seed.hex() not in question.record
        assert all("seed" not in hand for hand in json.loads(question.record)["hands"])
        assert player_view(match, seat).table.seed is None  # (the hand is on)


@pytest.mark.parametrize("level", COMPUTER_LEVELS)
def test_decisions_are_the_same_whatever_the_seed(level: str) -> None:
    """The same deal with another seed attached, or none: the same decision, and the same
    safe move when time runs out."""
    checked = 0
    for match, seat in positions()[:4 if level == "expert" else None]:
        asked, inline, safe = set(), set(), set()
        for seed in (match.hand.deal.seed, seed_of(999), None):
            copy = with_seed(match, seed)
            asked.add(decide(Question.of(copy, seat, level, f"{level}:1", 1)))
            view = player_view(copy, seat)
            inline.add(ai.player(level).choose(view, random.Random(5)))
            safe.add(ai.safest_action(view))
        assert len(asked) == len(inline) == len(safe) == 1, (level, asked, inline, safe)
        checked += 1
    assert checked >= 4
