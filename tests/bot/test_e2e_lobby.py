"""The lobby and the informational commands, as a group uses them."""

from __future__ import annotations

import re
from pathlib import Path

from bot_kit import Group, lobby_button, plain

from bot.handlers.gametaps import NOT_THE_ASKER
from bot.i18n import translator
from bot.models import Status
from bot.service.settings import GroupSettings
from fakeapi.demo import demo
from fakeapi.players import Table


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


async def test_only_the_asker_picks_the_game(group: Group) -> None:
    """Ayu's bare /newgame asks which game: Budi's tap on it is refused with a toast in his
    own language (the table would be his); a picker from before it named its asker is out of
    date; Ayu's tap opens the table, hers to start."""
    ayu, budi = group.users[:2]
    budi.language_code = "ru"
    async with group.bot() as runtime:
        ayu.send(group.chat, "/newgame")
        picker = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat) if "Which game?" in (m.text or "")),
            None))
        taken = budi.press(picker, "Pair dominoes")
        await group.server.wait_for(lambda: taken.answered)
        assert taken.answer_text == translator("ru")(NOT_THE_ASKER)
        old = budi.press_raw(picker, "n:pair")
        await group.server.wait_for(lambda: old.answered)
        assert old.answer_text == translator("ru")("That button is out of date.")
        assert runtime.service.open_game_in(group.chat.id, None) is None
        assert group._lobby_or_none() is None and not picker.deleted
        picked = ayu.press(picker, "Pair dominoes")
        await group.server.wait_for(lambda: picked.answered)
        await group.server.wait_for(group._lobby_or_none)
        game = group.game()
        assert (game.game_name, game.creator_id, [p.user_id for p in game.players]) == (
            "pair", ayu.id, [ayu.id])
        assert picker.deleted


async def test_a_target_of_one_point_is_worded_in_the_singular(group: Group) -> None:
    async with group.bot():
        group.users[0].send(group.chat, "/newgame gaple target=1")
        lobby = await group.server.wait_for(group._lobby_or_none)
        assert "double-6 set · to 1 point ·" in lobby.content


async def test_options_on_the_command_line_show_on_the_lobby(group: Group) -> None:
    async with group.bot():
        group.users[0].send(group.chat, "/newgame gaple-dead deal=7 target=150")
        lobby = await group.server.wait_for(group._lobby_or_none)
        assert "7 tiles each" in (lobby.text or "") and "150" in (lobby.text or "")
        group.users[1].send(group.chat, "/newgame")  # a second table is refused, politely
        await group.server.wait_for(lambda: group.said("A table is already open here"))


async def test_the_lobby_shows_the_target_for_the_players_seated(group: Group) -> None:
    """Bergen is played to 15 by two and to 10 by three or four: the lobby says which, as
    players join, and the started table plays to what it said."""
    async with group.bot():
        await group.open_table("bergen", players=2)
        assert "to 15 points" in group.lobby().content
        user = group.users[2]
        user.send_private("/start")
        user.press(group.lobby(), lobby_button(group.lobby(), "j") or "")
        await group.server.wait_for(lambda: "to 10 points" in group.lobby().content)
        assert "to 15" not in group.lobby().content


