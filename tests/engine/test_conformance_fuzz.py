"""The conformance runner against scenarios an outside checker might send: every example and
some random matches, mutated in many ways (keys dropped, doubled, reordered; values of the
wrong type, huge, nested deep; tiles out of the set or malformed; seats out of range; actions
cut short, reordered, added after the end; deals that do not add up). Whatever the scenario,
the answer has the documented shape (docs/conformance.md) and tells the truth about where it
stopped: the answer to a scenario that stopped at an error is the answer to the same scenario
cut just before it. Fixed seeds: a failure is found again by its seed and number."""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_conformance_input import cli_answers, run_cli

from engine import Match, match_to_dict
from engine.conformance import answer, load_json
from engine.variants import VARIANTS

HERE = Path(__file__).parent
FIXTURES = HERE / "conformance"
ROOT = HERE.parent.parent


def read(text: str) -> Any:
    """A JSON text as the runner reads it."""
    return load_json(text)


def example(name: str) -> Any:
    return read((FIXTURES / f"{name}.json").read_text())


def depth(value: Any) -> int:
    """How deep arrays and objects nest in ``value`` (without recursion)."""
    deepest, todo = 0, [(value, 0)]
    while todo:
        value, level = todo.pop()
        deepest = max(deepest, level)
        children = value.values() if isinstance(value, dict) else (
            value if isinstance(value, list) else ())
        todo += [(child, level + 1) for child in children]
    return deepest


# The bases of the mutations: the examples but those nested deep on purpose (copy.deepcopy and
# the mutations recurse)
EXAMPLES = [scenario for scenario in (read(p.read_text()) for p in sorted(FIXTURES.glob("*.json"))
                                      if not p.name.endswith(".expected.json"))
            if depth(scenario) < 50]
CODES = {"not_your_turn", "illegal", "end_required", "cross_required", "hand_over", "bad_input"}
HAND_KEYS = {"opener", "line", "ends", "to_move", "over", "reason", "winner", "totals", "points"}
GAMES = [*VARIANTS, "chess", "", "Pair ", "gaple_dead", "six matador", "pairs"]

# --- what a mutation puts in ---------------------------------------------------------------
JUNK: list[Any] = [
    None, True, False, 0, -1, 1, 2, 3, 4, 7, 13, 17, 10**30, -(10**30), 1.5, 4.0, -0.0,
    math.nan, math.inf, "", "x", "0", "4", "true", "null", "6-6", "0-0", "7-1", "6-7", "9-9",
    "13-0", "6:6", "6 - 6", " 1-2 ", "1-2-3", "-1-2", "1--2", "+1-2", "06-6", "٣-٤",
    "\uff11-\uff12",
    "6-6*", "a-b", "1" * 5000 + "-1", "\x00", "\ud800", "🁡", "left", "right", "up", "down",
    "middle", "lot", "strict", "all", [], [6], [1, 2], [1, 2, 3], ["6-6"], [[]], {},
    {"seat": 0}, {"a": 1},
]
KEYS = ["seat", "play", "end", "cross", "give", "cut", "draw", "knock", "dead", "deal", "stock",
        "middle", "first", "actions", "seed", "options", "hands", "players", "variant", "target",
        "set", "zzz"]
TILE_JUNK: list[Any] = ["7-1", "6:6", [6], [1, 2, 3], "6-7", "9-9", "12-12", "13-0", None, 66,
                        "6-6", "0-0", " 6-6", "1" * 5000 + "-1"]


def junk(rng: random.Random) -> Any:
    if rng.random() < 0.05:  # nested up to 300 deep: deeper than the runner ever looks
        value: Any = "x"
        for _ in range(rng.randint(1, 300)):
            value = [value] if rng.random() < 0.5 else {"k": value}
        return value
    return copy.deepcopy(rng.choice(JUNK))


def nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    children = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, child in children:
        yield from nodes(child, (*path, key))


def at(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def anywhere(rng: random.Random, scenario: Any) -> Any:
    """One blind change at a random place of the JSON tree."""
    path, node = rng.choice(list(nodes(scenario)))
    if not path:
        return junk(rng) if rng.random() < 0.1 else scenario
    parent, key = at(scenario, path[:-1]), path[-1]
    kind = rng.randrange(7)
    if kind == 1:
        del parent[key]
    elif kind == 2 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(node))
    elif kind == 3 and isinstance(parent, list):
        rng.shuffle(parent)
    elif kind == 3:
        items = list(parent.items())
        rng.shuffle(items)
        parent.clear()
        parent.update(items)
    elif kind == 4 and isinstance(node, list):
        del node[rng.randrange(len(node) + 1):]
    elif kind == 5:
        parent[key] = [node] if rng.random() < 0.5 else {"x": node}
    elif kind == 6 and isinstance(node, dict):
        node[rng.choice(KEYS)] = junk(rng)
    else:
        parent[key] = junk(rng)
    return scenario


