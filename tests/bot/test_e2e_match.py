"""A whole match of each game, played by four people through Telegram, start to winner."""

from __future__ import annotations

import re

import pytest
from bot_kit import Group

from bot.models import Status
from engine import Tile

TILE = re.compile(r"\b(\d{1,2})-(\d{1,2})\b")


@pytest.mark.parametrize(("game", "players"), [("gaple", 4), ("gaple-dead", 4),
                                               ("gaple-dead", 5), ("pair", 4)])
async def test_a_whole_match_from_newgame_to_the_winner(group: Group, game: str,
                                                        players: int) -> None:
    async with group.bot():
        table = await group.start(game, players)
        moves = await table.play_until(group.match_over)
        finished = group.game()
    assert finished.status is Status.FINISHED
    match = finished.match
    assert match is not None and match.over
    assert moves > 10
    assert len(group.hand_results()) == len(match.hands)  # one result message per hand
    assert sum(t.startswith("The match is over") for t in group.texts()) == 1
    tables = [m for m in group.server.bot_messages(group.chat) if m.photo and m.edit_count]
    assert tables, "the table picture is edited in place"
    assert not [e for e in group.server.errors if "not modified" in (e.description or "")]


async def test_nothing_in_the_group_shows_a_hidden_tile(group: Group) -> None:
    """Captions name only tiles already in the line (or the turned-up middle tile)."""
    async with group.bot():
        table = await group.start("gaple-dead")
        await table.play_until(group.match_over)
        game = group.game()
    assert game.match is not None
    for message in group.server.bot_messages(group.chat):
        for version in message.versions:
            caption = version.caption or version.text or ""
            if re.match(r"Hand \d+ is over", caption) or not caption:
                continue  # a hand result lays every hand open: that is the rule
            hand = re.search(r"hand (\d+)", caption)
            if hand is None:
                continue
            placed = game.match.hands[int(hand.group(1)) - 1]
            shown = {Tile(int(a), int(b)) for a, b in TILE.findall(caption)}
            allowed = {p.tile for p in placed.line.placed}
            assert shown <= allowed, caption


async def test_each_player_sees_only_their_own_tiles(group: Group) -> None:
    async with group.bot():
        table = await group.start("pair")
        for _ in range(12):
            await table.play_one()
        game = group.game()
    match = game.match
    assert match is not None
    for seat, user in enumerate(group.users[:4]):
        dealt = set(match.hand.deal.hands[seat])
        for message in group.server.bot_messages(user.private_chat):
            if "hand 1" not in (message.caption or ""):
                continue
            labels = [b.text for row in message.buttons for b in row]
            tiles = {Tile(int(a), int(b)) for label in labels
                     for a, b in re.findall(r"(\d+)-(\d+)", label)}
            assert tiles <= dealt


ENDINGS = re.compile(r"went out with \d+-\d+|laid their last tile, \d+-\d+|Blocked after .+'s "
                     r"\d+-\d+|has no tiles left|put their last tile face down|Blocked: nobody")


@pytest.mark.parametrize("game", ["gaple", "gaple-dead", "pair"])
async def test_every_hand_ends_on_its_final_position(group: Group, game: str) -> None:
    """Each hand's table is left showing how that hand ended, and never asks anyone to move;
    each hand's result says how it ended, naming the tile."""
    async with group.bot():
        table = await group.start(game)
        await table.play_until(group.match_over)
        finished = group.game()
    assert finished.match is not None and len(finished.match.hands) >= 2
    tables = [m for m in group.server.bot_messages(group.chat)
              if m.photo and re.search(r"· hand \d+", m.caption or "")]
    assert len(tables) == len(finished.match.hands)  # one table message per hand
    for message in tables:
        caption = message.caption or ""
        assert "Your turn" not in caption and "is thinking" not in caption, caption
        assert ENDINGS.search(caption), caption
        assert not message.buttons  # a finished hand's table has no live buttons
    results = group.hand_results()
    assert len(results) == len(finished.match.hands)
    assert all(ENDINGS.search(text) for text in results)
    if game == "gaple-dead":
        assert not any("Gaple!" in text for text in group.texts())
        assert any("wins the hand with the lowest total" in text for text in results)
        assert all("Penalty points this hand:" in text for text in results)  # issue 24
        assert not any("the lowest total wins" in text for text in results)  # said once
    for user in group.users[:4]:  # every player hears privately how the match ended
        last = [m for m in group.server.bot_messages(user.private_chat) if m.photo][-1]
        assert "The match is over: " in (last.caption or "")
        assert last.button_texts == ["🔁 Play again"]  # (as the group's result offers it)
