"""A player whose private chat Telegram no longer finds (400 "chat not found": an account
deleted, a player of a database upgraded from an old version): as a player who blocked the
bot, their seat is unreachable, told once in the group and in one log line, with no
traceback and no retry storm, at the start after it too (operator QA: 27 tracebacks in 8 s
on every start, each naming neither the chat nor the cause)."""

from __future__ import annotations

import logging

import pytest
from bot_kit import Group, complaints


async def test_a_player_telegram_does_not_find_is_unreachable_in_one_line(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    server = group.server
    async with group.bot() as runtime:
        table = await group.start("gaple")
        user, _ = await server.wait_for(table.whose_turn)
        gone = group.users[(group.users.index(user) + 1) % 4]
        gone.delete_account()
        await table.play_one()
        await server.wait_for(lambda: group.said("I cannot send " + gone.first_name))
        await runtime.publisher.idle()
    tried = [r for r in server.requests if r.chat_id == gone.private_chat.id and not r.ok]
    assert 1 <= len(tried) <= 3, [(r.method, r.status) for r in tried]  # no retry storm
    async with group.bot() as runtime:  # the next start tries the chat no more
        await runtime.publisher.idle()
    assert [r for r in server.requests if r.chat_id == gone.private_chat.id
            and not r.ok] == tried
    assert [t for t in group.texts() if t.startswith("I cannot send")] \
        == [next(t for t in group.texts() if t.startswith("I cannot send"))]
    assert not complaints(caplog, logging.WARNING)
    assert not any(r.exc_info for r in caplog.records)
    lines = [r.getMessage() for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(lines) == 1 and str(gone.id) in lines[0] \
        and "Chat not found" in lines[0], lines