def tile_lists(scenario: dict[str, Any]) -> list[list[Any]]:
    found = []
    for hand in hands_of(scenario):
        deal = hand.get("deal")
        found += [seat for seat in deal if isinstance(seat, list)] if isinstance(deal, list) else []
        found += [hand[k] for k in ("stock", "middle") if isinstance(hand.get(k), list)]
    return found


def hands_of(scenario: dict[str, Any]) -> list[dict[str, Any]]:
    hands = scenario.get("hands")
    return [h for h in hands if isinstance(h, dict)] if isinstance(hands, list) else []


def action_lists(scenario: dict[str, Any]) -> list[list[Any]]:
    return [h["actions"] for h in hands_of(scenario)
            if isinstance(h.get("actions"), list) and h["actions"]]


def an_action(rng: random.Random, scenario: dict[str, Any]) -> dict[str, Any] | None:
    lists = action_lists(scenario)
    if not lists:
        return None
    chosen = rng.choice(rng.choice(lists))
    return chosen if isinstance(chosen, dict) else None


def meaningful(rng: random.Random, scenario: dict[str, Any]) -> dict[str, Any]:
    """One change a checker would write on purpose (see the module's docstring)."""
    hands, actions, tiles = hands_of(scenario), action_lists(scenario), tile_lists(scenario)
    kind = rng.randrange(15)
    act = an_action(rng, scenario)
    if kind == 0:
        scenario["variant"] = rng.choice(GAMES)
    elif kind == 1:
        scenario["players"] = rng.choice([0, 1, 2, 3, 4, 5, 6, 16, 17, -4, 10**40, "4", 4.0, True])
    elif kind == 2:
        options = scenario.get("options")
        if not isinstance(options, dict):
            options = scenario["options"] = {}
        name = rng.choice(["target", "set", "deal", "dead_tiles", "blank_double_25", "first_lead",
                           "block_count", "matador_points", "scoring", "bogus"])
        options[name] = rng.choice([1, 0, -1, 5, 6, 7, 9, 12, 100, 1_000_000, 1_000_001, 10**40,
                                    True, False, "lot", "6-6", "all", "simple", "x", None, 6.0])
    elif kind == 3 and act is not None:  # a seat out of range, or the wrong seat
        seat = act.get("seat")
        act["seat"] = rng.choice([-1, 5, 16, 10**30, "0", None, 0.0, True,
                                  (seat + 1 if type(seat) is int else 0)])
    elif kind == 4 and actions:  # cut short
        chosen = rng.choice(actions)
        del chosen[rng.randrange(len(chosen)):]
    elif kind == 5 and actions:  # more after the end
        chosen = rng.choice(actions)
        chosen += [copy.deepcopy(rng.choice(chosen)) for _ in range(rng.randint(1, 4))]
        chosen += [{"seat": rng.randrange(5), "knock": True},
                   {"seat": rng.randrange(5), "draw": True}]
    elif kind == 6 and tiles:  # a tile twice, or a hand one tile too big
        rng.choice(tiles).append(rng.choice([t for ts in tiles for t in ts] or ["0-0"]))
    elif kind == 7 and any(tiles):  # a tile missing
        chosen = rng.choice([ts for ts in tiles if ts])
        del chosen[rng.randrange(len(chosen))]
    elif kind == 8 and any(tiles):  # a tile out of the set or malformed
        chosen = rng.choice([ts for ts in tiles if ts])
        chosen[rng.randrange(len(chosen))] = rng.choice(TILE_JUNK)
    elif kind == 9 and act is not None:
        for key in ("play", "dead", "cut"):
            if key in act:
                act[key] = rng.choice(TILE_JUNK)
        act[rng.choice(["end", "cross", "give"])] = rng.choice(
            ["left", "right", "up", "down", "middle", True, False, None, 0, "true"])
    elif kind == 10 and hands:
        rng.choice(hands)["first"] = rng.choice(
            [-1, 0, 1, 2, 3, 4, 5, 10**20, None, "0", True, 1.0])
    elif kind == 11 and hands:  # the hands again: after the match's end, or one unfinished
        scenario["hands"] = scenario["hands"] + copy.deepcopy(scenario["hands"])
    elif kind == 12 and actions:  # two actions swapped
        chosen = rng.choice(actions)
        i, j = rng.randrange(len(chosen)), rng.randrange(len(chosen))
        chosen[i], chosen[j] = chosen[j], chosen[i]
    elif kind == 13 and len(tiles) >= 2:  # two tiles swapped between hands, stock or middle
        one, other = rng.sample(tiles, 2)
        if one and other:
            i, j = rng.randrange(len(one)), rng.randrange(len(other))
            one[i], other[j] = other[j], one[i]
    elif kind == 14 and act is not None:  # another kind of action
        seat = act.get("seat")
        act.clear()
        act["seat"] = seat
        act.update(rng.choice([{"draw": True}, {"knock": True}, {"dead": "0-0"}, {"draw": 1},
                               {"cut": "1-1", "give": "left"}, {"cut": "1-1"}, {"knock": 1},
                               {"play": "1-1", "dead": "1-1"}, {}]))
    return scenario


