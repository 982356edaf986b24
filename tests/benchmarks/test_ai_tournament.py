"""The tournament and the outside comparison on tiny runs; the hard level's edge as a sanity
property (strength and speed are measured by ``python -m benchmarks.tournament``, not here)."""

from __future__ import annotations

import json

import pytest

from benchmarks import duplicate, tournament

LEVEL_FIELDS = {
    "hands", "win_share", "win_share_ci", "decisive_win_share", "decisive_win_share_ci",
    "points", "points_ci", "decisions", "median_ms", "p99_ms",
}


def test_the_tournament_ends_with_one_json_line_keyed_by_game_and_level(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert tournament.main(
        ["--hands", "8", "--hands-for", "matador=4", "--workers", "1", "--seed", "3"]
    ) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    report = json.loads(lines[-1])
    assert report["focus"] == "hard" and report["field"] == "normal"
    assert len(report["load_before"]) == len(report["load_after"]) == 3
    summary = lines.index(next(line for line in lines if line.startswith("summary: ")))
    for game in tournament.GAMES:
        assert any(line.startswith(f"{game}: hard vs normal") for line in lines)
        assert any(line.split()[:1] == [game] for line in lines[summary + 1 : -1])
        figures = report[game]
        assert figures["hands"] == (4 if game == "matador" else 8)
        assert set(figures["targets"]) == {"ahead", "median", "p99"}
        for level in ("hard", "normal"):
            assert set(figures[level]) == LEVEL_FIELDS
            low, high = figures[level]["win_share_ci"]
            assert low <= figures[level]["win_share"] <= high
            assert figures[level]["decisions"] > 0


def test_each_focus_level_is_held_to_its_own_time_targets() -> None:
    def figures(median: float, p99: float) -> dict[str, object]:
        return {"edge": {"ahead": True}, "hard": {"median_ms": median, "p99_ms": p99},
                "expert": {"median_ms": median, "p99_ms": p99}}
    slow = figures(400.0, 1500.0)
    assert tournament.targets(slow, "expert") == {"ahead": True, "median": True}
    assert tournament.targets(slow, "hard") == {"ahead": True, "median": False, "p99": False}
    assert tournament.targets(figures(40.0, 120.0), "hard") == {
        "ahead": True, "median": True, "p99": True}
    assert tournament.targets(figures(600.0, 900.0), "expert")["median"] is False


def test_the_tournament_refuses_a_garbled_number_of_hands_for_a_game() -> None:
    with pytest.raises(SystemExit):
        tournament.main(["--hands-for", "matador=lots"])
    with pytest.raises(SystemExit):
        tournament.main(["--hands-for", "chess=10"])


def test_the_tournament_refuses_unknown_or_equal_levels() -> None:
    with pytest.raises(ValueError):
        tournament.main(["--hands", "2", "--focus", "grandmaster"])
    with pytest.raises(SystemExit):
        tournament.main(["--hands", "2", "--focus", "normal", "--field", "normal"])


def test_hard_beats_easy_clearly() -> None:
    """Pair, 16 deals each played with the partnerships swapped: a sanity check of strength,
    not its measure (that is the tournament's job)."""
    figures = duplicate.play_game("pair", 32, 5, "hard", "easy", None)
    assert figures["hard"]["decisive_win_share"] >= 0.6
    assert figures["hard"]["points"] > 2 * figures["easy"]["points"]


def test_the_outside_comparison_plays_their_game_through_the_mirror(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("dominoes")
    from benchmarks import ai_compare

    code = ai_compare.main(
        ["--hands", "4", "--workers", "1", "--matchups", "hard:bota_gorda,normal:bota_gorda"]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    for key in ("hard:bota_gorda", "normal:bota_gorda"):
        assert report[key]["hands"] == 4
        assert report[key]["first_time"]["decisions"] > 0
