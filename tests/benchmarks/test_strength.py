"""The strength benchmark on a tiny run: it plays end to end and ends with one JSON line
(the figures themselves come from ``python -m benchmarks.strength``, not from here)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from benchmarks import strength


def last_json(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    lines = capsys.readouterr().out.strip().splitlines()
    report = json.loads(lines[-1])
    assert isinstance(report, dict)
    return report


def test_hard_against_a_tiny_ismcts_ends_with_one_json_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert strength.main(["--deals", "2", "--simulations", "8", "--workers", "1"]) == 0
    report = last_json(capsys)
    assert report["level"] == "hard" and report["opponent"] == "ismcts"
    assert report["simulations"] == 8 and report["deals"] == 2 and report["hands"] == 4
    assert report["won"] + report["lost"] + report["drawn"] == 4
    low, high = report["points_ci"]
    assert low <= report["points_per_hand"] <= high
    for side in ("hard", "ismcts"):
        assert report[side]["decisions"] > 0
    assert len(report["load_before"]) == 3


def test_the_same_seed_gives_the_same_hands(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for _ in range(2):
        strength.main(["--level", "normal", "--deals", "2", "--simulations", "8", "--seed", "4"])
        report = last_json(capsys)
        runs.append((report["won"], report["lost"], report["drawn"], report["points_per_hand"]))
    assert runs[0] == runs[1]


def test_another_level_may_be_the_opponent(capsys: pytest.CaptureFixture[str]) -> None:
    assert strength.main(["--level", "normal", "--opponent", "easy", "--deals", "2"]) == 0
    report = last_json(capsys)
    assert report["opponent"] == "easy" and report["simulations"] is None


def test_it_refuses_equal_or_unknown_players() -> None:
    with pytest.raises(SystemExit):
        strength.main(["--level", "hard", "--opponent", "hard"])
    with pytest.raises(ValueError):
        strength.main(["--level", "grandmaster", "--deals", "1"])
    with pytest.raises(ValueError):
        strength.main(["--opponent", "grandmaster", "--deals", "1"])