def mutated(rng: random.Random, bases: list[Any]) -> Any:
    scenario = copy.deepcopy(rng.choice(bases))
    for _ in range(rng.randint(1, 3)):
        if isinstance(scenario, dict) and rng.random() < 0.6:
            scenario = meaningful(rng, scenario)
        else:
            scenario = anywhere(rng, scenario)
    return scenario


# --- what an answer must be ----------------------------------------------------------------
def whole(value: object) -> bool:
    return type(value) is int


def assert_shape(reply: Any, scenario: Any) -> None:
    """The answer's documented shape, and what its error says about how far it went."""
    assert isinstance(reply, dict) and set(reply) == {"hands", "match", "error"}
    json.dumps(reply, allow_nan=False)
    match, error = reply["match"], reply["error"]
    assert set(match) == {"sides", "scores", "over", "winner"}
    assert type(match["over"]) is bool and (match["winner"] is None or whole(match["winner"]))
    assert all(whole(s) for s in match["scores"]) and len(match["scores"]) == len(match["sides"])
    started = len(reply["hands"])
    if error is None:
        assert isinstance(scenario, dict)
        assert started == len(scenario.get("hands", []))
    else:
        assert set(error) == {"hand", "action", "code"} and error["code"] in CODES
        if error["hand"] is None:  # the scenario as a whole: no hand started
            assert error["action"] is None and error["code"] == "bad_input" and started == 0
        elif error["action"] is None:  # a hand's deal, or a hand that should not be there
            assert error["code"] == "bad_input" and started == error["hand"]
        else:
            assert started == error["hand"] + 1
    for hand in reply["hands"]:
        assert set(hand) >= HAND_KEYS
        assert type(hand["over"]) is bool and (hand["to_move"] is None) == hand["over"]
        assert hand["reason"] in ((None,) if not hand["over"] else ("out", "blocked"))
        assert len(hand["points"]) == len(match["sides"])
    finished = [hand["points"] for hand in reply["hands"] if hand["over"]]
    sides = range(len(match["sides"]))
    assert match["scores"] == [sum(points[side] for points in finished) for side in sides]


def cut_before_error(scenario: dict[str, Any], error: dict[str, Any]) -> dict[str, Any]:
    """The scenario up to the action (or the hand) the error points at, not including it."""
    cut = copy.deepcopy(scenario)
    hand, action = error["hand"], error["action"]
    cut["hands"] = cut["hands"][: hand if action is None else hand + 1]
    if action is not None:
        cut["hands"][hand]["actions"] = cut["hands"][hand]["actions"][:action]
    return cut


