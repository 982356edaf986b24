"""Computer players at the table: filling empty seats, taking over for absent players."""

from __future__ import annotations

import re

from bot_kit import Group, lobby_button, plain

from bot.models import Status
from bot.service.ratings import fresh_rating
from bot.service.scoreboards import player_stats, scoreboard
from bot.service.settings import GroupSettings
from fakeapi.players import Table


async def open_with_computers(group: Group, humans: int, levels: list[int]) -> Table:
    for user in group.users[:humans]:
        user.send_private("/start")
    group.users[0].send(group.chat, "/newgame pair target=40")
    lobby = await group.server.wait_for(group._lobby_or_none)
    for user in group.users[1:humans]:
        record = user.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
    gid = group.game().game_id
    refused = group.users[1].press(lobby, f"a:{gid}:2")  # only the creator seats computers
    await group.server.wait_for(lambda: refused.answered)
    assert "created" in (refused.answer_text or "")
    for level in levels:
        record = group.users[0].press(lobby, f"a:{gid}:{level}")
        await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
    await group.server.wait_for(  # the seat lines: "3. 🤖 Nova (hard)"
        lambda: len(re.findall(r"^\d+\. 🤖", plain(lobby.text or ""), re.M)) == len(levels))
    # each says its level (player QA: two computers added as easy and hard looked alike)
    said = re.findall(r"^\d+\. 🤖 \S+ \((\w+)\)$", plain(lobby.text or ""), re.M)
    assert said == [("easy", "normal", "hard", "expert")[level] for level in levels], said
    if levels:
        taken_off = group.users[1].press(lobby, f"k:{gid}")  # nor takes them off
        await group.server.wait_for(lambda: taken_off.answered)
        assert taken_off.answer_text == (
            "Only the player who created the game can take computer players off.")
    start = group.users[0].press(lobby, lobby_button(lobby, "s") or "")
    await group.server.wait_for(lambda: start.answered)
    assert start.answer_text == "Let's play!"
    return Table(group.server, group.users[:humans])


async def test_two_people_play_pair_with_two_computers(group: Group) -> None:
    async with group.bot(computer_pause=0.05):
        table = await open_with_computers(group, humans=2, levels=[2, 1])
        await table.play_until(group.match_over)
        game = group.game()
    assert game.status is Status.FINISHED
    assert [p.is_computer for p in game.players] == [False, False, True, True]
    assert any("is thinking" in (v.caption or "") for m in group.server.bot_messages(group.chat)
               for v in m.versions)
    # Computers have no private chat: nothing was ever sent to a negative id.
    assert all(r.chat_id is None or r.chat_id > -1000 or r.chat_id == group.chat.id
               for r in group.server.requests)


async def test_a_player_who_leaves_is_replaced_and_the_match_finishes(group: Group) -> None:
    async with group.bot(computer_pause=0.05) as runtime:
        table = await group.start("gaple")
        await table.play_one()
        sergei = group.users[2]
        sergei.send(group.chat, "/leave")
        ask = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat) if "Yes, leave" in
             str(m.button_texts)), None))
        assert "the match will count as lost for you" in (ask.text or "")
        record = sergei.press(ask, "Yes, leave")
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: group.said("takes the seat of Sergei"))
        table.players = [u for u in table.players if u is not sergei]
        await table.play_until(group.match_over)
        game = group.game()
        board = await scoreboard(runtime.storage, group.chat.id, "gaple")
        stats = await player_stats(runtime.storage, sergei.id)
    assert game.status is Status.FINISHED and game.players[2].is_computer
    # Leaving counted as losing the match: on the group's board and in his own /stats.
    by_id = {s.user_id: s for s in board.standings}
    assert (by_id[sergei.id].played, by_id[sergei.id].won) == (1, 0)
    assert by_id[sergei.id].rating < fresh_rating()
    change = by_id[sergei.id].rating - fresh_rating()  # said with the match's result
    assert group.said(f"Sergei (left the match) {change}.")
    assert by_id[sergei.id].rating == min(s.rating for s in board.standings)  # last place
    assert [(g.game, g.standing.played, g.standing.won) for g in stats.games] == [("gaple", 1, 0)]


