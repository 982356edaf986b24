"""A tap or a command while the database is away (PostgreSQL restarting, past the storage's
own retries): one WARNING line, no traceback, nothing applied; the tile stays to tap again."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from bot_kit import Group

from bot.storage import StorageUnavailableError

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
