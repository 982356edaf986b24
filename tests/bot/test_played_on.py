"""A match that reaches its target with the lead shared plays on (docs/RULES.md, D3): its
hand result says so and why, and /rules says so for the games that do (player QA: the next
hand began with no word of explanation)."""

from __future__ import annotations

import random
from dataclasses import replace

from bot_kit import plain
from test_drawn_hands import first_hand_where

from bot.gamebook import GAMES
from bot.i18n import translator
from bot.presentation.lobbytexts import PLAYS_ON_TIE, rules_text
from bot.presentation.resulttexts import hand_result_text
from engine import table_view, variant

LINE = "Ayu and Budi share the lead on 50, so the match goes on until one is ahead alone."


def result_lines(scores: tuple[int, ...], reached: bool, dealt_on: bool = False) -> list[str]:
    """The first hand of a three-player Kolbasa match as it ended, the match's scores then
    being ``scores`` against a target of 50 (``reached``: as the engine records it); with
    ``dealt_on``, as seen once the next hand is dealt (the players' private messages)."""
    game, ended = first_hand_where("kolbasa", 3, lambda ended: True)
    match = game.match
    assert match is not None
    match.options = replace(match.options, target=50)
    over, winner, reached_now = match.variant.match_outcome(match.options, scores, reached)
    match.scores, match.over, match.winner, match.target_reached = (
        scores, over, winner, reached_now)
    ended = replace(ended, scores=scores)  # (the scores the hand's end left)
    match.hands[0].result = ended
    if dealt_on:
        match.deal_hand(random.Random(1))
    view = table_view(match, 0)
    return plain(hand_result_text(translator("en"), game, ended, view)).split("\n")


def test_a_shared_lead_past_the_target_is_said_with_the_hand_result() -> None:
    assert LINE in result_lines((50, 50, 20), False)


def test_the_players_private_result_says_it_too_once_the_next_hand_is_dealt() -> None:
    assert LINE in result_lines((50, 50, 20), False, dealt_on=True)


def test_no_word_of_it_below_the_target_or_once_someone_leads_alone() -> None:
    assert LINE not in result_lines((40, 40, 20), False)
    alone = result_lines((50, 62, 20), False)
    assert not any("share the lead" in line for line in alone)


def test_the_rules_say_it_for_the_games_that_play_on_and_no_other() -> None:
    t = translator("en")
    said = {game for game in GAMES if t(PLAYS_ON_TIE) in rules_text(t, game)}
    assert said == {game for game in GAMES if variant(game).plays_on_tie}
    assert "kolbasa" in said and "gaple" not in said
