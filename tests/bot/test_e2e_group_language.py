"""What the bot posts in a group is in the group's language, whoever wrote the command; what
it writes in private is in the person's own (README, Languages)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from bot_kit import Group, lobby_button, plain

from bot import wording
from bot.gamebook import PRESENTATIONS
from bot.handlers.menu import AUTOMATIC_LANGUAGE
from bot.i18n import LANGUAGES, translator
from bot.presentation import checktexts, lobbytexts
from bot.presentation.boardtexts import stats_text
from bot.service.settings import GroupSettings
from fakeapi import FakeUser, StoredMessage
from fakeapi.entities import parse_html


async def answer(group: Group, user: FakeUser, command: str) -> str:
    """The bot's reply to ``command``, sent by ``user`` where ``group`` is, as read."""
    sent = user.send(group.chat, command)
    reply: StoredMessage = await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(group.chat) if m.reply_to is sent), None),
        message=f"no reply to {command}")
    return plain(reply.content)


def shown(html: str) -> str:
    """A text the bot sends with HTML, as the chat shows it."""
    return plain(parse_html(html).text)


@pytest.mark.parametrize(("group_language", "sender_language"), [("ru", "en"), ("en", "ru")])
async def test_group_replies_speak_the_groups_language_not_the_senders(
        group: Group, group_language: str, sender_language: str) -> None:
    """Bob's Telegram speaks one language, the group (set in /settings) another: every reply
    and refusal the group reads is in the group's."""
    sender = group.users[1]
    sender.language_code = sender_language
    t = translator(group_language)
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language=group_language).to_json())
        stats = stats_text(t, await runtime.service.player_stats(sender.id, sender.first_name))
        expected = {
            "/help": shown(lobbytexts.help_text(t)),
            "/start": shown(lobbytexts.help_text(t)),
            "/newgame chess": t("I don't know the game {game}. I play: {games}.",
                                game=wording.quote("chess"), games=lobbytexts.games_list(t)),
            "/newgame pair target": t("I could not read “{word}”: options are written "
                                      "name=value, like {example}.",
                                      word="target", example="first_lead=lot"),
            "/scoreboard chess": t("I don't know the filter {word}. Name a game: {games}; or "
                                   "a period: week, month or all.", word="chess",
                                   games=lobbytexts.games_list(t)),
            "/stats": shown(stats),
            "/hand": t("You are not playing a game right now."),
            "/table": t("No game is being played here: /newgame opens a table."),
            "/leave": t("You are not in a game here."),
            "/stop": t("No game is running here."),
            "/verify": t(checktexts.PRIVATE_ONLY),
        }
        wrong = [command for command, text in expected.items()
                 if await answer(group, sender, command) != plain(text)]
    assert wrong == []


async def test_a_private_help_stays_in_the_persons_language(group: Group) -> None:
    ivan = group.users[2]
    ivan.language_code = "ru"
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language="en").to_json())
        ivan.send_private("/help")
        reply = await group.server.wait_for(
            lambda: group.server.last_bot_message(ivan.private_chat))
    assert plain(reply.content) == shown(lobbytexts.help_text(translator("ru")))
    # the games by their Russian names, each with the word to type (player QA: ids alone)
    assert "Колбаса (kolbasa), Матадор (matador)" in plain(reply.content)


async def test_a_group_without_a_language_answers_in_the_senders(group: Group) -> None:
    """Until its first table gives it one (the opener's), a group has no language: each
    sender reads their own, the one their table would give it."""
    ivan = group.users[2]
    ivan.language_code = "ru"
    async with group.bot():
        assert await answer(group, ivan, "/help") == shown(lobbytexts.help_text(translator("ru")))
        assert await answer(group, group.users[1], "/help") == shown(
            lobbytexts.help_text(translator("en")))


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_game_is_named_as_the_groups_language_shows_it(
        group: Group, language: str) -> None:
    """QA: "/rules Gaple með dauðum steinum" showed plain Gaple's rules, "/newgame Домино
    парами" knew no game Домино: the whole name, as the buttons show it, is read (the English
    sender types the group's words), and an unknown one is answered with the names it shows."""
    t = translator(language)
    sender = group.users[0]
    dead, pairs = (t(PRESENTATIONS[game].title) for game in ("gaple-dead", "pair"))
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language=language).to_json())
        assert await answer(group, sender, f"/rules {dead}") == shown(
            lobbytexts.rules_text(t, "gaple-dead"))
        assert await answer(group, sender, f"/rules {dead} and more") == plain(t(
            "There is no game called {game}. The games: {games}.",
            game=wording.quote(f"{dead} and more"), games=lobbytexts.games_list(t)))
        assert await answer(group, sender, "/newgame Domino Kartu target=50") == plain(t(
            "I don't know the game {game}. I play: {games}.",
            game="Domino Kartu", games=lobbytexts.games_list(t)))
        assert await answer(group, sender, f"/newgame {dead} deal-7") == plain(t(
            "I could not read “{word}”: options are written name=value, like {example}.",
            word="deal-7", example="deal=7"))
        sender.send_private("/start")
        group.send(sender, f"/newgame {pairs.upper()} first_lead=lot")
        await group.server.wait_for(group._lobby_or_none)
    game = group.game()
    assert (game.game_name, game.options.get("first_lead")) == ("pair", "lot")


async def test_a_group_speaks_the_language_of_whoever_added_the_bot(group: Group) -> None:
    """QA: Ayu (Indonesian) added the bot and read its welcome in Indonesian; Budi's
    (English) /newgame was then asked "Which game?" in English, and his table, cancelled,
    made the group English for good. The group speaks its adder's language from its first
    message, whoever writes or opens a table; an admin's choice wins over it."""
    ayu, budi, dewi = group.users[0], group.users[1], group.users[4]
    ayu.language_code = "id"
    t = translator("id")
    async with group.bot() as runtime:
        group.server.kick_bot(group.chat)
        await group.server.wait_idle()
        group.server.add_bot(group.chat, by=ayu)
        await group.server.wait_for(lambda: any(
            plain(text) == shown(lobbytexts.help_text(t)) for text in group.texts()))
        assert await answer(group, budi, "/newgame") == t("Which game?")
        budi.send_private("/start")
        group.send(budi, "/newgame gaple")
        lobby = await group.server.wait_for(group._lobby_or_none)
        assert group.game().language == "id"
        cancel = budi.press(lobby, lobby_button(lobby, "c") or "")
        await group.server.wait_for(lambda: cancel.answered)
        assert await answer(group, dewi, "/help") == shown(lobbytexts.help_text(t))
        menu = plain(await answer(group, ayu, "/settings"))
        assert t("Language: {value}", value=t(AUTOMATIC_LANGUAGE, language="Bahasa Indonesia")
                 ) in menu
        await runtime.service.change_group_settings(  # an admin chooses English
            group.chat.id, lambda now: replace(now, language="en"), runtime.locks)
        group.server.kick_bot(group.chat)
        await group.server.wait_idle()
        budi.language_code = "ru"
        group.server.add_bot(group.chat, by=budi)  # added back by a Russian: still English,
        # and the automatic language stays Ayu's (an admin chooses another in /settings)
        await group.server.wait_idle()
        assert await answer(group, dewi, "/help") == shown(
            lobbytexts.help_text(translator("en")))
        settings = await runtime.service.group_settings(group.chat.id)
    assert (settings.language, settings.auto_language) == ("en", "id")
