"""The runner's answers to random matches of the nine games, scored again from the rule text
(docs/RULES.md) alone: who wins each finished hand and what it scores, from the answer's own
totals, held tiles and points scored in play; whether the match is over and who won it, from
the running scores. Small targets, so that many matches end: at the target exactly, with a
tie for the best score (play on), with a drawn gaple-dead match. The engine only plays the
moves (random legal ones) and, for Bergen's blocked hands, tells which tiles were left."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine import Match, Tile, match_to_dict
from engine.conformance import answer
from engine.variants import VARIANTS

SEED_002 = {"kolbasa", "matador", "six-matador", "french", "muggins", "bergen"}
PENALTY = {"gaple-dead", "french"}  # the lowest score wins


def alone(values: Sequence[int], best: Any = min) -> int | None:
    """The one index holding the best value, or None on a tie."""
    top = best(values)
    holders = [i for i, v in enumerate(values) if v == top]
    return holders[0] if len(holders) == 1 else None


def others_pips(totals: Sequence[int], winner: int | None) -> list[int]:
    points = [0] * len(totals)
    if winner is not None:
        points[winner] = sum(totals) - totals[winner]
    return points


def bergen_blocked(totals: Sequence[int], tiles: Sequence[Sequence[Tile]]) -> int | None:
    """"2 points to one player: among the players holding no double, the one with the fewest
    pips; if every player holds a double, the holder of the lowest double; a tie for the
    fewest pips gives nobody the 2"."""
    without = [s for s in range(len(totals)) if not any(t.is_double for t in tiles[s])]
    if not without:
        return alone([min(t.low for t in tiles[s] if t.is_double) for s in range(len(totals))])
    found = alone([totals[s] for s in without])
    return None if found is None else without[found]


def rule_result(game: str, options: dict[str, object], hand: dict[str, Any], last_seat: int,
                tiles: Sequence[Sequence[Tile]]) -> tuple[int | None, list[int]]:
    """(winner, points) of a finished hand, by RULES.md."""
    totals, out = hand["totals"], hand["reason"] == "out"
    scored = list(hand.get("scored", [0] * len(totals)))
    if game in ("gaple", "kolbasa"):
        winner = last_seat if out else alone(totals)  # the player who laid (or cut) the last
        return winner, others_pips(totals, winner)
    if game == "pair":
        pips = [totals[0] + totals[2], totals[1] + totals[3]]
        winner = last_seat % 2 if out else alone(pips)
        points = [0, 0]
        if winner is not None:
            everything = not out and options["block_count"] == "all"
            points[winner] = sum(pips) if everything else pips[1 - winner]
        return winner, points
    if game in PENALTY:  # each seat's own pips; gaple-dead breaks ties by tiles (not checked)
        return alone(totals), list(totals)
    if game == "matador":
        winner = alone(totals)
        return winner, [s + p for s, p in zip(scored, others_pips(totals, winner), strict=True)]
    if game == "six-matador":
        return alone(scored, max), scored
    if game == "muggins":
        lightest = alone(totals)
        rest = 0 if lightest is None else sum(totals) - 2 * totals[lightest]
        bonus = 10 if out else (rest + 2) // 5 * 5  # "remainder 1-2 down, 3-4 up"
        ender = last_seat if out else lightest
        if ender is not None:
            scored[ender] += bonus
        return ender, scored
    assert game == "bergen"
    winner = last_seat if out else bergen_blocked(totals, tiles)
    if winner is not None:
        scored[winner] += 2
    return winner, scored


def rule_match_end(game: str, target: int, running: Sequence[Sequence[int]]) -> tuple[bool, Any]:
    """(over, winner) after the finished hands' running scores, by RULES.md."""
    reached = False
    best = min if game in PENALTY else max
    for scores in running:
        reached = reached or max(scores) >= target  # "some seat's running score reaches"
        if not reached:
            continue
        winner = alone(scores, best)
        if game == "gaple-dead" or winner is not None or game not in SEED_002:
            return True, winner  # gaple-dead: "a tie for the lowest leaves the match drawn"
    return False, None  # seed 002: a tie for the best plays on (D3)


def random_match(rng: random.Random, number: int) -> Match:
    game = list(VARIANTS.values())[number % len(VARIANTS)]
    options: dict[str, object] = {"target": rng.choice([1, 2, 5, 10, 20, 40])}
    for spec in game.option_specs:
        if spec.choices and spec.name != "set" and rng.random() < 0.5:
            options[spec.name] = rng.choice(spec.choices)
    seats = rng.choice(game.seat_counts)
    if game.name == "gaple-dead":  # 4 players: 6 or 7 each; 5 players: 5
        options["deal"] = rng.choice([6, 7]) if seats == 4 else 5
    match = Match(game, seats, options)
    while not match.over and len(match.hands) < 12:
        match.deal_hand(rng)
        while not match.hand.over:
            match.step(match.hand.to_move, rng.choice(match.legal_actions()))  # type: ignore[arg-type]
    return match


@pytest.mark.parametrize("seed", range(4))
def test_random_matches_are_scored_as_the_rules_say(seed: int) -> None:
    rng = random.Random(seed)
    for number in range(len(VARIANTS) * 8):
        match = random_match(rng, number)
        game, options = match.variant.name, match.options.to_dict(match.variant.option_names)
        scenario = match_to_dict(match, seeds=False)
        reply = answer(scenario)
        assert reply["error"] is None
        running, scores = [], [0] * len(reply["match"]["sides"])
        for hand, written, played in zip(reply["hands"], scenario["hands"], match.hands,
                                         strict=True):
            last_seat = written["actions"][-1]["seat"] if written["actions"] else -1
            want = rule_result(game, options, hand, last_seat, played.hands)
            where = f"{game} {match.seats} seats {options} hand {played.number}: {hand}"
            if not (game == "gaple-dead" and want[0] is None):  # a tie broken by tiles
                assert hand["winner"] == want[0], where
            assert hand["points"] == want[1], where
            scores = [s + p for s, p in zip(scores, hand["points"], strict=True)]
            running.append(scores)
        assert reply["match"]["scores"] == scores
        over, winner = rule_match_end(game, int(options["target"]), running)  # type: ignore[call-overload]
        assert (reply["match"]["over"], reply["match"]["winner"]) == (over, winner), (
            game, options, running)


BLOCKED_WANTED = 20


@pytest.mark.parametrize("game", list(VARIANTS))
def test_blocked_hands_are_scored_as_the_rules_say(game: str) -> None:
    """Blocked hands are rare in some games (Muggins: 1 hand in 40 of random play): single
    hands are played until twenty of them are blocked."""
    rng = random.Random(game)
    seat_counts = VARIANTS[game].seat_counts
    blocked = 0
    for number in range(2000):
        seats = seat_counts[number % len(seat_counts)]
        match = Match(game, seats, {"target": 1_000_000})
        match.deal_hand(rng)
        while not match.hand.over:
            match.step(match.hand.to_move, rng.choice(match.legal_actions()))  # type: ignore[arg-type]
        scenario = match_to_dict(match, seeds=False)
        hand = answer(scenario)["hands"][0]
        if hand["reason"] != "blocked":
            continue
        options = match.options.to_dict(match.variant.option_names)
        winner, points = rule_result(game, options, hand, -1, match.hand.hands)
        if not (game == "gaple-dead" and winner is None):
            assert hand["winner"] == winner, (seats, hand)
        assert hand["points"] == points, (seats, hand)
        blocked += 1
        if blocked == BLOCKED_WANTED:
            return
    raise AssertionError(f"only {blocked} blocked hands in 2000")  # pragma: no cover
