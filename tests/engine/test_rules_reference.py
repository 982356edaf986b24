"""Random matches of every game, each answer of the conformance runner checked against an
independent reading of the rules (tests/engine/rules_reference.py).

The moves are the engine's legal ones, picked at random; everything else is checked from outside:
after every action of a match's first two hands, whether the seat could lay by the rules (a draw,
knock or discard is allowed only when it cannot), what the action scored at once, Muggins' count,
the pips in hand, whether the hand is over and why, who moves next, and every way of laying each
held tile the engine accepts; for every hand, who opened it and with what, its winner and
points; for the match, the scores, whether it is over and who won.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from rules_reference import (
    Pair,
    can_lay,
    cut_tile,
    hand_result,
    match_result,
    muggins_count,
    open_ends,
    opener,
    pair,
    pips,
    points_now,
    ways,
)

from engine import Match
from engine.actions import Cut, Play
from engine.conformance import answer
from engine.record import match_to_dict
from engine.tiles import End, Tile

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("gaple", 4, {}), ("gaple", 4, {"set": 12, "target": 60}),
    ("pair", 4, {}), ("pair", 4, {"block_count": "all", "first_lead": "lot"}),
    ("gaple-dead", 4, {}), ("gaple-dead", 5, {"set": 9}),
    ("gaple-dead", 4, {"deal": 7, "blank_double_25": True}),
    ("gaple-dead", 4, {"dead_tiles": False, "set": 9}),
    ("kolbasa", 2, {}), ("kolbasa", 3, {}), ("kolbasa", 4, {}),
    ("matador", 2, {}), ("matador", 3, {"matador_points": True}), ("matador", 4, {}),
    ("six-matador", 2, {}), ("six-matador", 3, {"scoring": "simple"}), ("six-matador", 4, {}),
    ("french", 2, {}), ("french", 4, {}), ("french", 5, {}),
    ("muggins", 2, {}), ("muggins", 3, {}), ("muggins", 4, {}),
    ("bergen", 2, {}), ("bergen", 3, {}), ("bergen", 4, {}),
]
MATCHES = 3  # random matches per game and options
CHECKED_HANDS = 2  # hands of a match checked action by action (the rest at their end)
STOCK_GAMES = ("kolbasa", "matador", "six-matador", "french", "muggins", "bergen")


def play_match(game: str, seats: int, options: dict[str, Any], seed: str) -> Match:
    rng = random.Random(seed)
    match = Match(game, seats, options)
    while not match.over and len(match.hands) < 40:
        match.deal_hand(rng)
        while not match.hand.over:
            seat = match.to_move
            assert seat is not None
            match.apply(seat, rng.choice(match.legal_actions()))
    return match


class Seats:
    """Each seat's tiles and dead tiles, kept from the deal and the actions alone."""

    def __init__(self, hand: dict[str, Any], seats: int) -> None:
        self.held: list[list[Pair]] = [[pair(t) for t in tiles] for tiles in hand["deal"]]
        self.dead: list[list[Pair]] = [[] for _ in range(seats)]
        self.stock = [pair(t) for t in hand.get("stock", [])]
        self.drawn = 0

    def apply(self, action: dict[str, Any], before: dict[str, Any]) -> None:
        seat = action["seat"]
        if "play" in action:
            self.held[seat].remove(pair(action["play"]))
        elif "dead" in action:
            self.held[seat].remove(pair(action["dead"]))
            self.dead[seat].append(pair(action["dead"]))
        elif "draw" in action:
            self.held[seat].append(self.stock[self.drawn])
            self.drawn += 1
        elif "cut" in action:
            self.held[seat].remove(pair(action["cut"]))
            center = before["center"]
            line = before["line"]
            piece = line[:center] if action["give"] == "left" else line[center + 1:]
            self.held[(seat - 1) % len(self.held)] += [pair(t) for t in piece]

    def totals(self, game: str, options: dict[str, Any]) -> list[int]:
        if game != "gaple-dead":
            return [pips(tiles) for tiles in self.held]
        out = []
        for tiles, gone in zip(self.held, self.dead, strict=True):
            counted = tiles + gone
            blank_alone = (0, 0) in counted and not any(0 in t for t in counted if t != (0, 0))
            bonus = 25 if options.get("blank_double_25") and blank_alone else 0
            out.append(pips(counted) + bonus)
        return out


