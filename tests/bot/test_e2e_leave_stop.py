"""A player who left a running match, and the match then stopped: the loss /leave warned of
is kept ("leaving cannot dodge a loss"), and a creator who left has no say over the game any
more (a group admin keeps theirs)."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from bot_kit import NAMES, Group, counting_seeds, plain

from bot.models import Status
from bot.service.ratings import fresh_rating
from bot.service.scoreboards import player_stats, scoreboard
from fakeapi import FakeTelegramServer, FakeUser, StoredMessage


async def question(group: Group, answer: str, after: int = 0) -> StoredMessage:
    """The bot's newest question in the group (sent after the message ``after``, an id: a
    count of messages shrinks when the bot deletes one, CI) that offers the button
    ``answer``."""
    return await group.server.wait_for(lambda: next(
        (m for m in reversed(group.server.bot_messages(group.chat))
         if m.message_id > after and answer in str(m.button_texts)), None))


async def leave(group: Group, user: FakeUser) -> None:
    """``user`` leaves the running game through /leave and its confirmation."""
    asked = group.send(user, "/leave")
    ask = await question(group, "Yes, leave", asked.message_id)
    assert "the match will count as lost for you" in (ask.text or "")
    assert (ask.text or "").endswith("You cannot take the seat back.")  # (QA: for good)
    tap = user.press(ask, "Yes, leave")
    await group.server.wait_for(lambda: tap.answered)
    assert tap.answer_text == "You left the game."
    await group.server.wait_for(lambda: group.said(f"takes the seat of {user.first_name}"))


async def stop(group: Group, user: FakeUser) -> None:
    """``user`` stops the running game through /stop and its confirmation."""
    asked = group.send(user, "/stop")
    ask = await question(group, "Yes, stop the game", asked.message_id)
    tap = user.press(ask, "Yes, stop the game")
    await group.server.wait_for(lambda: tap.answered)
    assert tap.answer_text == "The game is stopped."
    await group.server.wait_for(lambda: group.game().status is Status.STOPPED)


async def stats_reply(group: Group, user: FakeUser) -> str:
    """What /stats tells ``user`` in the private chat."""
    asked = user.send_private("/stats")
    reply = await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(user.private_chat)
         if m.message_id > asked.message_id
         if "figures" in (m.text or "") or "finished a match" in (m.text or "")), None))
    return plain(reply.text or "")


async def scoreboard_reply(group: Group, user: FakeUser) -> str:
    """What /scoreboard shows in the group: the picture's caption, or the text of an empty
    board."""
    asked = group.send(user, "/scoreboard")
    reply = await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(group.chat)
         if m.message_id > asked.message_id and "Scoreboard" in (m.caption or m.text or "")), None))
    return plain(reply.caption or reply.text or "")


def stored_results(database: Path) -> list[tuple[int, list[list[object]]]]:
    """(game_id, leavers) of each stored match result."""
    with closing(sqlite3.connect(database)) as db:
        rows = db.execute("SELECT game_id, leavers FROM match_results").fetchall()
    return [(int(game_id), json.loads(leavers)) for game_id, leavers in rows]


async def test_a_creator_who_left_keeps_her_loss_when_the_game_is_stopped(group: Group) -> None:
    """The QA scenario: the creator (an admin here) leaves, a computer takes her seat, she
    stops the game. The loss /leave warned of is hers on /stats and on the board; nobody
    still seated gets anything ("Nobody will win it")."""
    ayu, budi = group.users[:2]
    async with group.bot(computer_pause=0.05) as runtime:
        table = await group.start("gaple")
        await table.play_one()
        await leave(group, ayu)
        assert group.game().players[0].is_computer
        table_caption = group.server.message(  # type: ignore[union-attr]
            group.chat, group.game().messages.table_message).content  # type: ignore[arg-type]
        await stop(group, ayu)
        game = group.game()
        stopped = await group.server.wait_for(lambda: next(
            (text for text in group.texts() if "stopped the game" in text), None))
        stats = await stats_reply(group, ayu)
        board_caption = await scoreboard_reply(group, ayu)
        budi_stats = await stats_reply(group, budi)
        board = await scoreboard(runtime.storage, group.chat.id, "gaple")
        figures = await player_stats(runtime.storage, ayu.id)
    assert "has not finished a match yet" not in stats
    assert "won 0 of 1 (0%)" in stats, stats
    assert "all time · 0 matches · 1 match stopped after someone left" in board_caption, \
        board_caption
    assert "Ayu, rating" in board_caption
    assert "Budi" not in board_caption and "Sergei" not in board_caption
    assert budi_stats == "Budi has not finished a match yet."
    # Her loss, rated as a loser of the match: below where she started.
    assert [(s.name, s.played, s.won) for s in board.standings] == [("Ayu", 1, 0)]
    assert board.standings[0].rating < fresh_rating()
    # The change is said with the stop, as a finished match says its changes: hers alone.
    change = board.standings[0].rating - fresh_rating()
    said, revealed = stopped.rsplit("\n", 1)
    assert said.endswith(
        f"stopped the game. Nobody wins it.\nRating change on this group's Gaple scoreboard: "
        f"Ayu (left the match) {change}."), stopped
    # The hand left unfinished can be checked as a finished one can: its seed, now that
    # nothing is played with it, against the fingerprint the table showed (QA)
    match = re.fullmatch(r"🔓 The unfinished hand's seed: ([0-9a-f]{64})\. Its SHA-256 "
                         r"starts with ([0-9a-f]+), the fingerprint shown before the hand\.",
                         revealed)
    assert match is not None, revealed
    assert hashlib.sha256(bytes.fromhex(match[1])).hexdigest().startswith(match[2])
    assert f"🔒 Deal fingerprint: {match[2]}" in table_caption
    assert [(g.game, g.standing.played, g.standing.won) for g in figures.games] == [
        ("gaple", 1, 0)]
    assert stored_results(group.database) == [(game.game_id, [[ayu.id, "Ayu", 0]])]


@pytest.fixture
def plain_group(telegram: FakeTelegramServer, tmp_path: Path) -> Group:
    """A group whose only admin (Dewi) does not play: its creator is no admin."""
    users = [telegram.add_user(name, language_code="en") for name in NAMES]
    chat = telegram.add_group("Domino evening", members=users, admins=users[4:])
    return Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())


async def test_a_creator_who_left_may_not_stop_the_game_and_an_admin_may(
        plain_group: Group) -> None:
    """Once she left, the creator no longer speaks for the table: /stop refuses her; an
    admin stops it, and both leavers keep their losses, the others get nothing."""
    group = plain_group
    ayu, budi, sergei, _thora, dewi = group.users
    async with group.bot(computer_pause=0.05) as runtime:
        table = await group.start("gaple")
        await table.play_one()
        await leave(group, budi)
        await leave(group, ayu)
        seen = len(group.server.bot_messages(group.chat))
        asked = group.send(ayu, "/stop")
        refusal = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)[seen:]
             if m.reply_to is not None and m.reply_to.message_id == asked.message_id), None))
        assert refusal.text == "You are not playing in this game."
        assert not refusal.buttons
        # Nor can she confirm the question an admin's /stop asks.
        asked = group.send(dewi, "/stop")
        ask = await question(group, "Yes, stop the game", asked.message_id)
        tap = ayu.press(ask, "Yes, stop the game")
        await group.server.wait_for(lambda: tap.answered)
        assert tap.answer_text == "You are not playing in this game."
        assert group.game().status is Status.PLAYING
        # A player who never created it could not either, as before.
        seen = len(group.server.bot_messages(group.chat))
        group.send(sergei, "/stop")
        refused = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)[seen:]
             if m.text == "Only the game's creator or a group admin can stop it."), None))
        assert not refused.buttons
        await stop(group, dewi)
        game = group.game()
        board = await scoreboard(runtime.storage, group.chat.id, "gaple")
        stats = {user.first_name: await player_stats(runtime.storage, user.id)
                 for user in group.users}
    assert sorted((s.name, s.played, s.won) for s in board.standings) == [
        ("Ayu", 1, 0), ("Budi", 1, 0)]
    assert (board.matches, board.stopped) == (0, 1)
    assert all(s.rating < fresh_rating() for s in board.standings)
    assert {name: [(g.game, g.standing.played, g.standing.won) for g in s.games]
            for name, s in stats.items()} == {
        "Ayu": [("gaple", 1, 0)], "Budi": [("gaple", 1, 0)], "Sergei": [], "Þóra": [],
        "Dewi": []}
    assert stored_results(group.database) == [
        (game.game_id, [[budi.id, "Budi", 1], [ayu.id, "Ayu", 0]])]


async def test_a_second_tap_of_yes_leave_finds_the_leave_done(group: Group) -> None:
    """A double tap on "Yes, leave" (QA): the second tap is told calmly that the player has
    left, with no refusal, and the seat is handed over once."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05):
        table = await group.start("gaple")
        await table.play_one()
        asked = group.send(budi, "/leave")
        ask = await question(group, "Yes, leave", asked.message_id)
        first = budi.press(ask, "Yes, leave")
        second = budi.press(ask, "Yes, leave")
        await group.server.wait_for(lambda: first.answered and second.answered)
        await group.server.wait_for(lambda: group.said(f"takes the seat of {budi.first_name}"))
        handed = [text for text in group.texts()
                  if f"takes the seat of {budi.first_name}" in text]
        game = group.game()
    assert sorted([first.answer_text, second.answer_text]) == [
        "You have left this game.", "You left the game."]
    assert len(handed) == 1
    assert [change.left.user_id for change in game.seat_changes] == [budi.id]


