"""Edge cases real groups hit: very long names, options that do not fit the table, the bot
removed from the group, someone else's confirmation."""

from __future__ import annotations

import asyncio
import logging

import pytest
from bot_kit import Group, lobby_button, plain

from bot.models import Status
from bot.wording import fit_caption, short_name
from fakeapi import FakeTelegramServer, StoredMessage


def test_names_are_shortened_and_captions_fit() -> None:
    assert short_name("x" * 129) == "x" * 23 + "…"
    assert short_name("  Ann   Lee ") == "Ann Lee"
    assert short_name("Hólmfríður Þórdís Guðmundsdóttir") == "Hólmfríður Þórdís G."
    assert short_name("Sigurður Ægir Þorsteinsson Jónsson") == "Sigurður Ægir Þ. J."
    assert short_name("Wolfeschlegelsteinhausenberger Ann") == "Wolfeschlegelsteinhause…"
    text = "\n".join(["<b>head</b>"] + [f"line {i} " + "y" * 60 for i in range(40)] + ["end"])
    fitted = fit_caption(text)
    assert len(fitted) <= 1024 and fitted.startswith("<b>head</b>") and fitted.endswith("end")


async def test_a_very_long_name_plays_within_telegrams_limits(telegram: FakeTelegramServer,
                                                              tmp_path: object) -> None:
    from bot_kit import counting_seeds

    users = [telegram.add_user("Ä" * 64, last_name="Ж" * 64, language_code="en")]
    users += [telegram.add_user(n, language_code="en") for n in ("B", "C", "D")]
    chat = telegram.add_group("G", members=users, admins=users[:1])
    group = Group(telegram, chat, users, tmp_path / "db.sqlite3", counting_seeds())  # type: ignore[operator]
    async with group.bot():
        table = await group.start("gaple-dead")
        for _ in range(8):
            await table.play_one()
    assert "…" in (group.lobby_or_text())


async def test_options_for_fewer_players_keep_the_extra_ones_out(group: Group) -> None:
    """gaple-dead's deal of 7 is four players': the fifth is not seated, so Start never has
    to refuse the options (it did: "These options do not fit a table of 5 players")."""
    async with group.bot():
        await group.open_table("gaple-dead deal=7", players=4)
        lobby = group.lobby()
        record = group.users[4].press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "This game is full."
        assert len(group.game().players) == 4 and group.game().status is Status.LOBBY


async def test_a_bot_removed_from_the_group_ends_its_game(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    async with group.bot() as runtime:
        table = await group.start("pair")
        await table.play_one()
        game = group.game()
        group.server.kick_bot(group.chat)
        await group.server.wait_for(lambda: game.status is Status.STOPPED)
        # Telegram refuses the group's last sync: a normal end, not a failure to retry.
        await asyncio.wait_for(runtime.publisher.idle(), 5)
    assert not [r for r in caplog.records
                if r.name == "bot.publishing.publisher" and r.levelno >= logging.ERROR]
    # Each player's private message says why it stopped (tester: "The game was stopped"
    # alone left them guessing, the group they would look in being closed to the bot).
    for user in group.users[:4]:
        last = [m for m in group.server.bot_messages(user.private_chat)
                if m.photo and not m.deleted][-1]
        # (its last line but the way back to the table, which names which table it was)
        lines = plain(last.content).splitlines()
        assert lines[-2:] == ["The game was stopped: I was removed from the group.",
                              "↩ The table is in the group Domino evening."], lines


async def question(group: Group, answer: str) -> StoredMessage:
    """The bot's question in the group that offers the button ``answer``."""
    return await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(group.chat) if answer in str(m.button_texts)),
        None))


async def test_a_leave_question_answered_after_the_game_ended_says_it_is_over(
        group: Group) -> None:
    async with group.bot():
        await group.start("pair")
        group.users[1].send(group.chat, "/leave")
        ask = await question(group, "Yes, leave")
        yes = ask.button("Yes, leave").callback_data or ""
        group.users[0].send(group.chat, "/stop")
        stop = await question(group, "Yes, stop the game")
        group.users[0].press(stop, "Yes, stop the game")
        await group.server.wait_for(lambda: group.game().status is Status.STOPPED)
        late = group.users[1].press_raw(ask, yes)  # a client still showing the buttons
        await group.server.wait_for(lambda: late.answered)
        assert late.answer_text == "This game is over."


async def test_only_the_leaver_answers_their_confirmation(group: Group) -> None:
    async with group.bot():
        await group.start("pair")
        group.users[1].send(group.chat, "/leave")
        ask = await question(group, "Yes, leave")
        other = group.users[2].press(ask, "Yes, leave")
        await group.server.wait_for(lambda: other.answered)
        assert other.answer_text == "This question is for another player."
        assert not group.game().players[2].is_computer
        group.users[1].send_private("/leave")
        await group.server.wait_for(lambda: any(
            "works in the group" in (m.text or "")
            for m in group.server.bot_messages(group.users[1].private_chat)))
