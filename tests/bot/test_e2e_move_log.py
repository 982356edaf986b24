"""Two players and a stock through Telegram: a tap may set off a run of forced draws and knocks,
committed together and shown in one edit of the table. The group still reads every lay in
the table's caption, and each player is told privately every tile the bot drew for them."""

from __future__ import annotations

import re

import pytest
from bot_kit import Group, plain

from engine import ActionKind, Draw, Knock, Match, Tile, table_view
from fakeapi import FakeChat, FakeTelegramServer
from fakeapi.players import random_choice

HAND = re.compile(r"· hand (\d+)")
DREW_FOR_YOU = re.compile(r"I drew (?:a tile|\d+ tiles) for you(?P<tiles>: [^.]*)?\.")


async def play(group: Group, game: str, seed: int) -> Match:
    """A whole two-player match of ``game``, every choice made at random from ``seed``."""
    async with group.bot():
        table = await group.start(game, 2)
        table.choose = random_choice(seed)
        await table.play_until(group.match_over)
    match = group.game().match
    assert match is not None and match.over
    return match


def said_by_hand(server: FakeTelegramServer, chat: FakeChat) -> dict[int, str]:
    """Every version of every message in ``chat`` that names a hand, by the hand's index."""
    said: dict[int, list[str]] = {}
    for message in server.messages(chat, include_deleted=True):
        for version in message.versions:
            text = plain(version.caption or version.text or "")
            found = HAND.search(text)
            if found:
                said.setdefault(int(found.group(1)) - 1, []).append(text)
    return {number: "\n".join(texts) for number, texts in said.items()}


def drawn_by(match: Match, number: int, seat: int, whole: bool = False) -> list[Tile]:
    """The tiles ``seat`` drew from the stock in hand ``number`` before the last move it
    chose there (each told in its private message of a turn), in order; ``whole``: all of
    them. Those drawn for it after its last choice, in the forced draws and knocks that
    ended the hand, are for the hand's end to tell."""
    hand, tiles, taken, told = match.hands[number], [], 0, 0
    for mover, action in hand.moves:
        if type(action) is Draw:
            if mover == seat:
                tiles.append(hand.deal.stock[taken])
            taken += 1
        elif mover == seat and type(action) is not Knock:
            told = len(tiles)
    return tiles if whole else tiles[:told]


@pytest.mark.parametrize(("game", "seed"), [("matador target=60", 4), ("bergen target=6", 9)])
async def test_the_group_reads_every_lay_and_each_player_every_tile_drawn_for_them(
        group: Group, game: str, seed: int) -> None:
    match = await play(group, game, seed)
    names = [player.name for player in group.game().players]
    captions = said_by_hand(group.server, group.chat)
    private = said_by_hand(group.server, group.users[0].private_chat)
    missing: list[tuple[int, int, str]] = []
    untold: list[tuple[int, object]] = []
    for number in range(len(match.hands)):
        view = table_view(match, number)
        for index, move in enumerate(view.history):
            if move.kind is ActionKind.PLAY:
                verb = "led" if move.ends_before is None else "laid"
                lay = f"{names[move.seat]} {verb} {move.tile}"
                if lay not in captions[number]:
                    missing.append((number, index, lay))
        told = [Tile.parse(tile) for said in DREW_FOR_YOU.finditer(private[number])
                if said.group("tiles") for tile in said.group("tiles")[2:].split(", ")]
        mine = drawn_by(match, number, 0)
        # every tile drawn for the player is named to them, in order, and no other
        told = list(dict.fromkeys(told))  # as first told (each message is edited again)
        if told[:len(mine)] != mine or not set(told) <= set(drawn_by(match, number, 0, True)):
            untold.append((number, (told, mine)))
        untold += [(number, said.group(0)) for said in DREW_FOR_YOU.finditer(private[number])
                   if not said.group("tiles")]
    assert not missing and not untold, (missing, untold)