async def test_no_stay_tapped_after_yes_leave_finds_the_leave_done(group: Group) -> None:
    """"No, stay" tapped after "Yes, leave" on the same question (still on screen while its
    delete travels) is told calmly that the player has left, as a second "Yes" is, not that
    the question is someone else's."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05):
        table = await group.start("gaple")
        await table.play_one()
        asked = group.send(budi, "/leave")
        ask = await question(group, "Yes, leave", asked.message_id)
        held = group.server.hold("deleteMessage", after_acting=False, chat=group.chat)
        leave = budi.press(ask, "Yes, leave")
        await group.server.wait_for(lambda: held.holding)
        stay = budi.press(ask, "No, stay")
        await group.server.wait_for(lambda: stay.answered)
        held.release()
        await group.server.wait_for(lambda: leave.answered)
        game = group.game()
    assert leave.answer_text == "You left the game."
    assert stay.answer_text == "You have left this game."
    assert [change.left.user_id for change in game.seat_changes] == [budi.id]


async def test_hand_after_leave_says_which_match_was_left_and_that_no_way_back_leads_there(
        group: Group) -> None:
    """Player QA: after /leave, a private /hand said only "You are not playing a game right
    now", and the player looked for a way back. It says which match they left, where, who
    plays the seat, and that a seat left with /leave is not taken back ("↩ Take my seat back"
    is for a seat handed on while its player was away). Once the match is over, the plain
    answer again."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05):
        table = await group.start("gaple")
        await table.play_one()
        await leave(group, budi)
        computer = group.game().players[1].name.removeprefix("🤖 ")
        asked = budi.send_private("/hand")
        answer = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if m.message_id > asked.message_id and m.text), None))
        assert plain(answer.content) == (
            f"🚪 You left Gaple with /leave: {computer} plays your seat until the match ends, "
            "and the match counts as lost for you. A seat left with /leave cannot be taken "
            "back.\n↩ The table is in the group Domino evening.")
        assert answer.buttons == []
        in_group = group.send(budi, "/hand")
        said = await group.server.wait_for(lambda: next(
            (m for m in group.messages() if m.message_id > in_group.message_id
             and "You left" in m.content), None))
        assert plain(said.content).startswith("🚪 You left Gaple with /leave:")
        await stop(group, group.users[0])
        asked = budi.send_private("/hand")
        answer = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if m.message_id > asked.message_id and m.text), None))
        assert answer.content == "You are not playing a game right now."


async def test_a_group_command_sent_in_private_names_the_players_tables(group: Group) -> None:
    """Player QA: /leave typed in the private chat during a match answered only "This works
    in the group where the game is played."; the bot knew which group. Someone at no table
    reads the first line alone."""
    ayu, budi = group.users[:2]
    outsider = group.users[3]
    async with group.bot():
        await group.start("gaple", 2)
        for user, places in ((budi, ["↩ The table is in the group Domino evening."]),
                             (outsider, [])):
            asked = user.send_private("/leave")
            answer = await group.server.wait_for(lambda user=user, asked=asked: next(
                (m for m in group.server.bot_messages(user.private_chat)
                 if m.message_id > asked.message_id and m.text), None))
            assert plain(answer.content).split("\n") == [
                "This works in the group where the game is played.", *places]
        assert group.game().seat_of(budi.id) is not None and ayu.id != budi.id
