"""A turn that ran out while the bot was down (QA: stopped on Budi's turn, Budi taps 5 s later,
the bot starts 40 s after the stop, past his 30 s): the tap waiting at Telegram is his move,
and counts; only a turn nobody played gets its time-out, a few seconds after the start
(:meth:`bot.handlers.timers.Timers.resume`)."""

from __future__ import annotations

import contextlib
import sqlite3
import time

from bot_kit import Group, tap_played

from bot.handlers.timers import OVERDUE_GRACE
from bot.models import Game
from fakeapi import FakeUser, StoredMessage
from fakeapi.players import active_hand, live_buttons


async def stopped_on_a_turn(group: Group) -> tuple[FakeUser, StoredMessage, int]:
    """A game two moves in, the bot stopped on a person's turn: who is to move, their hand
    message, and the move number."""
    async with group.bot():
        table = await group.start("pair")
        for _ in range(2):
            await table.play_one()
        user, message = await group.server.wait_for(table.whose_turn)
        before = group.game().move_no
    return user, message, before


def run_out(group: Group) -> None:
    """The turn's time ran out while the bot was down."""
    game = group.game()
    with contextlib.closing(sqlite3.connect(group.database)) as db, db:
        db.execute("UPDATE games SET deadline=? WHERE game_id=?",
                   (time.time() - 10, game.game_id))


def table_caption(group: Group, game: Game) -> str:
    message = group.server.message(group.chat, game.messages.table_message)  # type: ignore[arg-type]
    return message.caption or ""


async def test_a_tap_made_while_the_bot_was_down_counts_though_the_turn_ran_out(
    group: Group,
) -> None:
    user, message, before = await stopped_on_a_turn(group)
    shown = live_buttons(message)
    record = user.press(message, shown[0])  # waits at Telegram for the bot's next poll
    run_out(group)
    async with group.bot():
        game = group.game()
        # answered with no refusal ("It is Ayu's turn"), and played
        await tap_played(group, user, message, record, before, shown,
                         "the tap waiting at Telegram")
        assert game.timer.timeouts == {} and not game.timer.auto_moves
        assert "time ran out" not in table_caption(group, game)
        assert "time ran out" not in (message.caption or message.text or "")


async def test_a_turn_that_ran_out_while_the_bot_was_down_times_out_soon_after_the_start(
    group: Group,
) -> None:
    user, _, before = await stopped_on_a_turn(group)
    run_out(group)
    async with group.bot():
        started = time.monotonic()
        game = group.game()
        assert game.move_no == before  # not at once: a tap may be waiting
        await group.server.wait_for(lambda: game.move_no > before, timeout=OVERDUE_GRACE + 5,
                                    message="the overdue turn was not resolved")
        assert time.monotonic() - started < OVERDUE_GRACE + 5
        assert game.timer.auto_moves and game.timer.timeouts == {game.seat_of(user.id): 1}
        await group.server.wait_for(lambda: "time ran out" in table_caption(group, game))
        await group.server.wait_for(lambda: active_hand(group.server, user) is None,
                                    message="the hand still waits for a tap")
