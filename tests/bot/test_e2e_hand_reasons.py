"""Why a hand was won, where the pips in hand do not say it, told in the group through
Telegram: a deliberate Bergen deal (the shared example bergen_blocked_all_doubles) played
move by move with the players' taps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bot_kit import Group

import engine.match
from engine import Deal, Tile
from fakeapi.players import TILE_BUTTON, Table

EXAMPLE = json.loads((Path(__file__).parents[1] / "engine" / "conformance"
                      / "bergen_blocked_all_doubles.json").read_text())["hands"][0]


def tile(text: str) -> Tile:
    a, b = text.split("-")
    return Tile(int(a), int(b))


class Script:
    """A chooser for :class:`Table` that taps the example's plays in order (the bot draws
    and knocks by itself for a player who has no choice)."""

    def __init__(self) -> None:
        self.plays = [(tile(a["play"]), a.get("end")) for a in EXAMPLE["actions"] if "play" in a]
        self.end: str | None = None

    def __call__(self, labels: list[str]) -> str:
        if any(TILE_BUTTON.match(label) for label in labels):  # which tile
            played, self.end = self.plays.pop(0)
            return next(label for label in labels if label.endswith(" " + str(played)))
        return next(label for label in labels if f" {self.end} " in label + " ")  # which end


@pytest.fixture
def bergen_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    hands = tuple(tuple(tile(t) for t in seat) for seat in EXAMPLE["deal"])
    deal = Deal(hands, (), EXAMPLE["first"], None, tuple(tile(t) for t in EXAMPLE["stock"]))
    monkeypatch.setattr(engine.match, "shuffle_deal", lambda *args, **kwargs: deal)


async def test_a_blocked_bergen_hand_won_by_the_lowest_double_says_so(
        group: Group, bergen_deal: None) -> None:
    async with group.bot():
        table = await group.start("bergen", players=3)
        script = Script()
        await Table(group.server, table.players, script).play_until(
            lambda: bool(group.hand_results()))
    result = group.hand_results()[0]
    assert "Blocked after" in result
    assert "Everyone holds a double: Budi's 0-0 is the lowest." in result
    lines = result.splitlines()
    reason = lines.index("Everyone holds a double: Budi's 0-0 is the lowest.")
    assert lines[reason + 1].startswith("Budi wins the blocked hand")
