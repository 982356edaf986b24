"""An audit of the rules from outside: scenarios whose expected results were worked out by hand
from docs/RULES.md (never taken from the engine's answers), each checking only the keys it names.

``rules_audit.json`` holds one entry per scenario: ``name``, the ``scenario`` in the format of
docs/conformance.md, and ``expect``: per hand the keys of the answer it fixes (``hands``, by
index), the keys of ``match`` it fixes, ``error`` when given, and ``nhands`` (how many hands were
started) when given. Where a scenario checks a running count or score after each action, it
appears once per prefix of the actions (names ending ``_prefix_NN``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.conformance import answer

ENTRIES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "rules_audit.json").read_text(encoding="utf-8")
)


def mismatches(got: dict[str, Any], expect: dict[str, Any]) -> list[str]:
    """Every key ``expect`` fixes that ``got`` answers otherwise."""
    bad = []
    for index, keys in enumerate(expect.get("hands", [])):
        if index >= len(got["hands"]):
            bad.append(f"hand {index} was not started")
            continue
        hand = got["hands"][index]
        bad += [f"hand {index} {key}: {hand.get(key)!r}, not {value!r}"
                for key, value in keys.items() if hand.get(key) != value]
    if "nhands" in expect and len(got["hands"]) != expect["nhands"]:
        bad.append(f"{len(got['hands'])} hands started, not {expect['nhands']}")
    bad += [f"match {key}: {got['match'].get(key)!r}, not {value!r}"
            for key, value in expect.get("match", {}).items() if got["match"].get(key) != value]
    if "error" in expect and got["error"] != expect["error"]:
        bad.append(f"error: {got['error']!r}, not {expect['error']!r}")
    return bad


def test_names_are_unique_and_every_entry_checks_something() -> None:
    names = [entry["name"] for entry in ENTRIES]
    assert len(names) == len(set(names))
    for entry in ENTRIES:
        expect = entry["expect"]
        assert expect.get("hands") or expect.get("match") or "error" in expect, entry["name"]


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["name"] for entry in ENTRIES])
def test_audit_scenario(entry: dict[str, Any]) -> None:
    assert mismatches(answer(entry["scenario"]), entry["expect"]) == []


def test_a_wrong_expectation_is_caught() -> None:
    """The check can fail: one known answer, expected otherwise."""
    entry = next(e for e in ENTRIES if e["name"] == "gaple_block_one_lowest_scores_all_others")
    wrong = {"hands": [{"points": [80, 0, 0, 0]}], "match": {"over": True}, "error": None}
    assert len(mismatches(answer(entry["scenario"]), wrong)) == 2
