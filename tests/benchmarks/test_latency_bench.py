"""The latency benchmark's report: the real bot and the echo bot both measured, in one JSON
line (a tiny run: two moves)."""

from __future__ import annotations

import json

import pytest

from benchmarks import latency


def test_the_last_line_is_one_json_object_with_both_bots_figures(
        capsys: pytest.CaptureFixture[str]) -> None:
    latency.main(["--moves", "2", "--warmup", "1"])
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["moves"] == 2 and report["echo_taps"] == 2
    for name in ("bot_answer_ms", "bot_edit_ms", "echo_answer_ms", "echo_edit_ms"):
        assert report[name]["n"] == 2 and report[name]["median"] > 0
    assert report["edit_ratio"] > 0 and report["answer_ratio"] > 0
    assert report["calls_per_move"] >= 3  # the answer, the table, the hands
    assert report["kb_uploaded_per_move"] > 0
