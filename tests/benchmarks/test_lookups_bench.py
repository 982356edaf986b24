"""The lookups benchmark's report, and its check that both ways find the same games."""

from __future__ import annotations

import json
from typing import Any

import pytest

from benchmarks import lookups as bench
from bot.storage import Storage


def test_the_last_line_gives_both_ways_for_each_lookup(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    bench.main(["--open", "40", "--finished", "40", "--hands", "2", "--rounds", "30",
                "--sqlite-only"])
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (report["open"], report["finished"], report["hands"]) == (40, 40, 2)
    figures = report["sqlite"]
    assert figures["people"] == 88
    for name in ("open_tables", "recent_hands", "matches"):
        assert figures[name]["seats_ms"] > 0 and figures[name]["text_ms"] > 0


def test_a_lookup_that_finds_other_games_stops_the_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The figures compare two ways of finding the same games: a way that finds others (here
    the open tables' lookup missing the newest) ends the run instead of timing it."""
    real = bench._lookups

    def losing(storage: Storage) -> dict[str, tuple[bench.Lookup, bench.Lookup]]:
        lookups = dict(real(storage))
        by_seats, as_text = lookups["open_tables"]

        async def newest_lost(person: int) -> list[Any]:
            return list(await by_seats(person))[1:]

        lookups["open_tables"] = (newest_lost, as_text)
        return lookups

    monkeypatch.setattr(bench, "_lookups", losing)
    with pytest.raises(SystemExit, match="open_tables: person"):
        bench.main(["--open", "40", "--finished", "0", "--rounds", "30", "--sqlite-only"])
