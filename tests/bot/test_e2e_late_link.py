"""The lobby's link to the private chat (``/start join<table>``) followed after the table has
started: a seated player gets their tiles, anyone else is told the game began without them,
instead of "That table is no longer open" for a game being played (newcomer QA)."""

from __future__ import annotations

from bot_kit import Group


async def test_the_lobby_link_after_start_sends_a_seated_player_the_tiles(group: Group) -> None:
    budi, dewi = group.users[1], group.users[4]
    async with group.bot():
        await group.start("gaple")
        game = group.game()
        await group.server.wait_idle()
        last = max(m.message_id for m in group.server.bot_messages(budi.private_chat))
        budi.send_private(f"/start join{game.game_id}")
        fresh = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if m.message_id > last and m.photo is not None and m.buttons), None))
        assert "no longer open" not in (fresh.caption or "")
        dewi.send_private("/start")
        dewi.send_private(f"/start join{game.game_id}")
        await group.server.wait_for(lambda: any(
            (m.text or "") == "That table has started without you. When its game is over, "
                              "anyone can open the next one with /newgame."
            for m in group.server.bot_messages(dewi.private_chat)))
        assert not any("no longer open" in (m.text or "")
                       for user in (budi, dewi)
                       for m in group.server.bot_messages(user.private_chat))
