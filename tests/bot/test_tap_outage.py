"""A tap or a command while the database is away (PostgreSQL restarting, past the storage's
own retries): one WARNING line, no traceback, nothing applied; the tile stays to tap again."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

import pytest
from bot_kit import Group
from telegram import InlineKeyboardButton

from bot.serving.metrics import Metrics
from bot.storage import StorageUnavailableError
from fakeapi import FakeUser, StoredMessage

AWAY = "PostgreSQL at 127.0.0.1:5432/domino is unavailable: connection refused"


async def test_a_tap_while_the_database_is_away_is_one_line_and_changes_nothing(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    async with group.bot() as runtime:
        table = await group.start("gaple")
        user, hand = await group.server.wait_for(table.whose_turn)
        moves = group.game().move_no

        async def away(*args: Any, **kwargs: Any) -> None:
            raise StorageUnavailableError(AWAY)

        runtime.service.storage.commit_move = away  # type: ignore[method-assign]
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            tile = next(b for row in hand.buttons for b in row if b.text.startswith("✅"))
            tap = user.press(hand, tile.text)
            await group.server.wait_for(lambda: tap.answered)
        # (a move's tap is answered early, blank, before the move is tried: the hand stays)
        assert tap.answer_text in (None, "Something went wrong. Please try again.")
        assert group.game().move_no == moves  # nothing applied
    problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in problems] == [f"button {tile.callback_data!r} not "
                                                   f"handled: {AWAY}"]
    assert not any(r.exc_info for r in problems)


FULL = "database or disk is full"


async def tap_and_hear_back(group: Group, user: FakeUser, hand: StoredMessage,
                            caplog: pytest.LogCaptureFixture
                            ) -> tuple[InlineKeyboardButton, list[logging.LogRecord]]:
    """``user`` taps a playable tile of ``hand`` and is written to in private; the tile
    and what the bot logged at WARNING or above meanwhile."""
    private = user.private_chat
    before = len(group.server.messages(private))
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        tile = next(b for row in hand.buttons for b in row if b.text.startswith("✅"))
        tap = user.press(hand, tile.text)
        await group.server.wait_for(lambda: tap.answered)
        await group.server.wait_for(lambda: len(group.server.messages(private)) > before)
    return tile, [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_move_on_a_full_disk_is_one_line_an_apology_and_plays_once_freed(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    """Operator QA: the disk filled while the bot ran, and a tile tapped logged ERROR with a
    traceback while the player saw nothing (the tap is answered blank before its move is
    committed): the move is not made, the player is told to try again, the log says why in
    one line; once space is freed the same tile plays."""
    async with group.bot() as runtime:
        table = await group.start("gaple")
        user, hand = await group.server.wait_for(table.whose_turn)
        moves = group.game().move_no
        storage = runtime.service.storage
        commit = storage.commit_move

        async def full(*args: Any, **kwargs: Any) -> None:
            raise sqlite3.OperationalError(FULL)

        storage.commit_move = full  # type: ignore[method-assign]
        heard = len(group.server.messages(user.private_chat))
        tile, problems = await tap_and_hear_back(group, user, hand, caplog)
        assert group.game().move_no == moves  # nothing applied, in memory or stored
        stored = await storage.load_game(group.game().game_id)
        assert stored is not None and stored.move_no == moves
        told = [m.text for m in group.server.messages(user.private_chat)[heard:]]
        assert told == ["Something went wrong. Please try again."]
        storage.commit_move = commit  # type: ignore[method-assign]
        again = user.press(hand, tile.text)
        await group.server.wait_for(lambda: again.answered)
        await group.server.wait_for(lambda: group.game().move_no > moves)
    assert [r.getMessage() for r in problems] == [
        f"button {tile.callback_data!r} not handled: {FULL} (free some disk space)"]
    assert not any(r.exc_info for r in problems)


async def test_a_command_on_a_full_disk_is_one_line_and_an_apology(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    async with group.bot() as runtime:
        async def full(*args: Any, **kwargs: Any) -> int:
            raise sqlite3.OperationalError(FULL)

        runtime.service.storage.insert_game = full  # type: ignore[method-assign]
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            group.send(group.users[0], "/newgame gaple")
            await group.server.wait_for(
                lambda: group.said("Something went wrong. Please try again."))
        problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [r.getMessage() for r in problems] == [
        f"update failed: {FULL} (free some disk space)"]
    assert not any(r.exc_info for r in problems)


async def test_a_tap_the_full_disk_fails_is_counted_as_failed_by_cause(group: Group) -> None:
    """Operator QA: a full disk showed nowhere but the log; the failed tap was counted as
    handled, and no metric counted the failed write."""
    async with group.bot() as runtime:
        table = await group.start("gaple")
        user, hand = await group.server.wait_for(table.whose_turn)
        metrics = runtime.metrics
        handled = sample(metrics, "domino_taps_handled_total")

        async def full(*args: Any, **kwargs: Any) -> None:
            raise sqlite3.OperationalError(FULL)

        runtime.service.storage.commit_move = full  # type: ignore[method-assign]
        tile = next(b for row in hand.buttons for b in row if b.text.startswith("✅"))
        tap = user.press(hand, tile.text)
        await group.server.wait_for(lambda: tap.answered)
        await group.server.wait_for(
            lambda: sample(metrics, "domino_taps_failed_total") == 1)
        assert sample(metrics, "domino_taps_handled_total") == handled
        assert sample(metrics, "domino_storage_failures_total", cause="disk_full") == 1
        assert sample(metrics, "domino_storage_failures_total", cause="unavailable") == 0


def sample(metrics: Metrics, name: str, **labels: str) -> float:
    value = metrics.registry.get_sample_value(name, labels)
    return 0.0 if value is None else value
