"""Matches stored before a change load and replay unchanged: the records in stored_matches/
were written by the engine as it was (a game with a stock, cuts, draws, knocks and crosswise
tiles; the line games with a middle, dead tiles and partnerships), and must load, replay to
the same scores and write back byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import match_from_json, match_to_json

STORED = Path(__file__).parent / "stored_matches"
# Per record: the scores after replay, and how many actions each hand holds.
EXPECTED = {
    "kolbasa": ((0, 35), [50]),
    "six_matador": ((1, 20), [52]),
    "muggins": ((5, 0, 25), [14]),
    "gaple_dead": ((34, 26, 26, 44, 17), [13, 21]),
    "pair": ((10, 15), [30, 28]),
}


def test_every_record_is_checked() -> None:
    assert sorted(p.stem for p in STORED.glob("*.json")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_stored_match_loads_replays_and_writes_back_the_same(name: str) -> None:
    text = (STORED / f"{name}.json").read_text().strip()
    match = match_from_json(text)
    scores, actions = EXPECTED[name]
    assert match.scores == scores
    assert [len(hand.moves) for hand in match.hands] == actions
    assert all(hand.over for hand in match.hands)
    assert match_to_json(match) == text
