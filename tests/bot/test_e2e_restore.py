"""A backup restored mid-game, as an operator does it: the bot stopped, the copy put over the
database, its -wal and -shm deleted, the bot started. The restored games are behind their
chats: the hand messages they know may be gone (a later turn replaced them), and the newest
ones are unknown to them. A backup the bot's tool made carries a mark, and the bot sends
every open game's messages anew at its start; a copy made some other way carries none, and
a tap on a hand message newer than the one its game knows has that hand sent again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from bot_kit import Group

from bot.handlers.runtime import Runtime
from bot.handlers.timers import OVERDUE_GRACE
from bot.storage.backup import back_up
from bot.storage.backup import main as backup_main
from fakeapi import FakeUser, StoredMessage
from fakeapi.players import Table, active_hand


def plain_copy(database: Path, destination: Path) -> None:
    """A consistent copy with SQLite's backup API, without the bot's tool (and its mark)."""
    with contextlib.closing(sqlite3.connect(database)) as source, \
            contextlib.closing(sqlite3.connect(destination)) as target:
        source.backup(target)


def restore(copy: Path, database: Path) -> None:
    shutil.copyfile(copy, database)
    for suffix in ("-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)


def newest(group: Group, user: FakeUser) -> StoredMessage:
    """The user's newest hand message from the bot that is still there."""
    return next(m for m in reversed(group.server.bot_messages(user.private_chat))
                if not m.deleted and m.buttons)


async def one_move_played(group: Group, rt: Runtime) -> Table:
    """A pair game started and its first move made, every message of it sent."""
    table = await group.start("pair")
    await table.play_one()
    await rt.publisher.idle()
    await group.server.wait_idle()
    return table


async def played_on_after(group: Group, copy: Path, take_copy: object) -> Table:
    """A game with moves before the copy and after it; the bot stopped, the copy restored."""
    database = Path(group.database)
    async with group.bot() as rt:
        table = await one_move_played(group, rt)
        take_copy(database, copy)  # type: ignore[operator]
        for _ in range(3):
            await table.play_one()
        await rt.publisher.idle()
        await group.server.wait_idle()
    restore(copy, database)
    return table


def to_move(group: Group) -> FakeUser:
    game = group.game()
    assert game.match is not None and game.match.to_move is not None
    user_id = game.players[game.match.to_move].user_id
    return next(u for u in group.users if u.id == user_id)


