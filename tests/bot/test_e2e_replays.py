"""Replays through Telegram: /replay in a group and in private, the button under each hand's
result, after a restart, in Russian. Each animation is decoded and checked against the hand's
actions as the database stores them: one frame as dealt, one after each move, one of the
result with every hand open (as renderers/replay.py documents), each the picture of that
moment's table."""

from __future__ import annotations

import io
import re
import sqlite3
import time
from contextlib import closing
from dataclasses import replace
from pathlib import Path

from bot_kit import NAMES, Group, counting_seeds, plain
from PIL import Image, ImageChops, ImageSequence, ImageStat

import renderers
from bot.app import STOP_GRACE
from bot.models import Game
from bot.presentation.gamebuttons import ReplayHand
from bot.presentation.pictures import hand_players, labels_for, picture_names
from bot.service.settings import GroupSettings
from bot.storage.games import game_from_row
from engine import Match, hand_tables
from fakeapi import FakeTelegramServer, StoredMessage
from renderers.replay import DEALT_MS, MOVE_MS, RESULT_MS, SCALE

HAND_OVER = re.compile(r"Hand (\d+) is over\.")
MOST_BYTES = 1_000_000  # what a phone should download for a replay, at most (issue 26)


def frames(data: bytes) -> list[tuple[Image.Image, int]]:
    """Each frame of the GIF as shown (composed over the frames before) and its duration."""
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF"
        return [(frame.convert("RGB"), int(frame.info["duration"]))
                for frame in ImageSequence.Iterator(gif)]


def halved(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as picture:
        return picture.convert("RGB").reduce(SCALE)


def distance(frame: Image.Image, picture: Image.Image) -> float:
    """How far the frame's top is from ``picture``: the mean difference of their pixels."""
    top = frame.crop((0, 0, picture.width, picture.height))
    return sum(ImageStat.Stat(ImageChops.difference(top, picture)).mean) / 3


def stored_match(group: Group, game_id: int) -> tuple[Match, Game]:
    with closing(sqlite3.connect(group.database)) as db:
        db.row_factory = sqlite3.Row
        row = db.execute("SELECT * FROM games WHERE game_id=?", (game_id,)).fetchone()
    game = game_from_row(row)
    assert game.match is not None
    return game.match, game


def check_replay(group: Group, sent: StoredMessage, game_id: int, hand: int) -> None:
    """The animation tells hand ``hand`` of the stored game, frame by frame."""
    data = sent.animation_bytes
    assert data is not None and len(data) <= MOST_BYTES, len(data or b"")
    match, game = stored_match(group, game_id)
    moves = match.hands[hand].moves
    shown = frames(data)
    assert len(shown) == len(moves) + 2  # as dealt, after each move, the result
    durations = [duration for _, duration in shown]
    assert durations == [DEALT_MS] + [MOVE_MS] * len(moves) + [RESULT_MS]
    assert MOVE_MS <= 1000  # a second or less per move
    width = shown[0][0].width
    assert width >= 400 and all(frame.size == shown[0][0].size for frame, _ in shown)
    # Each frame is the table of its moment: nearer to it than to the one before or after.
    tables = hand_tables(match, hand)
    names = picture_names(game, hand_players(game, hand))
    labels = labels_for(game.language, game.game_name)
    pictures = [halved(renderers.render_table(view, names, labels=labels)) for view in tables]
    for number, picture in enumerate(pictures):
        frame = shown[number][0]
        here = distance(frame, picture)
        assert here < 1, (number, here)
        for other in (number - 1, number + 1):
            if 0 <= other < len(pictures):
                assert here < distance(frame, pictures[other]), (number, other)
    result = halved(renderers.render_hand_result(tables[-1], names, labels=labels))
    assert distance(shown[-1][0], result) < 1  # every hand laid open
    assert distance(shown[-1][0], result) < distance(shown[-2][0], result)


def hand_result(group: Group, number: int = 1) -> StoredMessage:
    return next(m for m in group.messages()
                if (match := HAND_OVER.match(plain(m.content))) and int(match[1]) == number)


def result_said(group: Group) -> bool:
    return any(HAND_OVER.match(plain(m.content)) for m in group.messages())


async def first_hand(group: Group, game: str = "gaple") -> int:
    """Four players play the first hand of ``game`` to its end; the game's id."""
    table = await group.start(game)
    await table.play_until(lambda: result_said(group))
    await group.server.wait_idle()
    return group.game().game_id


async def test_replay_in_a_group_sends_the_last_hand_as_an_animation(group: Group) -> None:
    async with group.bot():
        command = group.send(group.users[2], "/replay")
        await group.server.wait_for(lambda: group.said("nothing to replay"))
        game_id = await first_hand(group)
        command = group.send(group.users[2], "/replay")
        sent = await group.server.wait_for(lambda: group.server.animations(group.chat) or None)
    assert len(sent) == 1
    assert sent[0].reply_to is command
    caption = plain(sent[0].caption or "")
    assert caption.startswith("🎞 Gaple, hand 1\n"), caption
    assert re.search(r"(won it: \d+ points?\.|A drawn hand)", caption), caption
    check_replay(group, sent[0], game_id, 0)


async def test_the_button_under_a_hands_result_sends_that_hand_once(group: Group) -> None:
    async with group.bot():
        game_id = await first_hand(group)
        result = hand_result(group)
        assert "🎞 Replay" in result.button_texts
        first = group.users[3].press(result, "🎞 Replay")
        second = group.users[4].press(result, "🎞 Replay")  # while the first is drawn
        await group.server.wait_for(lambda: first.answered and second.answered)
        sent = await group.server.wait_for(lambda: group.server.animations(group.chat) or None)
        await group.server.wait_idle()
        third = group.users[0].press(result, "🎞 Replay")  # sent a moment ago: not again
        gone = group.users[3].press_raw(result, ReplayHand(game_id + 40, 0).encode())
        unfinished = group.users[3].press_raw(result, ReplayHand(game_id, 5).encode())
        await group.server.wait_for(lambda: third.answered and gone.answered
                                    and unfinished.answered)
    assert [first.answer_text, second.answer_text, third.answer_text] == [
        "🎞 The replay is on its way.", "That replay is on its way.",
        "That replay was sent here a moment ago: scroll up a little to watch it."]
    assert len(group.server.animations(group.chat)) == 1
    assert sent[0].reply_to is result
    check_replay(group, sent[0], game_id, 0)
    for refused in (gone, unfinished):
        assert refused.answer_text == ("That game is no longer stored, so its hands cannot be "
                                       "replayed.")


async def test_a_replay_is_made_from_the_stored_game_after_a_restart(group: Group) -> None:
    async with group.bot():
        game_id = await first_hand(group)
    async with group.bot():
        record = group.users[1].press(hand_result(group), "🎞 Replay")
        await group.server.wait_for(lambda: group.server.animations(group.chat) or None)
        group.send(group.users[0], "/replay")  # the command sends it again even so
        await group.server.wait_for(lambda: len(group.server.animations(group.chat)) == 2)
    assert record.answer_text == "🎞 The replay is on its way."
    for sent in group.server.animations(group.chat):
        check_replay(group, sent, game_id, 0)
    again = group.server.animations(group.chat)[1].animation
    first = group.server.animations(group.chat)[0].animation
    assert again is not None and first is not None
    assert again.file_unique_id == first.file_unique_id  # sent again by its file_id


async def test_in_private_a_player_picks_one_of_their_own_hands(group: Group) -> None:
    ayu, dewi = group.users[0], group.users[4]  # Dewi sits at no table

    def said_to_dewi() -> str:
        last = group.server.last_bot_message(dewi.private_chat)
        return last.content if last is not None else ""

    async with group.bot():
        dewi.send_private("/start")
        dewi.send_private("/replay")
        await group.server.wait_for(lambda: "nothing to replay" in said_to_dewi())
        game_id = await first_hand(group)
        ayu.send_private("/replay")
        listed = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(ayu.private_chat)
             if m.content.startswith("Your last hands")), None))
        assert len(listed.button_texts) == 1
        assert re.fullmatch(r"🎞 Gaple, hand 1: (drawn|\w+( & \w+)? won)",
                            plain(listed.button_texts[0]))
        tap = ayu.press(listed, listed.button_texts[0])
        sent = await group.server.wait_for(
            lambda: group.server.animations(ayu.private_chat) or None)
        # Dewi played none of it: Ayu's button, forged by her, shows her nothing.
        await group.server.wait_idle()
        last = group.server.last_bot_message(dewi.private_chat)
        assert last is not None
        forged = dewi.press_raw(last, ReplayHand(game_id, 0).encode())
        await group.server.wait_for(lambda: forged.answered)
    assert tap.answer_text == "🎞 The replay is on its way."
    assert group.server.animations(group.chat) == []
    check_replay(group, sent[0], game_id, 0)
    assert forged.answer_text is not None and "no longer stored" in forged.answer_text
    assert group.server.animations(dewi.private_chat) == []