async def test_options_for_another_table_size_open_a_lobby_and_are_checked_at_start(
        group: Group) -> None:
    """deal=5 is for five players: the lobby opens with it, and a start with four says it
    needs five; deal=7 is for four: a fifth is not seated, and four may start (QA: the lobby
    seated five, said it was ready, and Start refused the options)."""
    async with group.bot():
        await group.open_table("gaple-dead deal=5", players=4)
        lobby = group.lobby()
        start = group.users[0].press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: start.answered)
        assert start.answer_text == ("The game needs 5 players: friends press Join, or the "
                                     "🤖 buttons add computer players.")
        assert not group.said("not valid")
        cancel = group.users[0].press(lobby, lobby_button(lobby, "c") or "")
        await group.server.wait_for(lambda: cancel.answered)
    async with group.bot():
        await group.open_table("gaple-dead deal=7", players=4)
        lobby = group.lobby()
        assert "5" not in (lobby.text or "").split("\n")[0]  # (a table of four)
        fifth = group.users[4].press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: fifth.answered)
        assert fifth.answer_text == "This game is full."
        assert not [row for row in lobby.buttons for b in row if b.text.startswith("🤖 +")]
        start = group.users[0].press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: start.answered)
        assert start.answer_text == "Let's play!"


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
        # The rules allow any target; what a group types is held to a million all the same.
        said = len(group.texts())
        group.users[0].send(group.chat, "/newgame pair target=1000001")
        await group.server.wait_for(lambda: len(group.texts()) > said)
        assert group.texts()[-1] == "target is a whole number from 1 to 1000000."
        group.users[0].send(group.chat, "/newgame pair target=50 target=60")
        await group.server.wait_for(lambda: group.said("target is given twice: write it once."))
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
        assert early.answer_text == ("The game needs 4 players: friends press Join, or the 🤖 "
                                     "buttons add computer players.")
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
        help_text = next(t for t in group.texts() if "/newgame" in t)
        for command in ("/hand", "/leave", "/stop", "/scoreboard", "/stats", "/settings",
                        "/rules", "🤖", "deal=7", "/language", "photos"):
            assert command in help_text, command
        group.users[0].send_private("/rules")
        await group.server.wait_for(lambda: any(
            "Which game's rules?" in (m.text or "")
            for m in group.server.bot_messages(group.users[0].private_chat)))


async def test_a_bare_rules_offers_a_button_per_game(group: Group) -> None:
    ayu = group.users[0]
    async with group.bot():
        ayu.send(group.chat, "/rules")
        picker = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Which game's rules?" in (m.text or "")), None))
        assert picker.button_texts == ["Gaple", "Gaple with dead tiles", "Pair dominoes",
                                       "Kolbasa", "Matador", "Six-matador", "French",
                                       "Muggins", "Bergen"]
        record = ayu.press(picker, "Gaple with dead tiles")
        await group.server.wait_for(lambda: record.answered)
        rules = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if (m.text or "").startswith("Gaple with dead tiles (4 or 5 players)")), None))
        assert "Pair dominoes (4 players" not in (rules.text or "")  # one game, not a wall
        ayu.send(group.chat, "/rules nosuch")
        await group.server.wait_for(lambda: group.said(
            "There is no game called nosuch. The games: Gaple, Gaple with dead tiles "
            "(gaple-dead), Pair dominoes (pair), Kolbasa, Matador, Six-matador, French, "
            "Muggins, Bergen."))
        ayu.send(group.chat, "/rules Gaple with dead tiles")  # as the button shows it
        await group.server.wait_for(lambda: sum(
            (m.text or "").startswith("Gaple with dead tiles (4 or 5")
            for m in group.server.bot_messages(group.chat)) == 2)
        ayu.send(group.chat, "/rules DEAD")
        await group.server.wait_for(lambda: sum(
            (m.text or "").startswith("Gaple with dead tiles (4 or 5")
            for m in group.server.bot_messages(group.chat)) == 3)


async def test_start_in_private_offers_to_add_the_bot_to_a_group(group: Group) -> None:
    ayu = group.users[0]
    async with group.bot():
        ayu.send_private("/start")
        hello = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(ayu.private_chat)
             if "Add me to a group" in (m.text or "")), None))
        button = hello.buttons[0][0]
        assert button.url == f"https://t.me/{group.server.bot.username}?startgroup=new"


