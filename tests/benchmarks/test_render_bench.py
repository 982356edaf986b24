"""The benchmark's report: the figures README quotes, in the JSON shape the issue fixes."""

from __future__ import annotations

import json

import pytest

from benchmarks import render as bench
from renderers.table import HEIGHT, TALLEST


def test_the_last_line_is_the_json_the_readme_describes(capsys: pytest.CaptureFixture[str]) -> None:
    bench.main(["--rounds", "1"])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    report = json.loads(last)
    assert list(report) == ["tables", "layouts", "moves"]
    assert [row["tiles"] for row in report["tables"]] == list(bench.LINE_LENGTHS)
    for row in report["tables"]:
        assert list(row) == ["tiles", "median_ms", "floor_ms", "bytes", "width", "height"]
        assert row["median_ms"] > 0 and row["floor_ms"] > 0 and row["bytes"] > 0
        assert row["width"] == 1280 and HEIGHT <= row["height"] <= TALLEST
    assert [row["name"] for row in report["layouts"]] == list(bench.layouts())
    for row in report["layouts"]:
        assert list(row) == ["name", "tiles", "median_ms", "floor_ms", "bytes", "width", "height"]
        assert row["tiles"] >= 8 and row["median_ms"] > 0 and row["bytes"] > 0
    assert [(row["game"], row["seats"]) for row in report["moves"]] == list(bench.MOVE_GAMES)
    for row in report["moves"]:
        assert row["moves"] > 5 and row["from_frame_ms"] > 0 and row["whole_ms"] > 0
        assert 0 < row["bands_drawn"] < row["bands"]  # a move draws some bands, never all
