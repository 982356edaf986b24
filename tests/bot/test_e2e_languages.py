"""Three languages: a group plays in its own, each player reads their tiles in theirs."""

from __future__ import annotations

import logging
import re

import pytest
from bot_kit import Group, complaints, lobby_button

from bot.models import Status
from bot.service.settings import GroupSettings
from bot.storage import StorageUnavailableError

WORDS = {  # a few words of each catalogue, as a player would see them
    "ru": {"players": "Игроки", "over": r"Кон \d+ окончен", "lobby_game": "Гапле"},
    "id": {"players": "Pemain", "over": r"Ronde \d+ selesai", "lobby_game": "Gaple"},
}


@pytest.mark.parametrize("language", ["ru", "id"])
async def test_a_group_plays_a_whole_hand_in_its_language(group: Group, language: str) -> None:
    words = WORDS[language]
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language=language).to_json())
        table = await group.start("gaple")
        assert any(words["players"] in t for t in group.texts())
        await table.play_until(lambda: any(re.match(words["over"], t) for t in group.texts()))
        captions = [m.caption or "" for m in group.server.bot_messages(group.chat) if m.photo]
        assert captions and not any("Your turn" in c or "Open ends" in c for c in captions)
        # Ayu's Telegram speaks English, which tells little (Telegram's apps fall back to it
        # for a language they lack): her private messages speak the group's language.
        ayu_hands = [m.caption or "" for m in group.server.bot_messages(group.users[0].private_chat)
                     if m.photo]
        assert ayu_hands and not any("hand" in c for c in ayu_hands)


async def test_private_messages_use_the_players_language(group: Group) -> None:
    budi = group.users[1]
    budi.language_code = "ru"
    async with group.bot():
        await group.start("pair")
        await group.server.wait_for(lambda: any(
            m.photo for m in group.server.bot_messages(budi.private_chat)))
        captions = [m.caption or "" for m in group.server.bot_messages(budi.private_chat)
                    if m.photo]
        assert all("кон" in c.lower() for c in captions), captions


async def test_a_player_whose_language_the_bot_lacks_reads_the_groups(group: Group) -> None:
    """A Ukrainian in a Russian group reads Russian, not English; so does Ayu, whose
    Telegram's English may be only its fallback; Sergei, who chose English in private
    /language, reads English."""
    budi = group.users[1]
    budi.language_code = "uk"
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language="ru").to_json())
        await runtime.storage.remember_user(group.users[2].id, "Sergei", None, "en")
        await runtime.storage.choose_language(group.users[2].id, "en")
        await group.start("pair")
        await group.server.wait_for(lambda: all(any(
            m.photo for m in group.server.bot_messages(u.private_chat))
            for u in group.users[:3]))
    captions = {u.first_name: [m.caption or "" for m in group.server.bot_messages(
        u.private_chat) if m.photo] for u in group.users[:3]}
    assert all("кон" in c.lower() for c in captions["Budi"]), captions
    assert all("кон" in c.lower() for c in captions["Ayu"]), captions
    assert all("hand" in c for c in captions["Sergei"]), captions


async def test_command_lists_are_registered_per_scope_and_language(group: Group) -> None:
    async with group.bot():
        calls = group.server.requests_for("setMyCommands")
    seen = {(str(c.params.get("scope")), c.params.get("language_code")) for c in calls}
    for language in (None, "ru", "id"):
        assert any("all_group_chats" in scope and code == language for scope, code in seen)
        assert any("all_private_chats" in scope and code == language for scope, code in seen)
    russian = next(c for c in calls if c.params.get("language_code") == "ru"
                   and "all_group_chats" in str(c.params.get("scope")))
    assert "Открыть" in str(russian.params.get("commands"))


async def test_the_settings_menu_changes_settings_for_admins_only(group: Group) -> None:
    ayu, budi = group.users[:2]  # Ayu is the group's admin
    async with group.bot() as runtime:
        budi.send(group.chat, "/settings")
        await group.server.wait_for(lambda: group.said("Only the group's admins"))
        ayu.send(group.chat, "/settings")
        menu = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Settings of this group" in (m.text or "") and m.buttons), None))
        async def tap(who: object, label: str) -> str | None:
            record = who.press(menu, label)  # type: ignore[attr-defined]
            await group.server.wait_for(lambda: record.answered)
            return record.answer_text  # type: ignore[no-any-return]

        await tap(ayu, "Turn time: 90 s")  # opens the row of choices
        assert "✅ 90 s" in menu.button_texts and "↩ Back" in menu.button_texts
        assert await tap(ayu, "120 s") == "Saved."  # back on the main page
        refused = await tap(budi, "Language: automatic")
        assert "admins" in (refused or "")
        await tap(ayu, "Language: automatic")
        await tap(ayu, "English")
        await tap(ayu, "Gaple with dead tiles …")
        await tap(ayu, "Deal: 6 each (5 with five players), the rest in the middle")
        await tap(ayu, "7 each, none in the middle")
        await tap(ayu, "Target: game default (101)")
        # the game's one target is its default, not also a choice of its own (player QA)
        assert "✅ game default (101)" in menu.button_texts and "101" not in menu.button_texts
        await tap(ayu, "150")
        await tap(ayu, "↩ Back")
        settings = GroupSettings.from_json(await runtime.storage.chat_settings(group.chat.id))
        assert settings.turn_seconds == 120 and settings.language == "en"
        assert settings.game_options("gaple-dead") == {"deal": 7, "target": 150}
        assert settings.game_options("pair") == {}  # each game keeps its own target
        done = ayu.press(menu, "✔ Done")
        await group.server.wait_for(lambda: done.answered and not menu.buttons)
        # closed, it says what is set, and no longer to tap (QA)
        assert "Turn time: 120 s" in (menu.text or "") and "Tap" not in (menu.text or "")
        assert done.answer_text is None