async def test_the_offline_demo_plays_a_whole_match(tmp_path: Path) -> None:
    transcript = await demo("gaple", 4, tmp_path, seed=3, theme="dark")
    assert "/newgame gaple" in transcript
    assert "The match is over" in transcript
    pictures = sorted(tmp_path.glob("group_*.png"))
    assert len(pictures) > 10
    assert pictures[0].read_bytes().startswith(b"\x89PNG")
    # The group's chat is saved beside the pictures, as printed, and the first player's too.
    assert (tmp_path / "group.txt").read_text(encoding="utf-8") == transcript + "\n"
    assert "Ayu" in (tmp_path / "private.txt").read_text(encoding="utf-8")


async def test_the_lobby_says_when_the_table_is_ready_and_calls_the_creator(group: Group) -> None:
    ayu = group.users[0]
    async with group.bot():
        await group.open_table("gaple-dead", players=3)
        lobby = group.lobby()
        assert "1 more player needed. The game takes 4 to 5 players." in (lobby.text or "")
        assert not group.said("the table is ready")
        group.users[3].send_private("/start")
        record = group.users[3].press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: "4 players: Ayu can start. 1 more can still join."
                                    in plain(lobby.text or ""))
        call = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "the table is ready" in (m.text or "")), None))
        assert ayu.id in call.mentioned_user_ids  # a new message, so Telegram notifies Ayu
        assert "needs" not in (lobby.text or "")


async def test_a_second_newgame_with_a_lobby_open_points_to_the_lobby(group: Group) -> None:
    async with group.bot():
        await group.open_table("pair", players=2)
        lobby = group.lobby()
        group.users[2].send(group.chat, "/newgame gaple")
        answer = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "already open here" in (m.text or "")), None))
        assert answer.reply_to is lobby
        assert not group.said("A game is already running")


async def test_play_again_opens_the_same_table_with_the_seats_turned(group: Group) -> None:
    ayu, budi, sergei, thora = group.users[:4]
    async with group.bot():
        for user in group.users[:4]:
            user.send_private("/start")
        ayu.send(group.chat, "/newgame gaple target=1")  # one hand decides the match
        lobby = await group.server.wait_for(group._lobby_or_none)
        for user in (budi, sergei, thora):
            record = user.press(lobby, lobby_button(lobby, "j") or "")
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        start = ayu.press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: start.answered)
        first = group.game()
        await Table(group.server, group.users[:4]).play_until(group.match_over)
        result = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if m.content.startswith("The match is over")), None))
        again = budi.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: again.answered)
        rematch = group.service.open_game_in(group.chat.id)
        assert rematch is not None and rematch.game_id != first.game_id
        assert [p.name for p in rematch.players] == ["Budi", "Sergei", "Þóra", "Ayu"]
        assert rematch.options == first.options and rematch.creator_id == budi.id
        lobby = await group.server.wait_for(lambda: next(
            (m for m in reversed(group.server.bot_messages(group.chat))
             if "press Join to keep your seat" in (m.text or "")), None))
        early = budi.press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: early.answered)
        assert "to confirm with Join" in (early.answer_text or "")
        sergei.send(group.chat, "/newgame gaple")  # seated, yet to confirm: Join is theirs
        await group.server.wait_for(
            lambda: group.said("A table is already open here: press Join on it"))
        assert not group.said("You already have a seat at this table")
        for user in (sergei, thora, ayu):
            record = user.press(lobby, lobby_button(lobby, "j") or "")
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        await group.server.wait_for(lambda: "Budi can start" in plain(lobby.text or ""))
        twice = budi.press(result, "🔁 Play again")  # one table at a time
        await group.server.wait_for(lambda: twice.answered)
        assert twice.answer_text == "You are already in this game."
        assert len(group.service.open_games()) == 1
        start = budi.press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: start.answered)
        assert start.answer_text == "Let's play!"
        assert group.game().status is Status.PLAYING


