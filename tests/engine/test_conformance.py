"""The shared conformance examples, answered exactly, in process and through the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import match_to_dict
from engine.conformance import answer, load_json
from engine.record import replay

HERE = Path(__file__).parent
FIXTURES = HERE / "conformance"
ROOT = HERE.parent.parent
SCENARIOS = sorted(p for p in FIXTURES.glob("*.json") if not p.name.endswith(".expected.json"))


def expected(path: Path) -> Any:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text())


def scenario(path: Path) -> Any:
    """A scenario as the runner reads it (some are nested deeper than json.loads goes)."""
    return load_json(path.read_text())


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "engine.conformance", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )


def test_every_example_has_its_expected_answer() -> None:
    assert len(SCENARIOS) >= 8
    for path in SCENARIOS:
        assert path.with_name(path.stem + ".expected.json").exists(), path


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_example_answered_exactly(path: Path) -> None:
    assert answer(scenario(path)) == expected(path)


def test_cli_answers_every_file_one_line_each_in_order() -> None:
    result = run_cli(*map(str, SCENARIOS))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(SCENARIOS)
    for line, path in zip(lines, SCENARIOS, strict=True):
        assert json.loads(line) == expected(path)
        assert "\n" not in line and ": " not in line  # compact, one object a line


@pytest.mark.parametrize("name", ["pair_out", "illegal_knock_holding_playable"])
def test_cli_reads_one_scenario_from_stdin(name: str) -> None:
    path = FIXTURES / f"{name}.json"
    result = run_cli(stdin=path.read_text())
    assert result.returncode == 0, result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == [expected(path)]


def test_cli_exits_0_for_a_scenario_with_an_illegal_action() -> None:
    path = FIXTURES / "illegal_knock_holding_playable.json"
    result = run_cli(str(path))
    assert result.returncode == 0
    assert json.loads(result.stdout)["error"]["code"] == "illegal"


def test_cli_exits_0_for_bad_input_inside_valid_json() -> None:
    result = run_cli(stdin='{"variant": "chess", "players": 4}')
    assert result.returncode == 0
    assert json.loads(result.stdout)["error"]["code"] == "bad_input"


def test_cli_exits_non_zero_for_input_that_is_not_json(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"variant": "pair",')
    result = run_cli(str(broken))
    assert result.returncode != 0
    assert result.stdout == ""
    assert "not JSON" in result.stderr
    result = run_cli(stdin="this is not json")
    assert result.returncode != 0
    assert result.stdout == ""


def test_cli_exits_non_zero_when_a_file_cannot_be_read(tmp_path: Path) -> None:
    result = run_cli(str(tmp_path / "missing.json"))
    assert result.returncode != 0
    assert result.stdout == ""


def test_cli_with_one_bad_file_among_good_ones_exits_non_zero(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("[")
    assert run_cli(str(SCENARIOS[0]), str(broken)).returncode != 0


def test_keys_the_format_does_not_name_are_ignored() -> None:
    path = FIXTURES / "pair_out.json"
    data = json.loads(path.read_text())
    data["comment"] = "ignored"
    data["hands"][0]["note"] = "ignored"
    data["hands"][0]["seed"] = 42  # a stored match's key, not the format's
    data["hands"][0]["actions"][0]["why"] = "ignored"
    assert answer(data) == expected(path)


def test_tiles_may_be_written_in_either_order() -> None:
    path = FIXTURES / "gaple_out.json"
    data = json.loads(path.read_text())
    for seat_tiles in data["hands"][0]["deal"]:
        seat_tiles[:] = ["-".join(reversed(t.split("-"))) for t in seat_tiles]
    assert answer(data) == expected(path)


def test_a_stored_match_is_a_scenario_with_the_same_answer() -> None:
    for path in SCENARIOS:
        replayed = replay(scenario(path)).match
        if replayed is None or not replayed.hands:
            continue
        stored = match_to_dict(replayed)
        want = expected(path)
        if want["error"] is None:
            assert answer(stored) == want
        else:  # the stored match ends where the error stopped the scenario
            assert answer(stored) == {**want, "error": None}
