"""/language and /lang (QA: no reply at all): in a group, /settings opened at its choice of
languages, for admins; in private, where the person's own language comes from (and a choice
of it: test_e2e_own_language.py); both in the commands Telegram lists."""

from __future__ import annotations

import pytest
from bot_kit import Group

from bot.handlers.ownlanguage import AUTOMATIC_ENGLISH, AUTOMATIC_OWN, AUTOMATIC_UNSPOKEN
from bot.i18n import translator
from bot.service.settings import GroupSettings
from fakeapi import FakeUser, StoredMessage

NAMES = "English, Русский, Bahasa Indonesia, Íslenska"


async def reply_to(group: Group, user: FakeUser, text: str, private: bool = False
                   ) -> StoredMessage:
    chat = user.private_chat if private else group.chat
    sent = user.send(chat, text)  # (in private, a reply quotes nothing)
    return await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(chat) if m.reply_to is sent
         or (private and m.message_id > sent.message_id)), None),
        message=f"no reply to {text}")


@pytest.mark.parametrize("command", ["/language", "/lang"])
async def test_language_in_a_group_opens_the_choice_of_languages(
        group: Group, command: str) -> None:
    ayu, budi = group.users[:2]  # Ayu is the group's admin
    async with group.bot() as runtime:
        refused = await reply_to(group, budi, command)
        assert "Only the group's admins" in (refused.text or "") and not refused.buttons
        menu = await reply_to(group, ayu, command)
        assert "Tap a choice." in (menu.text or "")
        assert "Русский" in menu.button_texts and "↩ Back" in menu.button_texts
        record = ayu.press(menu, "Русский")
        await group.server.wait_for(lambda: record.answered)
        # said in the group's new language, as its hands speak to an English Telegram (QA)
        assert record.answer_text == "Сохранено."
        settings = GroupSettings.from_json(await runtime.storage.chat_settings(group.chat.id))
    assert settings.language == "ru"


@pytest.mark.parametrize(("code", "expected"), [
    ("ru", translator("ru")(AUTOMATIC_OWN, language="Русский")),
    ("en", translator("en")(AUTOMATIC_ENGLISH)),
    ("fr", translator("en")(AUTOMATIC_UNSPOKEN)),
])
async def test_language_in_private_says_where_ones_language_comes_from(
        group: Group, code: str, expected: str) -> None:
    ayu = group.users[0]
    ayu.language_code = code
    async with group.bot():
        said = await reply_to(group, ayu, "/language", private=True)
    assert (said.text or "").startswith(expected)
    assert NAMES.split(", ") == [b.text for row in said.buttons for b in row][:4]


async def test_language_is_in_both_command_lists(group: Group) -> None:
    async with group.bot():
        calls = group.server.requests_for("setMyCommands")
    english = [str(c.params.get("commands")) for c in calls
               if c.params.get("language_code") is None]
    assert len(english) == 2 and all("'language'" in listed or '"language"' in listed
                                      for listed in english)
