"""The lobby and the informational commands, as a group uses them."""

from __future__ import annotations

from pathlib import Path

from bot_kit import Group

from bot.models import Status
from fakeapi.demo import demo


async def test_picking_a_game_with_buttons_opens_a_table(group: Group) -> None:
    ayu = group.users[0]
    async with group.bot():
        ayu.send(group.chat, "/newgame")
        picker = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat) if "Which game?" in (m.text or "")),
            None))
        record = ayu.press(picker, "Gaple with dead tiles")
        await group.server.wait_for(lambda: record.answered)
        lobby = await group.server.wait_for(group._lobby_or_none)
        assert "Gaple with dead tiles" in (lobby.text or "")
        assert "4 to 5 players" in (lobby.text or "")
        assert picker.deleted


async def test_options_on_the_command_line_show_on_the_lobby(group: Group) -> None:
    async with group.bot():
        group.users[0].send(group.chat, "/newgame gaple-dead deal=7 target=150")
        lobby = await group.server.wait_for(group._lobby_or_none)
        assert "7 tiles each" in (lobby.text or "") and "150" in (lobby.text or "")
        group.users[1].send(group.chat, "/newgame")  # a second table is refused, politely
        await group.server.wait_for(lambda: group.said("A game is already running"))


async def test_bad_options_are_explained(group: Group) -> None:
    async with group.bot():
        group.users[0].send(group.chat, "/newgame pair deal=7")
        await group.server.wait_for(lambda: group.said(
            "Pair dominoes has no option deal. Its options: set, target, first_lead, "
            "block_count."))
        group.users[0].send(group.chat, "/newgame gaple-dead deal=8")
        await group.server.wait_for(lambda: group.said("deal is 6 or 7."))
        group.users[0].send(group.chat, "/newgame gaple dead_tiles=maybe")
        await group.server.wait_for(lambda: group.said("Gaple has no option dead_tiles."))
        group.users[0].send(group.chat, "/newgame gaple-dead dead_tiles=maybe")
        await group.server.wait_for(lambda: group.said("dead_tiles is on or off."))
        group.users[0].send(group.chat, "/newgame pair target=99999999999999999999999999")
        await group.server.wait_for(lambda: group.said(
            "target is a whole number from 1 to 1000000."))
        group.users[0].send(group.chat, "/newgame " + "chess" * 900)
        await group.server.wait_for(lambda: group.said("I don't know the game chesschess"))
        assert all(len(text) < 300 for text in group.texts())  # the name is quoted shortened
        group.users[0].send(group.chat, "/newgame chess")
        await group.server.wait_for(lambda: group.said("I don't know the game chess"))
        assert group.service.open_game_in(group.chat.id) is None


async def test_leave_start_and_cancel_rules(group: Group) -> None:
    ayu, budi, sergei = group.users[:3]
    async with group.bot():
        await group.open_table("pair", players=3)
        lobby = group.lobby()
        early = ayu.press(lobby, "▶ Start")
        await group.server.wait_for(lambda: early.answered)
        assert early.answer_text == "The game needs 4 players."
        not_creator = budi.press(lobby, "▶ Start")
        await group.server.wait_for(lambda: not_creator.answered)
        assert "created" in (not_creator.answer_text or "")
        left = sergei.press(lobby, "Leave")
        await group.server.wait_for(lambda: left.answered)
        await group.server.wait_for(lambda: sergei.id not in lobby.mentioned_user_ids)
        cancel = budi.press(lobby, "Cancel")
        await group.server.wait_for(lambda: cancel.answered)
        assert group.game().status is Status.LOBBY
        cancel = ayu.press(lobby, "Cancel")
        await group.server.wait_for(lambda: cancel.answered)
        await group.server.wait_for(lambda: "closed" in (lobby.text or ""))
        assert group.game().status is Status.CANCELLED
        assert not lobby.buttons


async def test_rules_and_help(group: Group) -> None:
    async with group.bot():
        group.users[0].send(group.chat, "/rules pair")
        await group.server.wait_for(lambda: group.said("Pair dominoes"))
        group.users[0].send(group.chat, "/help")
        await group.server.wait_for(lambda: group.said("/newgame"))
        group.users[0].send_private("/rules")
        await group.server.wait_for(lambda: any(
            "Gaple with dead tiles" in (m.text or "")
            for m in group.server.bot_messages(group.users[0].private_chat)))


async def test_the_offline_demo_plays_a_whole_match(tmp_path: Path) -> None:
    transcript = await demo("gaple", 4, tmp_path, seed=3, theme="dark")
    assert "/newgame gaple" in transcript
    assert "The match is over" in transcript
    pictures = sorted(tmp_path.glob("group_*.png"))
    assert len(pictures) > 10
    assert pictures[0].read_bytes().startswith(b"\x89PNG")
