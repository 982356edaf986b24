"""A player whose tiles bounced (they blocked the bot) sends /start while the group is being
told that their tiles cannot reach them: the /start asks for their tiles, and the notice's
answer, coming after it, must not mark the seat as one the bot cannot reach (the next sync
would skip it: the player who did what the notice asks would get no tiles)."""

from __future__ import annotations

from bot_kit import Group

from fakeapi import FakeTelegramServer
from fakeapi.players import active_hand


async def test_a_start_while_the_group_is_told_of_the_bounce_brings_the_tiles(
        telegram: FakeTelegramServer, group: Group) -> None:
    async with group.bot() as runtime:
        table = await group.start("gaple")
        user, _ = await telegram.wait_for(table.whose_turn)
        await runtime.publisher.idle()
        nxt = group.users[(group.users.index(user) + 1) % 4]
        seat = group.game().seat_of(nxt.id)
        assert seat is not None
        old = group.game().messages.hands[seat].message_id
        nxt.block_bot()
        # the group's notice is sent, its answer held
        held = telegram.hold("sendMessage", after_acting=True, chat=group.chat)
        await table.play_one()
        await telegram.wait_for(lambda: held.holding)
        assert held.result["text"].startswith("I cannot send ")
        nxt.unblock_bot()
        nxt.send_private("/start")  # (its tiles asked for: the old hand is deleted)
        await telegram.wait_for(lambda: telegram.message(nxt.private_chat, old).deleted)
        held.release()
        await telegram.wait_for(lambda: active_hand(telegram, nxt) is not None,
                                message="the hand was not sent again")
        assert seat not in group.game().messages.announced_unreachable
