"""Old menus of a group (admin QA): a newer /settings or /language takes the older menu's
buttons away, and a tap on an older one acts on nothing; a bare /newgame's "Which game?"
picker goes once a table is open in its topic, and one tapped after the game ended opens a
table as a fresh /newgame would."""

from __future__ import annotations

from bot_kit import Group

from bot.handlers.menu import MENU_REPLACED
from bot.handlers.pickers import Pickers
from bot.i18n import translator
from bot.models import Status
from bot.presentation.gamebuttons import SettingTap
from bot.service.settings import GroupSettings
from fakeapi import FakeUser, StoredMessage

ALREADY_RUNNING = "A game is already running in this chat."


async def reply_to(group: Group, user: FakeUser, text: str) -> StoredMessage:
    sent = group.send(user, text)
    return await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(group.chat) if m.reply_to is sent), None),
        message=f"no reply to {text}")


async def group_settings(group: Group) -> GroupSettings:
    assert group.runtime is not None
    return GroupSettings.from_json(await group.runtime.storage.chat_settings(group.chat.id))


async def test_a_newer_settings_menu_takes_the_older_ones_buttons(group: Group) -> None:
    """QA: /language → Русский, then /language again → English: the first menu still showed
    "Язык: Русский" with its buttons live. Now it says it is out of date (in the group's
    language as it was then), without buttons, and a tap on it (a client still showing them)
    changes nothing."""
    ayu = group.users[0]
    async with group.bot():
        first = await reply_to(group, ayu, "/language")
        russian = first.button("Русский").callback_data or ""
        record = ayu.press(first, "Русский")
        await group.server.wait_for(lambda: record.answered)
        assert "Язык: Русский" in (first.text or "") and first.buttons
        second = await reply_to(group, ayu, "/language")
        await group.server.wait_for(lambda: not first.buttons)
        assert first.text == translator("ru")(MENU_REPLACED)
        record = ayu.press(second, "English")
        await group.server.wait_for(lambda: record.answered)
        assert (await group_settings(group)).language == "en"
        late = ayu.press_raw(first, russian)
        await group.server.wait_for(lambda: late.answered)
        assert late.answer_text == MENU_REPLACED
        assert (await group_settings(group)).language == "en"  # not acted on
        third = await reply_to(group, ayu, "/settings")
        await group.server.wait_for(lambda: not second.buttons)
        assert second.text == MENU_REPLACED and third.buttons


async def test_an_older_menu_still_showing_buttons_loses_them_when_tapped(group: Group
                                                                          ) -> None:
    """A menu whose retirement did not reach Telegram (its edit failed) keeps its buttons: a
    tap on it says so, takes them off and changes nothing."""
    ayu = group.users[0]
    async with group.bot():
        first = await reply_to(group, ayu, "/settings")
        group.server.fail_next("editMessageText", chat=group.chat)
        second = await reply_to(group, ayu, "/settings")
        await group.server.wait_for(
            lambda: group.server.requests_for("editMessageText"))  # (the one failed)
        assert first.buttons
        record = ayu.press(first, "Language: automatic")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == MENU_REPLACED
        await group.server.wait_for(lambda: not first.buttons)
        assert first.text == MENU_REPLACED
        assert second.buttons and "Tap a choice." not in (second.text or "")


async def picker_of(group: Group, user: FakeUser) -> StoredMessage:
    sent = group.send(user, "/newgame")
    return await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(group.chat)
         if m.reply_to is sent and "Which game?" in (m.text or "")), None))


async def test_a_table_opened_otherwise_takes_the_picker_away(group: Group) -> None:
    """QA: a bare /newgame's picker kept its buttons under a table opened by /newgame pair."""
    ayu, budi = group.users[:2]
    async with group.bot():
        picker = await picker_of(group, budi)
        ayu.send_private("/start")
        group.send(ayu, "/newgame pair")
        await group.server.wait_for(group._lobby_or_none)
        await group.server.wait_for(lambda: picker.deleted)


async def test_a_picker_tapped_while_a_game_runs_goes_and_after_it_opens_a_table(
        group: Group) -> None:
    """A picker the bot forgot (posted before a restart): tapped while a game is on, it goes
    with the refusal; tapped after the game ended, it opens a table as /newgame would."""
    ayu = group.users[0]
    async with group.bot() as runtime:
        picker = await picker_of(group, ayu)
        kept = await picker_of(group, ayu)
        await group.server.wait_idle()  # (the bot has noted both)
        runtime.pickers = Pickers()  # what a restart forgets
        await group.start("pair")
        record = ayu.press(picker, "Gaple")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == ALREADY_RUNNING
        await group.server.wait_for(lambda: picker.deleted)
        group.send(ayu, "/stop")
        ask = await group.server.wait_for(lambda: next(
            (m for m in group.messages() if "Yes, stop the game" in m.button_texts), None))
        ayu.press(ask, "Yes, stop the game")
        await group.server.wait_for(lambda: group.game().status is Status.STOPPED)
        record = ayu.press(kept, "Gaple")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text is None
        lobby = await group.server.wait_for(group._lobby_or_none)
        assert "Gaple" in (lobby.text or "") and group.game().game_name == "gaple"
        assert kept.deleted


async def test_a_forged_settings_tap_on_another_message_edits_nothing(group: Group) -> None:
    """Only a menu is retired by a tap: a settings button forged onto the lobby (a text
    message too) leaves its words and buttons as they were."""
    ayu = group.users[0]
    async with group.bot():
        await group.open_table("pair", 2)
        lobby = group.lobby()
        words = lobby.text
        await reply_to(group, ayu, "/settings")
        forged = ayu.press_raw(lobby, SettingTap("", "turn_seconds").encode())
        await group.server.wait_for(lambda: forged.answered)
        assert forged.answer_text == MENU_REPLACED
        await group.server.wait_idle()
        assert lobby.text == words and lobby.buttons


async def test_play_again_takes_the_picker_away(group: Group) -> None:
    """A bare /newgame after a match, then the result's 🔁 Play again: the table is open and
    the picker goes, as for a table opened by /newgame."""
    ayu, budi = group.users[:2]
    async with group.bot():
        table = await group.start("gaple target=1")  # one hand decides the match
        await table.play_until(group.match_over)
        result = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if m.content.startswith("The match is over")), None))
        await group.server.wait_idle()
        picker = await picker_of(group, ayu)
        await group.server.wait_idle()  # (the bot has noted it)
        again = budi.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: again.answered)
        await group.server.wait_for(lambda: picker.deleted)


async def test_a_picker_tapped_is_taken_away_once(group: Group) -> None:
    """Its tap opens the table and deletes the picker: one call (review: the pickers' clean-up
    deleted it, then the tap tried again, and failed twice, before its toast)."""
    ayu = group.users[0]
    async with group.bot() as runtime:
        picker = await picker_of(group, ayu)
        await group.server.wait_idle()  # (the bot has noted it)
        record = ayu.press(picker, "Gaple")
        await group.server.wait_for(lambda: record.answered and picker.deleted)
        await group.server.wait_idle()
        await runtime.publisher.idle()
        calls = [r for r in group.server.requests if r.chat_id == group.chat.id
                 and r.params.get("message_id") == picker.message_id]
        assert [(r.method, r.ok) for r in calls] == [("deleteMessage", True)]
