"""/settings while a table is open in the group: the table keeps what it opened with (its
creator may have chosen its options), and the answer to the admin's choice says so, where
"Saved." alone read as if the lobby not started yet would take it (QA)."""

from __future__ import annotations

from bot_kit import Group

from bot.service.settings import GroupSettings
from fakeapi import FakeUser, StoredMessage

KEPT = "Saved. A table already open here keeps its own settings; new tables take these."


async def settings_menu(group: Group, admin: FakeUser) -> StoredMessage:
    admin.send(group.chat, "/settings")
    return await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(group.chat)
         if "Settings of this group" in (m.text or "")), None))


async def tap(group: Group, who: FakeUser, menu: StoredMessage, label: str) -> str | None:
    record = who.press(menu, label)
    await group.server.wait_for(lambda: record.answered)
    return record.answer_text


async def test_a_lobby_keeps_its_turn_time_and_the_admin_is_told(group: Group) -> None:
    ayu = group.users[0]  # the group's admin
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language="en").to_json())
        group.send(ayu, "/newgame bergen")
        await group.server.wait_for(lambda: group.said("90 s a turn"))
        menu = await settings_menu(group, ayu)
        await tap(group, ayu, menu, "Turn time: 90 s")
        assert await tap(group, ayu, menu, "60 s") == KEPT
        assert "New tables take them; a table already open" in (menu.text or "")
        # Bergen's house rules: the lobby plays Bergen, so it keeps them too.
        await tap(group, ayu, menu, "Bergen …")
        await tap(group, ayu, menu, "Target: game default (15 / 10)")  # (its number, QA)
        assert await tap(group, ayu, menu, "21") == KEPT
        await tap(group, ayu, menu, "↩ Back")
        # What no open table takes is just saved: another game's rules, the game /newgame
        # offers, the language (which the table speaks at once).
        await tap(group, ayu, menu, "Pair dominoes …")
        await tap(group, ayu, menu, "Target: game default (100)")
        assert await tap(group, ayu, menu, "150") == "Saved."
        await tap(group, ayu, menu, "↩ Back")
        await tap(group, ayu, menu, "Game: ask")
        assert await tap(group, ayu, menu, "Bergen") == "Saved."
        await tap(group, ayu, menu, "Language: English")
        assert await tap(group, ayu, menu, "✅ English") == "Saved."
        await runtime.publisher.idle()
        assert "90 s a turn" in (group.lobby().text or "")  # the lobby as it opened
        lobby = runtime.service.open_game_in(group.chat.id)
        assert lobby is not None and lobby.turn_seconds == 90
        cancel = ayu.press(group.lobby(), f"c:{group.game().game_id}")
        await group.server.wait_for(lambda: cancel.answered)
        # No table open: a choice is only saved, and the next table takes it.
        await tap(group, ayu, menu, "Turn time: 60 s")
        assert await tap(group, ayu, menu, "120 s") == "Saved."
        group.send(ayu, "/newgame bergen")
        await group.server.wait_for(lambda: group.said("120 s a turn"))


async def test_a_running_game_keeps_its_turn_time_and_the_admin_is_told(group: Group) -> None:
    ayu = group.users[0]
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language="en").to_json())
        await group.start("pair")
        menu = await settings_menu(group, ayu)
        await tap(group, ayu, menu, "Turn time: 90 s")
        assert await tap(group, ayu, menu, "30 s") == KEPT
        game = runtime.service.open_game_in(group.chat.id)
        assert game is not None and game.turn_seconds == 90