def expected_end(game: str, seats: Seats, after: dict[str, Any], n: int) -> tuple[bool, str | None]:
    """Whether the hand is over after an action, and why, by the rules."""
    left = len(seats.stock) - seats.drawn
    reserve = 2 if game == "bergen" else 0
    laid = bool(after["line"])
    nobody = laid and not any(can_lay(game, after, seats.held[s]) for s in range(n))
    stuck = nobody and left <= reserve
    empty = any(not tiles for tiles in seats.held)
    if game in ("matador", "six-matador"):
        return stuck, "blocked" if stuck else None
    if game == "french":
        if empty and left == 0:
            return True, "out"
        off_table = [t for tiles in seats.held for t in tiles] + seats.stock[seats.drawn:]
        blocked = stuck or (laid and not can_lay(game, after, off_table))
        return blocked, "blocked" if blocked else None
    if empty:
        return True, "out"
    return stuck, "blocked" if stuck else None


def check_actions(game: str, options: dict[str, Any], scenario: dict[str, Any], index: int,
                  n: int) -> tuple[Seats, list[str]]:
    hand = scenario["hands"][index]
    actions = hand["actions"]
    seats = Seats(hand, n)
    bad: list[str] = []

    def answered(upto: int) -> dict[str, Any]:
        hands = [*scenario["hands"][:index], {**hand, "actions": actions[:upto]}]
        result: dict[str, Any] = answer({**scenario, "hands": hands})["hands"][index]
        return result

    before = answered(0)
    one_draw = game in ("matador", "six-matador", "bergen")
    for number, action in enumerate(actions):
        after = answered(number + 1)
        seat, where = action["seat"], f"action {number} {action}"
        laying = "play" in action or "cut" in action
        if before["line"] and laying != can_lay(game, before, seats.held[seat]):
            bad.append(f"{where}: may it lay? the rules say {not laying}")
        if "draw" in action or "knock" in action:
            last = actions[number - 1] if number else {}
            drew = last.get("seat") == seat and "draw" in last
            reserve = 2 if game == "bergen" else 0
            may_draw = (game in STOCK_GAMES and len(seats.stock) - seats.drawn > reserve
                        and not (one_draw and drew))
            if ("draw" in action) != may_draw:
                bad.append(f"{where}: may it draw? the rules say {may_draw}")
        if "scored" in before:
            gained = [a - b for a, b in zip(after["scored"], before["scored"], strict=True)]
            want = [0] * n
            want[seat] = points_now(game, options, before, after, action)
            if gained != want:
                bad.append(f"{where}: scored {gained}, the rules say {want}")
        if game == "muggins" and after["count"] != muggins_count(after):
            bad.append(f"{where}: count {after['count']}, the rules say {muggins_count(after)}")
        seats.apply(action, before)
        if after["totals"] != seats.totals(game, options):
            bad.append(f"{where}: totals {after['totals']}, rules {seats.totals(game, options)}")
        over, reason = expected_end(game, seats, after, n)
        if (after["over"], after["reason"]) != (over, reason):
            bad.append(f"{where}: ended {after['over']}/{after['reason']}, rules {over}/{reason}")
        elif not over:
            step = 0 if "draw" in action else -1 if "cut" in action else 1
            nxt = (seat + step) % n
            if game in ("matador", "six-matador") and seats.drawn == len(seats.stock):
                while not seats.held[nxt]:
                    nxt = (nxt + 1) % n  # a seat with no tiles and no stock is skipped
            if after["to_move"] != nxt:
                bad.append(f"{where}: to move {after['to_move']}, the rules say {nxt}")
        before = after
    return seats, bad


