"""Half a turn's time gone: the player to move is nudged in private (an edit of the table
notifies nobody) with the time actually left, and the nudge goes once their turn has
passed."""

from __future__ import annotations

from bot_kit import Group, plain

from fakeapi.players import Table


async def test_the_player_to_move_is_nudged_at_half_time_and_the_nudge_goes_after(
        group: Group) -> None:
    async with group.bot() as runtime:
        await group.start("gaple")
        table = Table(group.server, group.users[:4])
        user, _hand = await group.server.wait_for(table.whose_turn)
        game = group.game()
        deadline = game.deadline
        assert deadline is not None
        # More than half the turn's time is gone (the warning was late: a flood wait)
        runtime.service.clock = lambda: deadline - 31.6
        async with runtime.locks.game(game.game_id):
            assert await runtime.service.warn(game, game.move_no)
        nudge = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(user.private_chat)
             if m.content.startswith("⏳ Your turn")), None), message="no nudge")
        assert plain(nudge.content) == (  # (and which table: a player may be at two)
            "⏳ Your turn: 32 seconds left, then I move for you.\n"
            f"↩ The table is in the group {group.chat.title}.")
        await runtime.publisher.idle()
        others = [u for u in group.users[:4] if u is not user]
        assert not any(m.content.startswith("⏳") for u in others
                       for m in group.server.bot_messages(u.private_chat))
        await table.play_one()
        await group.server.wait_for(lambda: nudge.deleted, message="the nudge stayed")
        await runtime.publisher.idle()
        assert group.game().messages.reminders == {}