async def test_a_marked_backup_restored_sends_the_turn_and_the_table_anew(
    group: Group, tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    table = await played_on_after(group, tmp_path / "backup.sqlite3", back_up)  # marks it
    caplog.set_level(logging.INFO, logger="bot.app")
    last = group.messages()[-1].message_id
    async with group.bot() as rt:
        player = to_move(group)
        turn = await group.server.wait_for(lambda: active_hand(group.server, player),
                                           message="the player to move got no turn message")
        assert turn is newest(group, player)
        await group.server.wait_for(
            lambda: group.messages()[-1].message_id > last and group.messages()[-1].photo,
            message="the table was not posted again")
        await table.play_one()  # the game goes on from the restored state
        await rt.publisher.idle()
    assert [r.getMessage().partition("): ")[2] for r in caplog.records
            if r.getMessage().startswith("started on a restored backup")
            ] == ["the messages of 1 open game are sent anew"]
    mark = len(group.server.requests)
    async with group.bot():  # the mark was taken: an ordinary restart sends nothing anew
        await group.server.wait_idle()
        assert not [r for r in group.server.requests[mark:]
                    if r.method in ("sendPhoto", "sendMessage")]


async def test_a_tap_on_a_message_newer_than_the_restored_game_knows_sends_the_hand_anew(
    group: Group, tmp_path: Path,
) -> None:
    table = await played_on_after(group, tmp_path / "copy.sqlite3", plain_copy)
    async with group.bot():
        player = to_move(group)
        await group.server.wait_idle()
        assert active_hand(group.server, player) is None  # its turn message shows a later move
        others = [u for u in group.users[:4] if u is not player]
        # Another player's message sent after the copy, which the restored game does not know:
        other = next(u for u in others if newest(group, u).message_id
                     > group.game().messages.hands[group.game().seat_of(u.id)].message_id)
        message = newest(group, other)
        record = other.press(message, message.buttons[0][0].text)
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "I sent your tiles to our private chat."
        await group.server.wait_for(lambda: newest(group, other).message_id
                                    > message.message_id, message="no hand sent anew")
        assert "out of date" in (message.caption or message.text or "")
        # The player to move taps their newest message, which shows a later move than the
        # restored game's: their turn is sent anew.
        message = newest(group, player)
        record = player.press(message, message.buttons[0][0].text)
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "I sent your tiles to our private chat."
        turn = await group.server.wait_for(lambda: active_hand(group.server, player),
                                           message="the tap did not bring the turn")
        assert turn.message_id > message.message_id
        await table.play_one()  # the turn plays


async def test_a_restored_backup_tells_the_group_its_moves_were_undone(
    group: Group, tmp_path: Path,
) -> None:
    """Operator QA: after a restore the group saw its table posted again at an older
    position, and nobody said why. One notice, in the group's language, before the table."""
    await played_on_after(group, tmp_path / "backup.sqlite3", back_up)  # marks it
    last = group.messages()[-1].message_id
    async with group.bot():
        await group.server.wait_for(
            lambda: group.messages()[-1].message_id > last and group.messages()[-1].photo,
            message="the table was not posted again")
        await group.server.wait_idle()
        new = [m for m in group.messages() if m.message_id > last and not m.deleted]
    notices = [m.text for m in new if m.text and "restored from a backup" in m.text]
    assert len(notices) == 1, [m.text or m.caption for m in new]
    assert re.fullmatch(r"⏪ The bot was restored from a backup made \d{4}-\d\d-\d\d \d\d:\d\d "
                        r"UTC: moves made since then are undone, and this game goes on from "
                        r"where it was then\.", notices[0])
    assert new[-1].photo  # the table after it
    mark = len(group.server.requests)
    async with group.bot():  # an ordinary restart says nothing
        await group.server.wait_idle()
        assert not [r for r in group.server.requests[mark:]
                    if r.method in ("sendPhoto", "sendMessage")]


async def test_a_bot_moved_with_backup_move_tells_no_group_its_moves_were_undone(
    group: Group, tmp_path: Path, caplog: pytest.LogCaptureFixture,
) -> None:
    """Operator QA: moving the bot to another machine as documented (stop it, back up the
    stopped database, start the copy there) told every group of a game under way that its
    moves were undone, though nothing was. ``--move`` makes a copy without the mark."""
    database = Path(group.database)
    async with group.bot() as rt:
        table = await one_move_played(group, rt)
    moved = tmp_path / "moved.sqlite3"
    assert backup_main(["--move", str(moved), "--database", str(database)]) == 0
    restore(moved, database)  # (the other machine's database: the same path here)
    caplog.set_level(logging.INFO, logger="bot.app")
    last = group.messages()[-1].message_id
    async with group.bot() as rt:
        await table.play_one()  # the game goes on where it was
        await rt.publisher.idle()
        await group.server.wait_idle()
        new = [m for m in group.messages() if m.message_id > last and not m.deleted]
    assert not [m for m in new if m.text and "restored from a backup" in m.text]
    assert not [r for r in caplog.records
                if r.getMessage().startswith("started on a restored backup")]


def overdue_in(backup: Path, seat: int) -> None:
    """The backup's turn as a restore long after it finds it: its deadline gone by, its
    half-time warning given, and the seat to move with two time-outs in a row already."""
    with contextlib.closing(sqlite3.connect(backup)) as db, db:
        db.execute("UPDATE games SET deadline=?, timer=json_set(timer, '$.warned', json('true'),"
                   " '$.timeouts', json_object(?, 2))", (time.time() - 100, str(seat)))


async def test_a_restored_backup_gives_the_player_to_move_a_whole_turn(
    group: Group, tmp_path: Path,
) -> None:
    """Operator QA: a backup made mid-game, the bot stopped for longer than a turn, the backup
    restored: the player to move got their hand anew ("90 s to move") and five seconds later
    "Your time ran out: I laid 1-5 for you", the overdue time-out of a plain restart (its
    stored deadline lay in the past). A restored game's turn gets a whole turn from the
    start, stored, and the time the bot was down counts against nobody."""
    database, backup = Path(group.database), tmp_path / "backup.sqlite3"
    async with group.bot() as rt:
        await one_move_played(group, rt)
        back_up(database, backup)  # (marked)
        match = group.game().match
    assert match is not None and match.to_move is not None
    seat = match.to_move
    overdue_in(backup, seat)
    restore(backup, database)
    started = time.time()
    async with group.bot() as rt:
        game, player = group.game(), to_move(group)
        before, old = game.move_no, newest(group, player).message_id
        await rt.publisher.idle()
        turn = await group.server.wait_for(lambda: active_hand(group.server, player),
                                           message="the player to move got no turn message")
        assert turn.message_id > old  # sent anew
        assert f"⏳ {game.turn_seconds} s to move" in (turn.caption or turn.text or "")
        await asyncio.sleep(OVERDUE_GRACE + 1.5)  # an overdue turn's time-out came by then
        await group.server.wait_idle()
        assert "time ran out" not in (turn.caption or turn.text or "")
        assert game.move_no == before and not game.timer.auto_moves
        assert active_hand(group.server, player) is turn
        assert game.timer.timeouts == {seat: 2} and not game.timer.away  # as they were
        assert game.deadline is not None and game.deadline >= started + game.turn_seconds
        assert not game.timer.warned  # its half-time warning still to come
        deadline = game.deadline
    stored = group.game()  # (the database's: the bot is stopped)
    assert stored.deadline == deadline and not stored.timer.warned  # a restart keeps them
