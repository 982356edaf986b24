"""A match's table says it is over even when the bot died before that edit (QA: a SIGKILL
seconds after a muggins match's end, in a forum topic, left the table with its last
"🤖 Atlas is thinking…" and its My tiles button: the edit goes after the announcements,
under the group's budget, and a restart synced only open games and those with announcements
left)."""

from __future__ import annotations

from typing import Any

from bot_kit import Group

from bot.models import Game, Status


async def test_a_table_whose_closing_edit_was_cut_off_is_closed_after_a_restart(
    group: Group,
) -> None:
    async with group.bot() as runtime:
        sync = runtime.publisher.group
        drafted = sync._table_draft

        def open_only(game: Game) -> Any:  # the bot dies before the closing edit
            return drafted(game) if game.status is Status.PLAYING else None

        sync._table_draft = open_only  # type: ignore[method-assign]
        table = await group.start("gaple target=1")
        await table.play_until(group.match_over)
        await runtime.publisher.idle()
    finished = group.game()
    assert finished.messages.table_message is not None
    message = group.server.message(group.chat, finished.messages.table_message)
    assert message.buttons  # (as the QA found it)
    async with group.bot() as runtime:
        await group.server.wait_for(lambda: not message.buttons,
                                    message="the finished match's table kept its buttons")
        await runtime.publisher.idle()
    assert (message.caption or "").endswith("This match is over."), message.caption
