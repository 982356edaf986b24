"""Gaple with dead tiles: a player whose only tile fits nowhere is not asked to choose it and
then to confirm it while the turn timer runs (player QA: two taps for a forced move); the bot
puts it face down at once, as it knocks for a player who cannot lay, tells the player in
their private chat and the group as it tells any dead tile."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from bot_kit import Group, plain

import engine.match
from engine import Deal, Discard, Move, Tile
from fakeapi import FakeChat, FakeTelegramServer
from fakeapi.players import TILE_BUTTON, Table


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile(*map(int, pair.split("-"))) for pair in text.split())


# Ayu (seat 0, drawn by lot) leads onto the turned-up 2-2; the tiles below are tapped in
# turn, each fitting one end only (a lay at one tap); Ayu (⬛ 0-3) and Sergei (⬛ 0-4) put a
# tile face down by choice on the way. Then Ayu holds 0-0 alone, on ends 4 and 6.
DEAL = Deal(
    (tiles("0-3 2-3 1-4 2-6 0-5 0-0"), tiles("1-1 3-6 3-4 3-3 4-5 5-5"),
     tiles("0-4 0-2 4-4 0-6 1-5 3-5"), tiles("1-3 5-6 2-4 2-5 1-2 0-1")),
    tiles("2-2 4-6 1-6 6-6"), lot=0,
)
TAPS = ("2-6", "3-6", "0-2", "1-3", "0-5", "4-5", "4-4", "1-2", "2-3", "3-3",
        "3-5", "2-4", "0-3", "5-5", "1-5", "2-5", "1-4", "3-4", "0-4", "5-6")


class Taps:
    """Taps the tiles of :data:`TAPS` in order, and confirms a tile put face down; asked for
    anything more, it fails (nothing is left to decide)."""

    def __init__(self) -> None:
        self.left = list(TAPS)

    def __call__(self, labels: list[str]) -> str:
        if not any(TILE_BUTTON.match(label) for label in labels):
            return next(label for label in labels if "Yes, put" in label)
        assert self.left, f"asked to choose among {labels} with nothing left to decide"
        tile = self.left.pop(0)
        return next(label for label in labels if label.endswith(" " + tile))


def versions(server: FakeTelegramServer, chat: FakeChat) -> Iterator[str]:
    """Every version of every message the bot showed in ``chat``."""
    for message in server.world.messages_in(chat):
        for version in message.versions if message.from_bot else ():
            yield plain(version.caption or version.text or "")


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand the bot deals is :data:`DEAL`."""
    monkeypatch.setattr(engine.match, "seeded_deal", lambda *args, **kwargs: DEAL)


async def test_a_last_tile_that_fits_nowhere_goes_face_down_without_a_tap(
        group: Group, dealt: None) -> None:
    async with group.bot():
        table = await group.start("gaple-dead")
        taps = Taps()
        await Table(group.server, table.players, taps).play_until(
            lambda: bool(group.hand_results()))
        assert taps.left == []
    game = group.game()
    assert game.match is not None
    first = game.match.hands[0]
    assert first.moves[-1] == Move(0, Discard(Tile(0, 0)))  # made by the bot, not tapped
    assert game.timer.auto_moves == [] and game.timer.timeouts == {}  # no time ran out
    ayu = group.users[0]
    told = list(versions(group.server, ayu.private_chat))
    assert not any("Put 0-0 face down?" in text for text in told)
    end = next(text for text in told if "Ayu put their last tile face down" in text)
    assert "You could not lay a tile, so I put your last tile, 0-0, face down for you " \
        "(dead tile)." in end
    assert "Your dead tiles: 0-3, 0-0." in end
    # The group hears it as any dead tile: its move, then how the hand ended.
    heard = list(versions(group.server, group.chat))
    assert any("Ayu put a tile face down (dead tile)." in text for text in heard)
    assert "Ayu put their last tile face down and has none left." in group.hand_results()[0]
    assert not any("0-0" in text and "face down" in text for text in heard)  # face unseen
    # A tile put face down by choice is confirmed to its player as their own move, with its
    # face (player QA: their own chat said "✔ Played: Ayu put a tile face down").
    assert any("\n✔ You put 0-3 face down (dead tile).\n" in text for text in told)
    sergei = list(versions(group.server, group.users[2].private_chat))
    assert any("\n✔ You put 0-4 face down (dead tile).\n" in text for text in sergei)
    assert any("Sergei put a tile face down (dead tile)." in text for text in heard)
    assert not any(tile in text and "face down" in text for text in heard
                   for tile in ("0-3", "0-4"))