async def test_pair_players_choose_their_partners_in_the_lobby(group: Group) -> None:
    ayu, budi = group.users[:2]
    async with group.bot():
        await group.open_table("pair", players=4)
        lobby = group.lobby()
        assert "Pairs: Ayu & Sergei · Budi & Þóra." in plain(lobby.text or "")
        refused = budi.press(lobby, "🔀 Other pairs")  # the creator decides
        await group.server.wait_for(lambda: refused.answered)
        assert "created" in (refused.answer_text or "")
        def pairs() -> str:
            return re.search(r"Pairs: (.+)\.", plain(lobby.text or "")).group(1)  # type: ignore[union-attr]

        seen = [pairs()]
        for _ in range(3):
            record = ayu.press(lobby, "🔀 Other pairs")
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
            await group.server.wait_for(lambda: pairs() != seen[-1])
            seen.append(pairs())
        seen = seen[1:]
        assert seen == ["Ayu & Þóra · Sergei & Budi", "Ayu & Budi · Þóra & Sergei",
                        "Ayu & Sergei · Budi & Þóra"]  # every pairing, then back
        record = ayu.press(lobby, "🔀 Other pairs")
        await group.server.wait_for(lambda: record.answered)
        start = ayu.press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: start.answered)
        game = group.game()
    assert [p.name for p in game.players] == ["Ayu", "Sergei", "Þóra", "Budi"]
    assert game.match is not None and game.match.sides == ((0, 2), (1, 3))


async def test_stop_on_a_lobby_points_at_its_cancel(group: Group) -> None:
    """Nothing has started, so nothing is stopped: the answer replies to the lobby and says
    how to close it, not "Nobody will win it"; to one who may not close it (neither its
    creator nor an admin), that only its creator can (not to press a Cancel that refuses)."""
    async with group.bot():
        await group.open_table("pair", players=2)
        lobby = group.lobby()
        group.send(group.users[0], "/stop")
        answer = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "has not started" in (m.text or "")), None))
        assert answer.text == ("The game has not started yet. To close the table, press "
                               "Cancel in the lobby.")
        assert answer.reply_to is lobby and not answer.buttons
        group.send(group.users[1], "/stop")
        refusal = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Only the player who created" in (m.text or "")), None))
        assert refusal.text == "Only the player who created the game can cancel it."
        assert refusal.reply_to is lobby and not refusal.buttons
        assert not group.said("Nobody will win it")
        assert group.game().status is Status.LOBBY


async def test_a_creator_without_a_private_chat_is_told_to_open_it_not_to_press_start(
        group: Group) -> None:
    """Ayu never opened the private chat: a full table says whom it waits for, marks the
    seat and calls Ayu to open the chat; once she has, the creator is called to start."""
    ayu = group.users[0]
    async with group.bot():
        group.send(ayu, "/newgame bergen")
        lobby = await group.server.wait_for(group._lobby_or_none)
        seated = ayu.press(lobby, "🤖 + normal")
        await group.server.wait_for(lambda: seated.answered)
        await group.server.wait_for(lambda: "2 players" in lobby.content)
        assert "1. Ayu 📵" in plain(lobby.content)
        assert "2 players: waiting for Ayu to open a private chat with me." in plain(lobby.content)
        assert ("📵 I cannot send Ayu their tiles yet: tap “💬 Open my private chat” below, "
                "then Start in our chat.") in plain(lobby.content)
        assert "can start" not in lobby.content
        call = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "I cannot send you your tiles yet" in (m.text or "")), None))
        assert ayu.id in call.mentioned_user_ids
        assert not group.said("the table is ready: press Start")
        early = ayu.press(lobby, lobby_button(lobby, "s") or "")  # she is told, as herself
        await group.server.wait_for(lambda: early.answered)
        assert early.answer_text == ("Open our private chat first (the 💬 button in the lobby), "
                                     "then press Start.")
        ayu.open_url(lobby.button("💬 Open my private chat").url or "")
        await group.server.wait_for(lambda: "Ayu can start" in plain(lobby.content))
        assert "📵" not in lobby.content
        await group.server.wait_for(lambda: group.said("✅ Ayu, the table is ready"))
        start = ayu.press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: start.answered)
        assert start.answer_text == "Let's play!"


