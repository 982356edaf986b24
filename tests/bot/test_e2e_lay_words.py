"""The second tap's words through Telegram, on deliberate deals: a way says what it leaves
(player QA: "along" and "across" did not say what they do), a cut the pips it gives (its
"1 tile" and "1 tile" told nothing: a cut's two ribbons always hold as many)."""

from __future__ import annotations

import pytest
from bot_kit import Group, plain

import engine.match
from engine import Deal, End, Tile, full_set, table_view
from fakeapi import FakeUser, StoredMessage
from fakeapi.players import Table


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile(int(a), int(b)) for a, b in (t.split("-") for t in text.split()))


def deal_every_hand(monkeypatch: pytest.MonkeyPatch, first: str, second: str) -> None:
    """Every hand the bot deals to two seats: ``first`` to seat 0 (who leads), ``second``
    to seat 1, the rest in the stock."""
    hands = (tiles(first), tiles(second))
    stock = tuple(t for t in full_set(6) if t not in hands[0] + hands[1])
    deal = Deal(hands, (), 0, None, stock)
    monkeypatch.setattr(engine.match, "seeded_deal", lambda *args, **kwargs: deal)


async def tap(group: Group, user: FakeUser, message: StoredMessage, label: str) -> None:
    shown = message.button_texts
    record = user.press(message, label)
    await group.server.wait_for(lambda: record.answered)
    await group.server.wait_for(lambda: message.deleted or message.button_texts != shown)


async def turn_of(group: Group, table: Table, user: FakeUser) -> StoredMessage:
    turn = await group.server.wait_for(
        lambda: (found := table.whose_turn()) is not None and found[0] is user and found)
    return turn[1]


async def after_the_lead(group: Group, table: Table, lead: str, tile: str) -> StoredMessage:
    """Ayu leads ``lead``; Budi taps ``tile`` of his hand: his message, asking where."""
    ayu, budi = group.users[:2]
    await tap(group, ayu, await turn_of(group, table, ayu), f"✅ {lead}")
    message = await turn_of(group, table, budi)
    await tap(group, budi, message, f"✅ {tile}")
    return message


async def test_a_matador_says_what_along_and_across_leave(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_every_hand(monkeypatch, "1-2 0-1 0-2 0-3 0-4 0-5", "1-6 2-2 2-3 3-3 4-4 5-5")
    budi = group.users[1]
    async with group.bot():
        table = await group.start("matador", players=2)
        message = await after_the_lead(group, table, "1-2", "1-6")
        assert [label for row in message.buttons for label in (b.text for b in row)] == [
            "◀ left 1 along → 1", "◀ left 1 across → 1/6", "▶ right 2 across → 1/6",
            "↩ Back"]
        assert "Where does 1-6 go? Tap an end and a way: → says what it leaves." \
            in plain(message.caption or "")
        await tap(group, budi, message, "◀ left 1 across → 1/6")
        match = group.game().match
        assert match is not None
        await group.server.wait_for(lambda: [
            end.numbers for end in table_view(match).layout.ends] == [(1, 6), (2,)])


async def test_a_kolbasa_cut_says_the_pips_of_each_ribbon_it_may_give(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_every_hand(monkeypatch, "1-1 1-4 0-0 0-2 0-5 0-6 2-2", "1-3 3-4 2-5 2-6 5-5 5-6 6-6")
    ayu, budi = group.users[:2]
    async with group.bot():
        table = await group.start("kolbasa", players=2)
        message = await after_the_lead(group, table, "1-1", "1-3")  # 1-1: the base
        await tap(group, budi, message, "▲ upper 1")
        await tap(group, ayu, await turn_of(group, table, ayu), "✅ 1-4")  # the lower ribbon
        message = await turn_of(group, table, budi)
        await tap(group, budi, message, "✅ 3-4")
        # the upper ribbon 1-3 (4 pips), the lower 1-4 (5 pips): one tile each, as always
        assert [label for row in message.buttons for label in (b.text for b in row)] == [
            "▲ upper 3", "▼ lower 4", "✂ give upper ribbon: 4 pips",
            "✂ give lower ribbon: 5 pips", "↩ Back"]
        caption = plain(message.caption or "")
        assert "Where does 3-4 go? Tap a ribbon, or cut: ✂ says how many pips the ribbon " \
            "you give holds." in caption
        assert "You may cut with 3-4: the ribbon you give goes to Ayu." in caption
        await tap(group, budi, message, "✂ give lower ribbon: 5 pips")
        match = group.game().match
        assert match is not None
        await group.server.wait_for(lambda: Tile(1, 4) in match.hand.hands[0])
        assert [end.end for end in table_view(match).layout.ends] == [End.LEFT, End.RIGHT]


async def test_a_last_tile_ending_the_hand_alike_at_either_end_is_laid_with_one_tap(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    """Player QA (Gaple's last 1-5 on the ends 1 and 5 asked which end, "gaple!" either way):
    in Bergen going out ends the hand too, and Budi's last 1-6 on the ends 6 and 1 makes a
    double header at either: the same result, so one tap lays it and the hand ends."""
    hands = (tiles("2-5 0-4 4-6 2-6 4-5 5-5"), tiles("2-2 0-5 0-1 0-6 4-4 1-6"))
    stock = tiles("0-2 6-6 1-3 2-3 0-3 1-2 1-4 1-5 2-4 3-4 5-6 3-5 0-0 1-1 3-3 3-6")
    monkeypatch.setattr(engine.match, "seeded_deal",
                        lambda *args, **kwargs: Deal(hands, (), 0, None, stock))
    ayu, budi = group.users[:2]
    async with group.bot():
        table = await group.start("bergen", players=2)
        for user, tile, end in ((budi, "2-2", ""), (ayu, "2-6", ""), (budi, "0-6", ""),
                                (ayu, "2-5", ""), (budi, "0-5", "▶"), (ayu, "0-4", ""),
                                (budi, "4-4", ""), (ayu, "4-6", ""), (budi, "0-1", "")):
            message = await turn_of(group, table, user)
            await tap(group, user, message, f"✅ {tile}")
            if end:
                [label] = [text for text in message.button_texts if text.startswith(end)]
                await tap(group, user, message, label)
        match = group.game().match
        assert match is not None
        assert list(match.hand.hands[1]) == [Tile(1, 6)]
        assert [end.numbers for end in table_view(match).layout.ends] == [(6,), (1,)]
        message = await turn_of(group, table, budi)
        await tap(group, budi, message, "✅ 1-6")  # no "◀ left 6 / ▶ right 1" asked
        await group.server.wait_for(lambda: match.hands[0].result is not None)
        result = match.hands[0].result
        assert result is not None and (result.out_seat, result.by_play) == (1, True)
