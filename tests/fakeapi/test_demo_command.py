"""The demo's command refuses what it cannot play in one usage line, before starting a bot
(it used to wait for a turn that never came and end in a traceback), and a run's folder shows
that run only."""

from __future__ import annotations

from pathlib import Path

import pytest

from fakeapi import demo as demo_module
from fakeapi.demo import SEED_LIMIT, deal_seeds, earlier_output, main


@pytest.mark.parametrize(("arguments", "said"), [
    (["--game", "gaple-dead", "--players", "3"], "gaple-dead is played by 4 to 5 players, not 3"),
    (["--game", "pair", "--players", "7"], "pair is played by 4 players, not 7"),
    (["--game", "matador", "--players", "0"], "matador is played by 2 to 4 players, not 0"),
    (["--theme", "pink"], "invalid choice: 'pink'"),
    (["--seed", "-5"], "argument --seed: a seed is from 0 to 10**74 - 1, not -5"),
    (["--seed", str(SEED_LIMIT)], f"not {SEED_LIMIT}"),
    (["--seed", "one"], "argument --seed: not a whole number: 'one'"),
])
def test_a_table_it_cannot_seat_or_draw_is_a_usage_error(
        arguments: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(arguments)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


@pytest.mark.parametrize("seed", [0, SEED_LIMIT - 1])
def test_every_seed_it_accepts_makes_its_deal_seeds(seed: int) -> None:
    seeds = list(deal_seeds(seed))
    assert len(set(seeds)) == len(seeds) and {len(s) for s in seeds} == {32}


def test_the_help_shows_the_defaults_and_what_the_folder_gets(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "(default: demo-output)" in shown and "(default: pair)" in shown
    assert "group.txt" in shown and "private.txt" in shown


def test_a_run_removes_only_the_files_an_earlier_run_wrote(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    ours = ["group_000.png", "group_171.png", "group_1000.png", "group.txt", "private.txt"]
    theirs = ["notes.txt", "group_logo.png", "group_01.png", "my_group_000.png", "private.txt.bak"]
    for name in ours + theirs:
        (tmp_path / name).write_text(name)
    (tmp_path / "group_002.png").mkdir()
    assert [p.name for p in earlier_output(tmp_path)] == sorted(ours)

    async def played(game: str, players: int, out: Path, *rest: object) -> str:
        assert not earlier_output(out)  # cleared before the run starts
        return "the group's chat"

    monkeypatch.setattr(demo_module, "demo", played)
    assert main(["--out", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert f"Removed 5 files of an earlier demo run from {tmp_path}/" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*theirs, "group_002.png"])


def test_a_file_for_a_folder_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "out").write_text("mine")
    with pytest.raises(SystemExit) as stopped:
        main(["--out", str(tmp_path / "out")])
    assert stopped.value.code == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    assert (tmp_path / "out").read_text() == "mine"
