"""A /table in the gap after the table's last re-post is answered that the table comes down
in a few seconds: that answer goes once the table has come down, and once it never will (the
game ended in the wait, a restart dropped it) (player QA: it stayed in the group for good,
promising a table that never came)."""

from __future__ import annotations

from bot_kit import Group
from test_e2e_private_table import moved_below, table_message

from bot.gamemessages import Messages
from bot.models import Status
from fakeapi import StoredMessage

COMING = "The table comes down to the bottom of the group in a few seconds."


async def _told_it_comes(group: Group, gap: float) -> tuple[StoredMessage, StoredMessage]:
    """Budi's /table brings the table down; Ayu's, in the gap after it, is told it comes in
    a few seconds: the table Budi's brought down, and that notice."""
    runtime = group.runtime
    assert runtime is not None
    runtime.publisher.group.reposts.repost_gap = gap
    table = await group.start("gaple")
    await table.play_one()
    await runtime.publisher.idle()
    first = await moved_below(group, table_message(group), group.send(group.users[1], "/table"))
    asked = group.send(group.users[0], "/table")
    notice = await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(group.chat)
         if m.message_id > asked.message_id and not m.photo), None))
    assert notice.text == COMING
    await group.server.wait_for(lambda: group.game().messages.table_notices != [])
    return first, notice


async def test_the_notice_goes_once_the_table_has_come_down(group: Group) -> None:
    async with group.bot() as runtime:
        first, notice = await _told_it_comes(group, 2.0)
        assert not notice.deleted
        await moved_below(group, first, notice)
        await group.server.wait_for(lambda: notice.deleted, message="the notice stayed")
        await runtime.publisher.idle()
        assert group.game().messages.table_notices == []


async def test_the_notice_goes_when_the_game_stops_in_the_wait(group: Group) -> None:
    async with group.bot() as runtime:
        first, notice = await _told_it_comes(group, 60.0)
        game = group.game()
        async with runtime.locks.game(game.game_id):
            await runtime.service.stop(game, game.creator_id, is_admin=True)
        await group.server.wait_for(lambda: notice.deleted, message="the notice stayed")
        assert game.status is Status.STOPPED and not first.deleted  # (no table came)


async def test_a_notice_a_restart_leaves_goes_after_it(group: Group) -> None:
    """The bot stops in the wait (its table then never comes down): the notice, stored with
    the game's messages, is deleted by the restarted bot."""
    async with group.bot():
        _first, notice = await _told_it_comes(group, 60.0)
    stored = Messages.from_json(group.game().messages.to_json())
    assert stored.table_notices == [notice.message_id] and not notice.deleted
    async with group.bot() as runtime:
        await group.server.wait_for(lambda: notice.deleted, message="the notice stayed")
        await runtime.publisher.idle()
        assert group.game().messages.table_notices == []


def test_messages_stored_before_the_table_notices_load_with_none() -> None:
    loaded = Messages.from_json('{"table": 5}')
    assert (loaded.table_message, loaded.table_notices) == (5, [])
    assert Messages.from_json(loaded.to_json()) == loaded