async def test_an_away_player_can_be_handed_to_a_computer(group: Group) -> None:
    async with group.bot(computer_pause=0.05):
        table = await group.start("pair")
        game = group.game()
        game.turn_seconds = 1
        await table.play_one()
        absent_seat = game.match.to_move  # type: ignore[union-attr]
        absent = group.users[absent_seat]  # type: ignore[index]
        others = Table(group.server, [u for u in group.users[:4] if u is not absent])
        offer = None
        while offer is None and not group.match_over():
            offer = next((m for m in group.server.bot_messages(group.chat)
                          if "seems to be away" in (m.text or "")), None)
            if offer is None:
                await others.play_one(timeout=5, done=lambda: any(
                    "seems to be away" in t for t in group.texts()) or group.match_over())
        assert offer is not None, "no away notice after three time-outs"
        refused = group.users[1 if absent_seat != 1 else 2].press(
            offer, offer.buttons[0][0].callback_data or "")
        await group.server.wait_for(lambda: refused.answered)
        assert game.players[absent_seat].is_computer is False  # type: ignore[index]
        record = group.users[0].press(offer, offer.buttons[0][0].callback_data or "")
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: game.players[absent_seat].is_computer)  # type: ignore[index]
        game.turn_seconds = 90
        await others.play_until(group.match_over)
    assert group.game().status is Status.FINISHED


async def test_the_boards_count_a_finished_match_with_computer_players(group: Group) -> None:
    """A computer seat is stored with its level: the boards and /stats must read it."""
    ayu, budi = group.users[:2]
    async with group.bot(computer_pause=0.05) as runtime:
        table = await open_with_computers(group, humans=2, levels=[0, 2])
        await table.play_until(group.match_over)
        asked = ["/scoreboard", "/scoreboard pair", "/scoreboard month", "/scoreboard all",
                 "/scoreboard week", "/scoreboard pair all"]
        for command in asked:
            ayu.send(group.chat, command)
        budi.send_private("/stats")
        await group.server.wait_for(lambda: sum(
            1 for m in group.server.bot_messages(group.chat) if m.photo and "Scoreboard"
            in (m.caption or "")) == len(asked))
        stats = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat) if "Pair dominoes"
             in (m.text or "")), None))
        boards = [m for m in group.server.bot_messages(group.chat) if m.photo and m.caption
                  and "Scoreboard" in m.caption]
        assert all("Budi" in (m.caption or "") and "🤖" not in (m.caption or "") for m in boards)
        assert " of 1 (" in (stats.text or "")  # won 0 or 1 of the 1 match played
        # With computers on the board, they are ranked too.
        settings = await runtime.storage.chat_settings(group.chat.id)
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings.from_json(settings).with_general(
                "rank_computers", True).to_json())
        ayu.send(group.chat, "/scoreboard")
        with_computers = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)[len(boards):] if m.photo
             and "🤖" in (m.caption or "")), None))
    assert with_computers is not None
    assert not group.said("Something went wrong")
    assert not any("Something went wrong" in (m.text or "")
                   for m in group.server.bot_messages(budi.private_chat))


async def test_the_expert_is_offered_and_plays_a_whole_match_partnered(group: Group) -> None:
    """The lobby offers all four levels; an expert partners a person at pair and the match
    plays through, every expert move made in the thinker's pool."""
    async with group.bot(computer_pause=0) as runtime:
        table = await open_with_computers(group, humans=2, levels=[3, 1])
        offered = [str(version.reply_markup) for m in group.server.bot_messages(group.chat)
                   for version in m.versions if "🤖 + expert" in str(version.reply_markup)]
        assert offered and all(f"🤖 + {level}" in offered[0]  # (while a seat was free)
                               for level in ("easy", "normal", "hard", "expert"))
        game = group.game()
        assert [p.level for p in game.players] == [None, None, "expert", "normal"]
        assert game.players[2].name == "🤖 Euler"
        await table.play_until(group.match_over)
        thinker = runtime.timers.thinker
        assert (thinker.restarts, thinker.inline) == (0, 0)
    assert group.game().status is Status.FINISHED
    expert_moves = sum(1 for hand in group.game().match.hands  # type: ignore[union-attr]
                       for seat, _ in hand.moves if seat == 2)
    assert expert_moves > 0