async def test_a_seated_player_who_blocks_the_bot_is_marked_in_the_lobby(group: Group) -> None:
    budi = group.users[1]
    async with group.bot():
        await group.open_table("pair", players=4)
        lobby = group.lobby()
        assert "Ayu can start" in plain(lobby.content)
        budi.block_bot()
        await group.server.wait_for(lambda: "Budi 📵" in plain(lobby.content))
        assert "4 players: waiting for Budi to open a private chat with me." in plain(lobby.content)
        call = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "I cannot send you your tiles yet" in (m.text or "")), None))
        assert budi.id in call.mentioned_user_ids
        budi.unblock_bot()
        budi.send_private("/start")
        await group.server.wait_for(lambda: "Ayu can start" in plain(lobby.content))
        assert "📵" not in lobby.content


async def test_the_rules_say_the_target_of_every_table_size(group: Group) -> None:
    """Bergen is played to 15 by two and to 10 by three or four (the variant's facts)."""
    async with group.bot():
        group.send(group.users[0], "/rules bergen")
        group.send(group.users[0], "/rules muggins")
        await group.server.wait_for(lambda: group.said("Bergen (") and group.said("Muggins"))
    rules = next(text for text in group.texts() if text.startswith("Bergen ("))
    assert rules.endswith("First to 15 points wins. With 3 or 4 players, the target is 10 "
                          "points. If the lead is shared when the target is reached, the "
                          "match goes on until one player is ahead alone.")
    one_target = next(text for text in group.texts() if text.startswith("Muggins"))
    assert "players, the target is" not in one_target


async def test_the_rules_in_a_group_say_what_its_house_rules_change(group: Group) -> None:
    """Player QA: /rules bergen said "first to 15" in a group whose admin set Bergen's target
    to 21 (the next lobby said 21). In a group the rules end with what it plays differently,
    by /rules and by the picker's button alike; in private, the game's own rules alone."""
    ayu = group.users[0]
    async with group.bot() as rt:
        house = GroupSettings().with_option("bergen", "target", 21)
        await rt.service.save_group_settings(group.chat.id, house)
        ayu.send(group.chat, "/rules bergen")
        said = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if (m.text or "").startswith("Bergen (")), None))
        assert plain(said.content).endswith("\n\nIn this group: Target: 21.")
        ayu.send(group.chat, "/rules")
        picker = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Which game's rules?" in (m.text or "")), None))
        record = ayu.press(picker, "Bergen")
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: sum(
            plain(m.content).endswith("In this group: Target: 21.")
            for m in group.server.bot_messages(group.chat)) == 2)
        ayu.send(group.chat, "/rules muggins")  # a game the group left as it is
        muggins = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if (m.text or "").startswith("Muggins")), None))
        assert "In this group" not in (muggins.text or "")
        ayu.send_private("/rules bergen")
        private = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(ayu.private_chat)
             if (m.text or "").startswith("Bergen (")), None))
        assert "In this group" not in (private.text or "")


async def test_the_rules_where_a_table_is_open_say_its_own_options(group: Group) -> None:
    """Player QA: a bare /rules in a topic playing Muggins to 2,000 asked which game, and
    Muggins' rules then said 200. Where a table is open, a bare /rules, /rules of its game
    and the picker's button of its game say the rules with the table's options; another
    game's rules stay the group's."""
    ayu = group.users[0]
    async with group.bot():
        await group.start("muggins target=2000", 3)
        ayu.send(group.chat, "/rules")
        table_line = "\n\nAt this table: double-6 set · to 2000 points"
        said = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if (m.text or "").startswith("Muggins, all fives")), None))
        assert table_line in plain(said.content)
        assert "First to 2000 points wins." in plain(said.content)  # (not the game's 200)
        assert "Bergen" in said.button_texts  # the other games' rules a tap away
        record = ayu.press(said, "Muggins")
        await group.server.wait_for(lambda: record.answered)
        ayu.send(group.chat, "/rules muggins")
        await group.server.wait_for(lambda: sum(
            table_line in plain(m.content) for m in group.server.bot_messages(group.chat)) == 3)
        ayu.send(group.chat, "/rules bergen")
        bergen = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if (m.text or "").startswith("Bergen (")), None))
        assert "At this table" not in (bergen.text or "")


