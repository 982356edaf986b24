"""A person's language in private (Icelandic player QA): Telegram's apps have no Icelandic
interface and fall back to English, so an "en" Telegram tells little, and a group game's
private messages (tiles, turns, their toasts) speak the group's language to it; another
language the bot speaks is kept. Private /language lets a person choose their own, which
wins for everything the bot writes them alone, and survives a restart."""

from __future__ import annotations

import pytest
from bot_kit import Group, plain
from test_e2e_language_command import reply_to

from bot import wording
from bot.handlers import ownlanguage
from bot.i18n import LANGUAGES, Speech, translator
from bot.presentation import lobbytexts
from bot.service.settings import GroupSettings
from fakeapi import FakeUser, StoredMessage
from fakeapi.entities import parse_html
from fakeapi.players import Table

ICELANDIC = "is"


def heading(language: str, game: str = "pair") -> str:
    """The first line of a private hand of the first hand of ``game``, as read."""
    t = translator(language)
    return plain(parse_html(t("<b>{title}</b> · hand {number}", title=wording.title(t, game),
                              number=1)).text)


def hands(group: Group, user: FakeUser) -> list[StoredMessage]:
    return [m for m in group.server.bot_messages(user.private_chat) if m.photo and not m.deleted]


def read_in(group: Group, user: FakeUser, language: str) -> bool:
    """Whether ``user`` has a hand, and their newest reads ``language``."""
    shown = hands(group, user)
    return bool(shown) and plain(shown[-1].caption or "").startswith(heading(language))


async def turn_of(table: Table, user: FakeUser) -> StoredMessage:
    """Play on until it is ``user``'s turn: their hand message that waits for a tap."""
    for _ in range(8):
        turn = await table.server.wait_for(table.whose_turn)
        if turn[0] is user:
            return turn[1]
        await table.play_one()
    raise AssertionError(f"{user.first_name} got no turn")


async def test_an_english_telegram_plays_an_icelandic_groups_game_in_icelandic(
        group: Group) -> None:
    """The admin chose Íslenska (/language in the group): Ayu, whose Telegram is in English
    as every Icelander's is, gets her tiles, her turn and her toasts in Icelandic; Budi's
    Russian Telegram keeps Russian."""
    ayu, budi = group.users[:2]  # Ayu is the group's admin
    budi.language_code = "ru"
    t = translator(ICELANDIC)
    async with group.bot():
        menu = await reply_to(group, ayu, "/language")
        record = ayu.press(menu, "Íslenska")
        await group.server.wait_for(lambda: record.answered)
        table = await group.start("pair")
        assert group.game().language == ICELANDIC
        await group.server.wait_for(lambda: read_in(group, budi, "ru"))
        turn = await turn_of(table, ayu)
        caption = plain(turn.caption or "")
        assert caption.startswith(heading(ICELANDIC)), caption
        assert any(plain(t(prompt)) in caption for prompt in (
            "Your turn: tap a marked tile to lay it.", "Your lead: tap a marked tile.")), caption
        await table.play_one()  # her move: the next tap of hers is out of turn
        waiting = hands(group, ayu)[-1]
        tile = next(b for row in waiting.buttons for b in row if b.callback_data)
        tapped = ayu.press(waiting, tile.text)
        await group.server.wait_for(lambda: tapped.answered)
        mover = (await group.server.wait_for(table.whose_turn))[0]
        assert plain(tapped.answer_text or "") == plain(t(
            "It is {name}'s turn; I will write when it is yours.", name=mover.first_name))
        assert all(plain(m.caption or "").startswith(heading("ru")) for m in hands(group, budi))
        # a tap in the group on its game: her toast as her hands speak, Budi's in Russian
        board = group.server.bot_messages(group.chat)
        table_message = next(m for m in reversed(board) if m.photo and m.buttons)
        mine = table_message.buttons[0][0].text
        for user, language in ((ayu, ICELANDIC), (budi, "ru")):
            asked = user.press(table_message, mine)
            await group.server.wait_for(lambda a=asked: a.answered)  # type: ignore[misc]
            assert asked.answer_text == translator(language)(
                "I sent your tiles to our private chat."), (user.first_name, asked.answer_text)


async def test_a_chosen_language_wins_in_private_survives_a_restart_and_automatic_undoes_it(
        group: Group) -> None:
    """Budi's Telegram speaks Russian; he chooses English in private /language: his private
    replies, and his tiles in the Icelandic group's game, are English, after a restart too;
    "Automatic" brings Russian back, to the hand already on his screen as well."""
    budi = group.users[1]
    budi.language_code = "ru"
    ru, en = translator("ru"), translator("en")
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language=ICELANDIC).to_json())
        page = await reply_to(group, budi, "/language", private=True)
        assert plain(page.text or "").startswith(
            plain(ru(ownlanguage.AUTOMATIC_OWN, language="Русский")))
        assert [b.text for row in page.buttons for b in row] == [
            "English", "Русский", "Bahasa Indonesia", "Íslenska", "✅ " + ru("Automatic")]
        record = budi.press(page, "English")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == en(ownlanguage.SAVED_CHOSEN, language="English")
        assert plain(page.text or "").startswith(
            plain(en(ownlanguage.CHOSEN, language="English")))
        assert "✅ English" in page.button_texts
    async with group.bot():  # the bot started again on the same database
        help_reply = await reply_to(group, budi, "/help", private=True)
        assert plain(help_reply.text or "") == plain(
            parse_html(lobbytexts.help_text(en)).text)
        await group.start("pair")
        await group.server.wait_for(lambda: read_in(group, budi, "en"))
        await group.server.wait_for(lambda: read_in(group, group.users[0], ICELANDIC))
        page = await reply_to(group, budi, "/language", private=True)
        record = budi.press(page, en("Automatic"))
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == ru(ownlanguage.SAVED_AUTOMATIC)
        await group.server.wait_for(lambda: read_in(group, budi, "ru"),
                                    message="his hand is not brought back to Russian")
        help_reply = await reply_to(group, budi, "/help", private=True)
        assert plain(help_reply.text or "") == plain(
            parse_html(lobbytexts.help_text(ru)).text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_choice_fits_telegrams_callback_data(language: str) -> None:
    _, markup = ownlanguage.page(translator(language), Speech("en", language))
    data = [b.callback_data for row in markup.inline_keyboard for b in row]
    assert all(isinstance(d, str) and 0 < len(d.encode()) <= 64 for d in data)
    assert len(data) == len(LANGUAGES) + 1
