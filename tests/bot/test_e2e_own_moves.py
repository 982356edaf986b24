"""A player's own move, confirmed in their own private chat while they wait, is told to them
in the second person, "✔ You laid 3-4 on the left.", as phone apps do (player QA, in
Indonesian: "✔ Played: Ayu laid 3-4 on the left." in Ayu's own chat, the group's words); the
group's table still names the mover. One deliberate deal per game whose moves are its own:
Matador's lead and lay across, Muggins' lay up the spinner with what it scored, Kolbasa's lay
on a ribbon and its cut (a dead tile put face down: test_e2e_forced_discard)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from bot_kit import Group, plain
from test_e2e_lay_words import deal_every_hand

from fakeapi import FakeChat, FakeTelegramServer, FakeUser, StoredMessage
from fakeapi.players import Table


def versions(server: FakeTelegramServer, chat: FakeChat) -> Iterator[str]:
    """Every version of every message the bot showed in ``chat``."""
    for message in server.world.messages_in(chat):
        for version in message.versions if message.from_bot else ():
            yield plain(version.caption or version.text or "")


async def turn_of(group: Group, table: Table, user: FakeUser) -> StoredMessage:
    turn = await group.server.wait_for(
        lambda: (found := table.whose_turn()) is not None and found[0] is user and found)
    return turn[1]


async def tap(group: Group, user: FakeUser, message: StoredMessage, label: str) -> None:
    shown = message.button_texts
    record = user.press(message, label)
    await group.server.wait_for(lambda: record.answered)
    await group.server.wait_for(lambda: message.deleted or message.button_texts != shown)


async def lay(group: Group, table: Table, user: FakeUser, tile: str, way: str = "") -> None:
    """``user`` taps ``tile`` on their turn, then the end's button starting with ``way``."""
    message = await turn_of(group, table, user)
    await tap(group, user, message, f"✅ {tile}")
    if way:
        await tap(group, user, message,
                  next(label for label in message.button_texts if label.startswith(way)))


async def told(group: Group, user: FakeUser, line: str) -> None:
    """``line`` is a line of one of the bot's messages in ``user``'s private chat."""
    await group.server.wait_for(
        lambda: any(line in text.split("\n") for text in versions(group.server,
                                                                  user.private_chat)),
        message=f"{user.first_name}'s chat never said {line!r}")


async def the_group_heard(group: Group, *lines: str) -> None:
    """The table's caption said each of ``lines`` (among its moves), naming the mover."""
    await group.server.wait_idle()
    said = [line for text in versions(group.server, group.chat) for line in text.split("\n")]
    assert [line for line in lines if line not in said] == []
    assert not any(line.startswith(("You ", "✂ You")) for line in said)


async def test_matadors_lead_and_lay_across_are_told_to_their_player_as_their_own(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_every_hand(monkeypatch, "1-2 0-1 0-2 0-3 0-4 0-5", "1-6 2-2 2-3 3-3 4-4 5-5")
    ayu, budi = group.users[:2]
    async with group.bot():
        table = await group.start("matador", players=2)
        await lay(group, table, ayu, "1-2")
        await told(group, ayu, "✔ You led 1-2.")
        await lay(group, table, budi, "1-6", "◀ left 1 across")
        await told(group, budi, "✔ You laid 1-6 across on the left.")
        await the_group_heard(group, "Ayu led 1-2.", "Budi laid 1-6 across on the left.")


async def test_a_lay_up_the_spinner_is_told_with_what_it_scored(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_every_hand(monkeypatch, "5-5 1-5 2-2 3-3 6-6 2-3 3-6", "0-5 4-5 1-1 2-4 1-3 0-2 2-6")
    ayu, budi = group.users[:2]
    async with group.bot():
        table = await group.start("muggins", players=2)
        await lay(group, table, ayu, "5-5")
        await told(group, ayu, "✔ You led 5-5. +10: the open ends add up to 10.")
        await lay(group, table, budi, "0-5", "▶")
        await lay(group, table, ayu, "1-5", "◀")
        await told(group, ayu, "✔ You laid 1-5 on the left.")
        await lay(group, table, budi, "4-5", "▲")
        await told(group, budi, "✔ You laid 4-5 upwards. +5: the open ends add up to 5.")
        await the_group_heard(group, "Budi laid 4-5 upwards. +5: the open ends add up to 5.")


async def test_kolbasas_lay_on_a_ribbon_and_cut_are_told_to_the_cutter_as_their_own(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    deal_every_hand(monkeypatch, "1-1 1-4 0-0 0-2 0-5 0-6 2-2", "1-3 3-4 2-5 2-6 5-5 5-6 6-6")
    ayu, budi = group.users[:2]
    async with group.bot():
        table = await group.start("kolbasa", players=2)
        await lay(group, table, ayu, "1-1")  # the base
        await lay(group, table, budi, "1-3", "▲ upper 1")
        await told(group, budi, "✔ You laid 1-3 on the upper ribbon.")
        await lay(group, table, ayu, "1-4")  # the lower ribbon
        await lay(group, table, budi, "3-4", "✂ give lower ribbon")
        await told(group, budi, "✔ ✂ You cut with 3-4: Ayu takes the lower ribbon, 1 tile, "
                                "and moves next.")
        await told(group, ayu, "• ✂ Budi cut with 3-4: you take the lower ribbon: 1-4.")
        await the_group_heard(group, "Budi laid 1-3 on the upper ribbon.",
                              "✂ Budi cut with 3-4: Ayu takes the lower ribbon, 1 tile, and "
                              "moves next.")