async def test_a_group_added_by_nobody_it_speaks_to_speaks_its_first_started_tables(
        group: Group) -> None:
    """A group whose adder's language the bot lacks (or added before it noted whose) takes
    the language of its first table to start; not that of a table cancelled (QA: a guest's
    cancelled table fixed the group's language)."""
    ayu, budi, sergei = group.users[:3]
    sergei.language_code = "ru"
    async with group.bot() as runtime:
        for user in (budi, sergei):
            user.send_private("/start")
        sergei.send(group.chat, "/newgame gaple")
        await group.server.wait_for(lambda: group.said("Игроки"))
        cancel = sergei.press(group.lobby(), f"c:{group.game().game_id}")
        await group.server.wait_for(lambda: cancel.answered)
        ayu.send(group.chat, "/newgame pair")  # the cancelled table gave the group nothing
        await group.server.wait_for(lambda: group.said("Pair dominoes: a new table"))
        assert (await runtime.service.group_settings(group.chat.id)).spoken is None
        cancel = ayu.press(group.lobby(), f"c:{group.game().game_id}")
        await group.server.wait_for(lambda: cancel.answered)
        sergei.send(group.chat, "/newgame kolbasa")
        await group.server.wait_for(lambda: group.said("Колбаса"))
        lobby = group.lobby()
        joined = budi.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: joined.answered)
        started = sergei.press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: started.answered)
        settings = await runtime.service.group_settings(group.chat.id)
    assert (settings.language, settings.auto_language) == (None, "ru")


async def test_a_failed_admin_lookup_lets_nobody_change_the_settings(group: Group) -> None:
    """When Telegram cannot say who the admins are, the lookup must not read as "this group
    has no admins" (which lets everybody in): the member is asked to try again."""
    budi = group.users[1]  # not an admin
    async with group.bot():
        group.server.fail_next("getChatAdministrators", error_code=500,
                               description="Internal Server Error")
        budi.send(group.chat, "/settings")
        await group.server.wait_for(lambda: group.said("Please try again"))
        assert not menus(group)
        budi.send(group.chat, "/settings")  # the next lookup works: Budi is no admin
        await group.server.wait_for(lambda: group.said("Only the group's admins"))
        assert not menus(group)
        # what is set, read only: a player asks to know the turn time
        refusal = next(m for m in group.server.bot_messages(group.chat)
                       if "Only the group's admins" in (m.text or ""))
        assert "Settings of this group" in (refusal.text or "") and "Turn time" in (
            refusal.text or "")


def menus(group: Group) -> list[str]:
    """The settings menus posted: messages with the menu's buttons."""
    return [m.text or "" for m in group.server.bot_messages(group.chat)
            if any(b.text == "✔ Done" for row in m.buttons for b in row)]


async def test_a_new_language_is_spoken_at_once_by_the_running_game(group: Group) -> None:
    """QA: the admin switched the group to Russian mid-game and the running game went on in
    English beside Russian replies. Its house rules stay; its words change at once: the
    table's caption is edited into Russian, and the game keeps the language (a restart)."""
    ayu = group.users[0]  # the group's admin
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language="en").to_json())
        await group.start("pair")
        await runtime.publisher.idle()
        table = next(m for m in group.server.bot_messages(group.chat)
                     if any(b.text == "👀 My tiles" for row in m.buttons for b in row))
        assert (table.caption or "").startswith("Pair dominoes · hand 1")
        ayu.send(group.chat, "/settings")
        menu = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Settings of this group" in (m.text or "")), None))
        for label in ("Language: English", "Русский"):
            record = ayu.press(menu, label)
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        await runtime.publisher.idle()
        assert (table.caption or "").startswith("Домино парами · кон 1"), table.caption
        assert group.game().language == "ru"
        stored = await runtime.storage.load_game(group.game().game_id)
        assert stored is not None and stored.language == "ru"


async def test_a_start_whose_language_cannot_be_stored_still_says_lets_play(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    """The group's first table to start gives it its language after the start committed;
    the database away just then (review): the Start tap is answered "Let's play!" (an error
    read as a game that did not start), the outage is one line of the log, the game plays."""
    ayu, budi = group.users[:2]
    async with group.bot() as runtime:
        for user in (ayu, budi):
            user.send_private("/start")
        ayu.send(group.chat, "/newgame kolbasa")
        await group.server.wait_for(lambda: group.said("Kolbasa"))
        lobby = group.lobby()
        joined = budi.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: joined.answered)
        failed: list[int] = []

        async def away(chat_id: int, settings: str) -> None:
            failed.append(chat_id)
            raise StorageUnavailableError("PostgreSQL is unavailable")
        runtime.storage.save_chat_settings = away  # type: ignore[method-assign]
        started = ayu.press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: started.answered)
        assert started.answer_text == "Let's play!"
        assert failed == [group.chat.id]
        assert group.game().status is Status.PLAYING
    assert not complaints(caplog)
    [line] = [r for r in caplog.records if "language not stored" in r.getMessage()]
    assert line.levelno == logging.WARNING and line.exc_info is None