async def test_a_russian_group_gets_its_replay_in_russian(group: Group) -> None:
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language="ru").to_json())
        table = await group.start("gaple")
        await table.play_until(lambda: group.said("Кон 1 окончен"))
        await group.server.wait_idle()
        result = next(m for m in group.messages() if plain(m.content).startswith("Кон 1 окончен"))
        assert "🎞 Повтор" in result.button_texts
        group.users[0].press(result, "🎞 Повтор")
        sent = await group.server.wait_for(lambda: group.server.animations(group.chat) or None)
    caption = plain(sent[0].caption or "")
    assert caption.startswith("🎞 Гапле, кон 1\n"), caption
    assert re.search(r"(Кон бер(ёт|ут) .+: \d+ очк|Кон вничью)", caption), caption  # noqa: RUF001
    check_replay(group, sent[0], group.game().game_id, 0)


async def test_in_a_forum_topic_replay_shows_that_topics_game(
        telegram: FakeTelegramServer, tmp_path: Path) -> None:
    users = [telegram.add_user(name, language_code="en") for name in NAMES]
    chat = telegram.add_group("Domino club", members=users, admins=users[:1], forum=True)
    general = Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())
    topic = telegram.create_topic(chat, "Evening", users[0])
    evening = replace(general, topic=topic)
    async with general.bot() as runtime:
        evening.runtime = runtime
        game_id = await first_hand(evening)
        general.send(users[4], "/replay")
        await telegram.wait_for(lambda: general.said("nothing to replay"))
        command = evening.send(users[4], "/replay")
        sent = await telegram.wait_for(lambda: telegram.animations(chat) or None)
    assert sent[0].thread_id == topic.thread_id and sent[0].reply_to is command
    check_replay(evening, sent[0], game_id, 0)


async def test_a_replay_still_on_its_way_does_not_hold_up_stopping(group: Group) -> None:
    async with group.bot():
        await first_hand(group)
        held = group.server.hold("sendAnimation", after_acting=False, timeout=30)
        group.users[0].press(hand_result(group), "🎞 Replay")
        await group.server.wait_for(lambda: held.holding)
        stopping = time.monotonic()
    assert time.monotonic() - stopping < STOP_GRACE + 3
    held.release()
