"""``python -m engine.verify``: a hand checked from its seed, its checks and its exit status."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from fairness_kit import TABLES, Table, play_out, same, seeds

from engine import fingerprint
from engine.verify import main, seeded_hand

ROOT = Path(__file__).resolve().parents[2]
VECTOR = bytes(range(32)).hex()  # docs/FAIRNESS.md's test vector
SKIP = (0x225).to_bytes(32, "big").hex()  # kolbasa for two: deal 1 skipped


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_runs_as_a_player_runs_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine.verify", "--game", "gaple", "--players", "4",
         "--seed", VECTOR, "--fingerprint", "630dcd2966c43366",
         "--seat", "0", "--tiles", "6-6 5-5 6-5", "--played", "0:6-6 1:6-1 2:0-0"],
        cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert "  seat 0: 5-6 5-5 0-6 2-3 6-6 2-4 1-5" in lines
    assert "  seat 3: 3-4 1-4 0-1 0-4 1-3 2-6 4-6" in lines
    assert "  drawn by lot: seat 3 (not used in this hand)" in lines
    assert "✓ fingerprint 630dcd2966c43366 is the seed's" in lines
    assert "✓ seat 0 was dealt 5-6" in lines
    assert "✓ seat 1 played 1-6: dealt to seat 1" in lines
    assert lines[-1] == "every check passed"


def test_a_wrong_command_line_says_why_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "engine.verify", "--game", "gaple", "--players", "4",
         "--seed", "nothex"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "engine.verify: a seed is 64 hex digits\n"


def test_every_check_that_fails_is_marked_and_fails_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(
        capsys, "--game", "gaple", "--players", "4", "--seed", VECTOR,
        "--fingerprint", "630dcd2966c43367", "--seat", "0", "--tiles", "6-6 4-5",
        "--played", "0:6-6 1:4-6 2:0-0 1:6-6")
    assert status == 1
    lines = out.splitlines()
    assert "✗ fingerprint 630dcd2966c43367 is not the seed's, which is 630dcd2966c43366" in lines
    assert "✓ seat 0 was dealt 6-6" in lines
    assert "✗ seat 0 was not dealt 4-5 (dealt to seat 2)" in lines
    assert "✗ seat 1 played 4-6: dealt to seat 3" in lines
    assert "✗ seat 1 played 6-6: it was played before" in lines
    assert lines[-1] == "4 of 7 checks failed"


def test_the_middle_the_stock_and_the_skipped_deals_are_shown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "--game", "gaple-dead", "--players", "4", "--seed", VECTOR,
                         "--played", "3:0-4")
    assert status == 1
    assert "  middle: 0-4 1-3 2-6 4-6 (turned up: 0-4, 0 to the left)" in out
    assert "  drawn by lot: seat 3 (it leads)" in out
    assert "✗ seat 3 played 0-4: turned up from the middle" in out
    status, out, _ = run(capsys, "--game", "kolbasa", "--players", "2", "--seed", SKIP,
                         "--fingerprint", fingerprint(bytes.fromhex(SKIP)),
                         "--played", "0:5-5 1:3-4 0:1-6 1:6-6")
    assert status == 0, out
    assert "deal 1 of the stream skipped: nobody can open it" in out
    assert "  seat 0: 4-5 5-6 0-5 2-6 0-6 2-4 0-4" in out  # the skipped deal is shown
    assert "deal 2 of the stream is the hand's:" in out
    assert "  stock, in draw order: 1-6 3-6 2-4 0-5 1-5 2-2 4-4 0-6 0-1 1-1 3-3 4-6 6-6 1-3" in out
    assert "✓ seat 0 played 1-6: from the stock" in out


def test_options_and_later_hands_change_the_deal_as_the_page_says(
    capsys: pytest.CaptureFixture[str],
) -> None:
    nine = (175).to_bytes(32, "big").hex()  # its first double-9 deal for four has no double
    first = run(capsys, "--game", "pair", "--players", "4", "--seed", nine, "--option", "set=9")
    later = run(capsys, "--game", "pair", "--players", "4", "--seed", nine, "--option", "set=9",
                "--hand", "3")
    lot = run(capsys, "--game", "pair", "--players", "4", "--seed", nine, "--option", "set=9",
              "--option", "first_lead=lot")
    assert "deal 2 of the stream is the hand's:" in first[1]
    assert "deal 1 of the stream is the hand's:" in later[1]
    assert "hand 3 of the match" in later[1]
    assert "deal 1 of the stream is the hand's:" in lot[1] and "(it leads)" in lot[1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "nope", "--players", "4"], "unknown game 'nope'"),
        (["--game", "pair", "--players", "3"], "pair is played by 4 players, not 3"),
        (["--game", "pair", "--players", "x"], "invalid int value: 'x'"),
        (["--game", "pair"], "the following arguments are required: --players, --seed"),
        (["--game", "pair", "--players", "4", "--seed", "ab"], "a seed is 64 hex digits"),
        (["--game", "pair", "--players", "4", "--option", "set=8"], "cannot be 8"),
        (["--game", "pair", "--players", "4", "--option", "deal=7"], "pair has no option 'deal'"),
        (["--game", "pair", "--players", "4", "--option", "set"], "NAME=VALUE"),
        (["--game", "gaple-dead", "--players", "5", "--option", "deal=6"], "dealt 5 tiles"),
        (["--game", "pair", "--players", "4", "--tiles", "6-6"], "--seat and --tiles go"),
        (["--game", "pair", "--players", "4", "--seat", "4", "--tiles", "6-6"],
         "a seat is 0 to 3, not '4'"),
        (["--game", "pair", "--players", "4", "--seat", "1", "--tiles", "6-7"],
         "6-7 is not in the double-6 set"),
        (["--game", "pair", "--players", "4", "--seat", "1", "--tiles", "6/6"],
         "a tile is written a-b"),
        (["--game", "pair", "--players", "4", "--played", "0-6-6"], "SEAT:a-b"),
        (["--game", "pair", "--players", "4", "--played=-1:6-6"], "a seat is 0 to 3"),
        (["--game", "pair", "--players", "4", "--fingerprint", "abc"], "16 hex digits"),
        (["--game", "pair", "--players", "4", "--hand", "0"], "--hand counts from 1"),
        (["--game", "pair", "--players", "4", "--colour", "red"], "unrecognized arguments"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    if "--seed" not in argv and argv != ["--game", "pair"]:
        argv = [*argv, "--seed", VECTOR]
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("engine.verify: ")
    assert message in err


@pytest.mark.parametrize("table", TABLES, ids=str)
def test_the_command_shows_the_deal_the_match_plays(table: Table) -> None:
    rng = random.Random(str(table))
    match = table.match()
    for number, seed in enumerate(seeds(f"verify {table}", 3)):
        if match.over:
            break
        match.deal_from_seed(seed)
        made = seeded_hand(table.match(), seed, first_hand=number == 0)
        assert made.deal == match.hand.deal
        checked, place = table.dealt(seed, first_hand=number == 0)
        assert same(made.deal, checked) and len(made.skipped) == place
        play_out(match, rng)


def test_the_engine_stays_without_clock_or_randomness() -> None:
    source = (ROOT / "engine" / "verify.py").read_text(encoding="utf-8")
    for word in ("import random", "import time", "datetime", "secrets", "os.urandom"):
        assert word not in source