def check_ways(game: str, seats: int, seed: str) -> list[str]:
    """At every turn of one hand, every way of laying each held tile, accepted or refused."""
    rng = random.Random(seed)
    match = Match(game, seats, {})
    match.deal_hand(rng)
    bad: list[str] = []
    while not match.hand.over:
        hand, seat = match.hand, match.to_move
        assert seat is not None
        if hand.laid:
            now = answer(match_to_dict(match, seeds=False))["hands"][-1]
            spinner = now.get("spinner") is not None
            ends = open_ends(game, now)
            for tile in hand.hands[seat]:
                low_high = (tile.low, tile.high)
                for end in ("left", "right", "up", "down"):
                    legal = ways(game, ends[end], low_high, spinner) if end in ends else set()
                    for cross in (True, False):
                        if hand.can(seat, Play(tile, End(end), None, cross)) != (cross in legal):
                            bad.append(f"{low_high} at {end} cross={cross}: rules {cross in legal}")
                if game == "kolbasa":
                    for give in (End.LEFT, End.RIGHT):
                        if hand.can(seat, Cut(tile, give)) != (low_high == cut_tile(now)):
                            bad.append(f"cut {low_high}: rules {low_high == cut_tile(now)}")
        match.apply(seat, rng.choice(match.legal_actions()))
    return bad


@pytest.mark.parametrize("number", range(MATCHES))
@pytest.mark.parametrize(("game", "seats", "options"), GAMES,
                         ids=[f"{g}-{s}-{'-'.join(map(str, o.values())) or 'default'}"
                              for g, s, o in GAMES])
def test_random_match_answers_as_the_rules_read(
    game: str, seats: int, options: dict[str, Any], number: int
) -> None:
    match = play_match(game, seats, options, f"{game}/{seats}/{options}/{number}")
    assert match.over
    scenario = json.loads(json.dumps(match_to_dict(match, seeds=False)))
    full = answer(scenario)
    assert full["error"] is None
    bad: list[str] = []
    previous = None
    for index, hand in enumerate(full["hands"]):
        deal_hand = scenario["hands"][index]
        seat, leads = opener(game, options, deal_hand, previous, seats)
        if hand["opener"] != seat:
            bad.append(f"hand {index}: opener {hand['opener']}, the rules say {seat}")
        first = deal_hand["actions"][0] if deal_hand["actions"] else {}
        if leads is not None and not deal_hand.get("middle") and pair(first["play"]) not in leads:
            bad.append(f"hand {index}: led {first['play']}, the rules say one of {leads}")
        if index < CHECKED_HANDS:
            tiles, found = check_actions(game, options, scenario, index, seats)
            bad += [f"hand {index} {line}" for line in found]
        elif any("cut" in action for action in deal_hand["actions"]):
            previous = hand  # who took which piece is checked in the first hands only
            continue
        else:
            tiles = Seats(deal_hand, seats)
            for action in deal_hand["actions"]:
                tiles.apply(action, {})
        winner, points = hand_result(game, options, hand, tiles.held, tiles.dead)
        if (hand["winner"], hand["points"]) != (winner, points):
            bad.append(f"hand {index}: winner/points {hand['winner']}/{hand['points']}, "
                       f"the rules say {winner}/{points}")
        previous = hand
    scores, over, winner = match_result(game, options, seats, full["hands"])
    said = full["match"]
    if (said["scores"], said["over"], said["winner"]) != (scores, over, winner):
        bad.append(f"match {said}, the rules say {scores} {over} {winner}")
    assert bad == []


@pytest.mark.parametrize(("game", "seats"), [
    ("kolbasa", 2), ("kolbasa", 4), ("matador", 3), ("six-matador", 2), ("french", 3),
    ("muggins", 2), ("muggins", 4), ("bergen", 3),
])
def test_every_way_of_laying_is_accepted_as_the_rules_read(game: str, seats: int) -> None:
    assert check_ways(game, seats, f"ways/{game}/{seats}") == []


def test_the_reference_reading_can_disagree() -> None:
    """The checks can fail: a Bergen lead of a double scores 2, not 3."""
    before: dict[str, Any] = {"line": [], "ends": None}
    after: dict[str, Any] = {"line": ["3-3*"], "ends": [3, 3]}
    assert points_now("bergen", {}, before, after, {"seat": 0, "play": "3-3"}) == 2
    assert Tile(3, 3).is_double