def reordered(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {key: reordered(child, rng) for key, child in items}
    return [reordered(child, rng) for child in value] if isinstance(value, list) else value


def check(scenario: Any, rng: random.Random, thorough: bool) -> None:
    reply = answer(scenario)
    assert_shape(reply, scenario)
    if not thorough:
        return
    assert answer(reordered(scenario, rng)) == reply  # JSON objects have no order
    error = reply["error"]
    if error is not None and error["hand"] is not None:
        # "nothing after it is applied, and the rest of the answer shows the state just
        # before it" (docs/conformance.md)
        assert answer(cut_before_error(scenario, error)) == {**reply, "error": None}


def random_matches(seed: int, count: int) -> list[dict[str, Any]]:
    """Matches of every game played with random legal moves, as scenarios: several hands,
    some to the match's end, the last one sometimes left in the middle."""
    rng = random.Random(seed)
    scenarios = []
    for number in range(count):
        game = list(VARIANTS.values())[number % len(VARIANTS)]
        match = Match(game, rng.choice(game.seat_counts), {"target": rng.choice([1, 10, 40])})
        while not match.over and len(match.hands) < 4:
            match.deal_hand(rng)
            moves = rng.randint(0, 60) if rng.random() < 0.3 else 10**6
            while not match.hand.over and moves:
                match.step(match.hand.to_move, rng.choice(match.legal_actions()))  # type: ignore[arg-type]
                moves -= 1
            if not match.hand.over:
                break
        scenario = match_to_dict(match, seeds=False)
        for key in ("format", "version", "digest"):
            del scenario[key]
        scenarios.append(scenario)
    return scenarios


MATCHES = random_matches(2026, 36)
SEEDS = range(8)


@pytest.mark.parametrize("seed", SEEDS)
def test_mutated_examples_are_answered_in_shape(seed: int) -> None:
    rng = random.Random(seed)
    for number in range(250):
        scenario = mutated(rng, EXAMPLES)
        try:
            check(scenario, rng, thorough=number % 2 == 0)
        except Exception as exc:  # pragma: no cover - the message finds it again
            raise AssertionError(f"seed {seed}, mutation {number}: "
                                 f"{json.dumps(scenario, default=str)[:2000]}") from exc


@pytest.mark.parametrize("seed", SEEDS)
def test_mutated_random_matches_are_answered_in_shape(seed: int) -> None:
    rng = random.Random(100 + seed)
    for number in range(60):
        scenario = mutated(rng, MATCHES)
        try:
            check(scenario, rng, thorough=number % 2 == 0)
        except Exception as exc:  # pragma: no cover
            raise AssertionError(f"seed {seed}, mutation {number}: "
                                 f"{json.dumps(scenario, default=str)[:2000]}") from exc


def test_random_matches_replay_without_error() -> None:
    for scenario in MATCHES:
        reply = answer(scenario)
        assert reply["error"] is None
        assert_shape(reply, scenario)


@pytest.mark.parametrize("where", [
    ("variant",), ("players",), ("options",), ("options", "target"), ("hands",), ("hands", 0),
    ("hands", 0, "deal"), ("hands", 0, "deal", 0), ("hands", 0, "deal", 0, 0),
    ("hands", 0, "first"), ("hands", 0, "middle"), ("hands", 0, "stock"), ("hands", 0, "seed"),
    ("hands", 0, "actions"), ("hands", 0, "actions", 0), ("hands", 0, "actions", 0, "seat"),
    ("hands", 0, "actions", 0, "play"), ("hands", 0, "actions", 0, "end"),
    ("hands", 0, "actions", 0, "cross"), ("hands", 0, "actions", 0, "give"), ("about",),
])
def test_a_value_nested_thousands_deep_anywhere_is_answered(where: tuple[Any, ...]) -> None:
    """Messages once wrote such a value with repr(), which overflows (players: RecursionError).
    Where the value means nothing (a key the format does not name, ``seed`` among them, pair's
    stock, or its ``first`` when nobody leads by lot) the answer is unchanged; elsewhere it is
    bad input."""
    ignored: dict[str, list[tuple[Any, ...]]] = {
        "pair_out": [("about",), ("hands", 0, "stock"), ("hands", 0, "first"),
                     ("hands", 0, "seed")],
        "muggins_spinner_lead": [("about",), ("hands", 0, "seed")]}
    for name, unchanged in ignored.items():
        scenario = example(name)
        scenario.setdefault("options", {})
        plain = answer(scenario)
        deep: Any = 1
        for _ in range(5000):
            deep = [deep]
        at(scenario, where[:-1])[where[-1]] = deep
        reply = answer(scenario)
        assert_shape(reply, scenario)
        if where in unchanged:
            assert reply == plain
        else:
            assert reply["error"] is not None and reply["error"]["code"] == "bad_input"


def test_a_tile_with_thousands_of_digits_is_bad_input() -> None:
    """int() refuses 4,300 digits and more with a ValueError that is no DominoError."""
    scenario = example("pair_out")
    scenario["hands"][0]["deal"][0][0] = "1" * 5000 + "-1"
    assert answer(scenario)["error"] == {"hand": 0, "action": None, "code": "bad_input"}
    scenario = example("pair_out")
    scenario["hands"][0]["actions"][0]["play"] = "6-" + "0" * 5000 + "6"  # 6-6, leading zeros
    assert answer(scenario) == example("pair_out.expected")


def test_actions_that_are_not_a_list_are_refused_before_the_hand_starts() -> None:
    """As a hand's deal is: ``action`` null, and the hand is not among those started."""
    scenario = example("pair_out")
    scenario["hands"][0]["actions"] = {"seat": 1, "play": "6-6"}
    reply = answer(scenario)
    assert reply["error"] == {"hand": 0, "action": None, "code": "bad_input"}
    assert reply["hands"] == []


def test_cli_answers_mutated_scenarios_as_answer_does(tmp_path: Path) -> None:
    """Sixty mutated scenarios through one run of the command line, one file each: each line
    is the in-process answer (the JSON written by json.dumps, as a checker would write it)."""
    rng = random.Random(99)
    scenarios = [mutated(rng, EXAMPLES + MATCHES) for _ in range(60)]
    paths = []
    for number, scenario in enumerate(scenarios):
        paths.append(tmp_path / f"{number}.json")
        paths[-1].write_text(json.dumps(scenario))
    replies = cli_answers(run_cli(*map(str, paths)))
    assert replies == [answer(read(json.dumps(scenario))) for scenario in scenarios]