async def test_a_guest_told_a_game_is_running_hears_how_to_learn_of_the_next_table(
        group: Group) -> None:
    """Player QA: a late guest's /newgame met "a game is already running" and nothing said
    what to do. One not playing hears /notify's offer, or, having sent it, that the next
    table will be told them; a player at the table hears the bare words."""
    guest = group.users[4]
    async with group.bot():
        await group.start("pair")
        guest.send(group.chat, "/newgame gaple")
        await group.server.wait_for(lambda: group.said(
            "A game is already running in this chat. Send /notify here, and I will tell you "
            "in private when the next table opens."))
        guest.send_private("/start")
        guest.send(group.chat, "/notify")
        await group.server.wait_for(lambda: group.said("I will message you in private"))
        guest.send(group.chat, "/newgame gaple")
        await group.server.wait_for(lambda: group.said(
            "A game is already running in this chat. I will tell you in private when the "
            "next table opens here (you asked with /notify)."))
        group.users[1].send(group.chat, "/newgame gaple")
        await group.server.wait_for(lambda: group.texts().count(
            "A game is already running in this chat.") == 1)


async def test_a_call_to_start_held_back_by_the_groups_budget_is_never_sent_once_started(
    group: Group,
) -> None:
    """The group's budget (2 calls in 4 s) is spent on the lobby and its first edit, so
    "the table is ready: press Start" waits; its creator presses Start meanwhile (a tap's
    answer is not the group's budget): the call is dropped (unsent from the outbox, or
    withdrawn when its turn to go comes), not sent after the start."""
    async with group.bot(group_messages_per_minute=2, group_rate_period=4.0) as rt:
        for user in group.users[:4]:
            user.send_private("/start")
        group.send(group.users[0], "/newgame pair")
        lobby = await group.server.wait_for(lambda: group._lobby_or_none())
        for user in group.users[1:4]:
            record = user.press(lobby, lobby_button(lobby, "j") or "")
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        game = group.game()
        waiting = [i.text for i in await rt.storage.pending_outbox(game.game_id)]
        assert any("the table is ready" in text for text in waiting), waiting  # held back
        record = group.users[0].press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: record.answered)
        assert game.status is Status.PLAYING, record.answer_text
        await group.server.wait_for(lambda: game.messages.table_message is not None,
                                    timeout=20, message="the table was not posted")
        await rt.publisher.idle()
    assert not group.said("the table is ready"), group.texts()


async def test_a_lobby_of_a_game_for_four_says_how_many_play_it(group: Group) -> None:
    """QA: Gaple's lobby said "3 more players needed." alone, where every game played by 2
    to 4 said how many play it."""
    async with group.bot():
        await group.open_table("gaple", players=1)
        lobby = group.lobby()
        assert "3 more players needed. The game takes 4 players." in (lobby.text or "")


async def test_one_turned_away_from_a_table_full_with_computers_hears_room_can_be_made(
        group: Group) -> None:
    """Icelandic QA: a late friend tapping Join at a table filled with a computer read only
    "This game is full.", though its creator could take the computer off for them."""
    ayu, dewi = group.users[0], group.users[4]
    async with group.bot():
        await group.open_table("bergen", players=1)  # (of two to four)
        lobby = group.lobby()
        for _ in range(3):
            seated = ayu.press(lobby, "🤖 + normal")
            await group.server.wait_for(lambda s=seated: s.answered)  # type: ignore[misc]
        await group.server.wait_for(lambda: "Players (4)" in lobby.content)
        late = dewi.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: late.answered)
        assert late.answer_text == ("This game is full: its creator can remove a computer "
                                    "player to make room for you.")
