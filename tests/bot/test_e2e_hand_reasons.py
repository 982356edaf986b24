"""What the players read on deliberate deals (the shared conformance examples), played move
by move with their taps through Telegram: why a hand was won where the pips in hand do not
say it; the ribbon a Kolbasa player takes, told to them with its tiles; draws told before
the knock they led to."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bot_kit import Group, plain

import engine.match
from bot.presentation import laychoices
from engine import Cut, Deal, End, Play, Tile, player_view
from fakeapi import FakeUser
from fakeapi.players import TILE_BUTTON, Table

CONFORMANCE = Path(__file__).parents[1] / "engine" / "conformance"


def example(name: str) -> dict[str, Any]:
    hand: dict[str, Any] = json.loads((CONFORMANCE / f"{name}.json").read_text())["hands"][0]
    return hand


def tile(text: str) -> Tile:
    a, b = text.split("-")
    return Tile(int(a), int(b))


# Kolbasa's buttons name the engine's left and right ribbons as the picture draws them
RIBBON_WORDS = {"left": "upper", "right": "lower"}
MIRROR = {"left": "right", "right": "left"}
END_NAMES = {"left": End.LEFT, "right": End.RIGHT}


class Script:
    """A chooser for :class:`Table` that taps an example's lays and cuts in order (the bot
    draws and knocks by itself for a player who has no choice); ``ribbons``: the example's
    ends are Kolbasa's ribbons, whose buttons say upper and lower."""

    def __init__(self, hand: dict[str, Any], game: str, ribbons: bool = False) -> None:
        words = RIBBON_WORDS if ribbons else {}
        self.moves = [(tile(a["cut"]), f"give {words.get(a['give'], a['give'])}") if "cut" in a
                      else (tile(a["play"]), words.get(a.get("end", ""), a.get("end", "")))
                      for a in hand["actions"] if "play" in a or "cut" in a]
        self.merged = merged_lays(hand, game)
        self.second = ""
        # A lay on one of a line's two ends alike is laid at once, on the first (the left):
        # where the example laid it on the right, the line is its mirror from then on
        self.mirrored = False

    def __call__(self, labels: list[str]) -> str:
        if any(TILE_BUTTON.match(label) for label in labels):  # which tile
            played, second = self.moves.pop(0)
            self.second = MIRROR.get(second, second) if self.mirrored else second
            if self.merged.pop(0) and self.second == "right":
                self.mirrored = not self.mirrored
            return next(label for label in labels if label.endswith(" " + str(played)))
        return next(label for label in labels if f" {self.second} " in label + " ")


def merged_lays(hand: dict[str, Any], game: str) -> list[bool]:
    """For each lay or cut of the example, whether the bot lays it at once though the
    engine offers it at two ends (ends alike: bot.presentation.laychoices.lays_of); the
    draws and knocks between are the engine's (as the bot makes them for the players)."""
    deal = Deal(tuple(tuple(tile(t) for t in seat) for seat in hand["deal"]), (),
                hand.get("first", 0), None, tuple(tile(t) for t in hand["stock"]))
    match = engine.match.Match(game, len(deal.hands), automate=True)
    match.start_hand(deal)
    merged = []
    for data in hand["actions"]:
        if "play" in data:
            action: Play | Cut = Play(tile(data["play"]), END_NAMES.get(data.get("end", "")))
        elif "cut" in data:
            action = Cut(tile(data["cut"]), END_NAMES[data["give"]])
        else:
            continue  # (a draw or a knock: made by the engine, as by the bot)
        seat = match.to_move
        assert seat is not None
        view = player_view(match, seat)
        offered = [a for a in view.legal if getattr(a, "tile", None) == action.tile]
        merged.append(len(laychoices.lays_of(view, action.tile, match)) < len(offered))
        match.apply(seat, action)
    return merged


@pytest.fixture
def dealt(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Every hand the bot deals is the first hand of the example the test is marked with."""
    hand = example(request.param)
    hands = tuple(tuple(tile(t) for t in seat) for seat in hand["deal"])
    deal = Deal(hands, (), hand["first"], None, tuple(tile(t) for t in hand["stock"]))
    monkeypatch.setattr(engine.match, "seeded_deal", lambda *args, **kwargs: deal)
    return hand


def private_texts(group: Group, user: FakeUser) -> Iterator[str]:
    """Every version of every message the bot showed ``user`` in private (deleted ones
    too: a hand message is sent again when the player's turn comes)."""
    for message in group.server.world.messages_in(user.private_chat):
        for version in message.versions if message.from_bot else ():
            yield plain(version.caption or version.text or "")


@pytest.mark.parametrize("dealt", ["bergen_blocked_all_doubles"], indirect=True)
async def test_a_blocked_bergen_hand_won_by_the_lowest_double_says_so(
        group: Group, dealt: dict[str, Any]) -> None:
    async with group.bot():
        table = await group.start("bergen", players=3)
        await Table(group.server, table.players, Script(dealt, "bergen")).play_until(
            lambda: bool(group.hand_results()))
    result = group.hand_results()[0].splitlines()
    assert result[1].startswith("Blocked")
    reason = result.index("Everyone holds a double: Budi's 0-0 is the lowest.")
    assert result[reason + 1].startswith("Budi wins the blocked hand")
    # Budi's knock ended the hand: the group's result tells it; his own turn message tells a
    # knock made for him only when a turn of his comes after it (tests/bot/test_move_texts.py).
    assert not any("so I knocked for you" in text and "Not your turn yet" in text
                   for text in private_texts(group, group.users[1]))


@pytest.mark.parametrize("dealt", ["kolbasa_out_by_cut"], indirect=True)
async def test_the_player_who_takes_a_ribbon_is_told_its_tiles(
        group: Group, dealt: dict[str, Any]) -> None:
    """Budi cuts with 0-2 and gives the lower ribbon (the engine's right, 2-3) to Ayu, who
    moves next."""
    ayu = group.users[0]
    script = Script(dealt, "kolbasa", ribbons=True)
    async with group.bot():
        table = await group.start("kolbasa", players=2)
        player = Table(group.server, table.players, script)
        total = len(script.moves)
        await player.play_until(lambda: total - len(script.moves) == 4)  # up to the cut
        await group.server.wait_for(lambda: any(
            "you take the lower ribbon" in text for text in private_texts(group, ayu)))
    mine = next(text for text in private_texts(group, ayu) if "you take the lower" in text)
    assert "• ✂ Budi cut with 0-2: you take the lower ribbon: 2-3." in mine
    assert "Ayu takes" not in mine
    group_says = "\n".join(group.texts())
    assert "✂ Budi cut with 0-2: Ayu takes the lower ribbon, 1 tile" in group_says
