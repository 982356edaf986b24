"""What real Telegram does that a game must survive: messages an admin deletes, the bot
removed and added back, commands in places the bot may not write, Telegram's own failures,
names that show nothing. Each ends with a clear message, nothing lost, no error logged."""

from __future__ import annotations

import logging

import pytest
from bot_kit import Group, lobby_button

from bot.models import Status


def complaints(caplog: pytest.LogCaptureFixture, level: int = logging.ERROR) -> list[str]:
    """The log lines at ``level`` or above, with their exception's words."""
    return [f"{r.name}: {r.getMessage()} {r.exc_info[1] if r.exc_info else ''}"
            for r in caplog.records if r.levelno >= level]


async def test_a_lobby_an_admin_deleted_is_posted_again_at_the_next_newgame(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    ayu, budi, sergei = group.users[:3]
    async with group.bot():
        await group.open_table("pair", 2)
        old = group.lobby()
        group.server.delete_message(old, by=ayu)  # the admin tidies the chat up
        group.send(sergei, "/newgame pair")  # where has the table gone?
        await group.server.wait_for(lambda: group.said("A table is already open here"))
        lobby = await group.server.wait_for(group._lobby_or_none)
        assert lobby is not old and not lobby.deleted
        assert ayu.id in lobby.mentioned_user_ids and budi.id in lobby.mentioned_user_ids
        sergei.send_private("/start")
        record = sergei.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: sergei.id in lobby.mentioned_user_ids)
        assert group.game().status is Status.LOBBY
    assert not complaints(caplog)


async def test_a_table_an_admin_deleted_comes_back_at_the_next_move_or_newgame(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    async with group.bot() as runtime:
        table = await group.start("pair")
        await table.play_one()
        await runtime.publisher.idle()
        first = group.game().messages.table_message
        assert first is not None
        group.server.delete_message(group.server.message(group.chat, first), by=group.users[0])
        await table.play_one()  # its edit finds the message gone: the table is sent anew
        await runtime.publisher.idle()
        second = group.game().messages.table_message
        assert second not in (None, first)
        assert not group.server.message(group.chat, second).deleted  # type: ignore[arg-type]
        group.server.delete_message(group.server.message(group.chat, second),  # type: ignore[arg-type]
                                    by=group.users[0])
        group.send(group.users[4], "/newgame gaple")  # nobody moves: the table is asked for
        await group.server.wait_for(lambda: group.said("A game is already running"))
        await group.server.wait_for(
            lambda: group.game().messages.table_message not in (first, second))
        await runtime.publisher.idle()
        third = group.server.message(group.chat, group.game().messages.table_message)  # type: ignore[arg-type]
        assert third.photo is not None and not third.deleted
    assert not complaints(caplog)
