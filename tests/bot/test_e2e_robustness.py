"""The bot under real use: deep links, restarts, double taps, forged buttons, onlookers,
blocked players, migrated groups, stopping, and Telegram's flood limits."""

from __future__ import annotations

from bot_kit import Group, counting_seeds, die_after_commit, plain

from bot.models import Status
from bot.presentation.tilebuttons import Lay, TileIntent, TileTap
from bot.service.settings import GroupSettings
from engine import Tile, match_to_dict
from fakeapi import FakeTelegramServer
from fakeapi.players import active_hand


async def test_joining_through_the_deep_link(group: Group) -> None:
    ayu, budi = group.users[:2]
    async with group.bot():
        ayu.send_private("/start")
        ayu.send(group.chat, "/newgame gaple")
        lobby = await group.server.wait_for(group._lobby_or_none)
        record = budi.press(lobby, "✋ Join")  # Budi never opened the private chat
        await group.server.wait_for(lambda: record.answered)
        assert record.url == f"https://t.me/{group.server.bot.username}?start=join{group.game().game_id}"
        assert budi.id not in lobby.mentioned_user_ids
        budi.open_url(record.url)
        await group.server.wait_for(lambda: budi.id in lobby.mentioned_user_ids)
        reply = group.server.last_bot_message(budi.private_chat)
        assert reply is not None and "seat" in (reply.text or "")


async def play_pair_match(group: Group, restart_after: int | None) -> dict[str, object]:
    """A whole match with fixed seeds and choices; optionally the bot dies mid-hand."""
    async with group.bot() as runtime:
        table = await group.start("pair")
        for _ in range(restart_after or 0):
            await table.play_one()
        if restart_after is not None:
            # The bot dies right after committing a move, before telling anybody about it.
            user, message = await group.server.wait_for(table.whose_turn)
            die_after_commit(runtime)
            before = group.game().move_no
            label = next(b.text for row in message.buttons for b in row if b.text.startswith("✅"))
            record = user.press(message, label)
            await group.server.wait_for(lambda: record.answered)
            if any(b.text.startswith("◀") for row in message.buttons for b in row):
                record = user.press(message, next(b.text for row in message.buttons for b in row
                                                  if b.text.startswith("◀")))
                await group.server.wait_for(lambda: record.answered)
            # A move's tap is answered before the move is committed: wait for the commit.
            await group.server.wait_for(lambda: group.game().move_no != before)
            committed = group.game().move_no
    if restart_after is not None:
        async with group.bot():
            assert group.game().move_no == committed  # nothing lost, nothing applied twice
            await group.server.wait_for(lambda: table.whose_turn() is not None)
            await table.play_until(group.match_over)
    else:
        async with group.bot():
            await table.play_until(group.match_over)
    game = group.game()
    assert game.match is not None and game.status is Status.FINISHED
    return match_to_dict(game.match)


async def test_a_restart_mid_hand_ends_the_same_as_no_restart(tmp_path: object) -> None:
    results = []
    for restart_after in (None, 9):
        async with FakeTelegramServer() as server:
            users = [server.add_user(n, language_code="en") for n in ("A", "B", "C", "D")]
            chat = server.add_group("G", members=users, admins=users[:1])
            group = Group(server, chat, users, tmp_path / f"r{restart_after}.db",  # type: ignore[operator]
                          counting_seeds(4242))
            results.append(await play_pair_match(group, restart_after))
            server.assert_no_violations()
    assert results[0]["hands"] == results[1]["hands"]


async def test_after_a_crash_the_table_and_the_hand_are_brought_up_to_date(group: Group) -> None:
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await table.play_one()

        user, message = await group.server.wait_for(table.whose_turn)
        die_after_commit(runtime)
        before = group.game().move_no
        record = user.press(message, next(b.text for row in message.buttons for b in row
                                          if b.text.startswith("✅")))
        await group.server.wait_for(lambda: record.answered)
        # A move's tap is answered before the move is committed: wait for the commit.
        await group.server.wait_for(lambda: group.game().move_no != before)
        game = group.game()
        last = game.match.hand.moves[-1] if game.match else None
    assert last is not None
    table_message = group.server.message(group.chat, game.messages.table_message)  # type: ignore[arg-type]
    assert str(last.action.tile) not in (table_message.caption or "")  # type: ignore[union-attr]
    async with group.bot():
        await group.server.wait_for(
            lambda: str(last.action.tile) in (table_message.caption or ""),  # type: ignore[union-attr]
            message="the table was not brought up to date after the restart",
        )
        await group.server.wait_for(table.whose_turn)


async def test_a_double_tap_plays_once(group: Group) -> None:
    async with group.bot():
        table = await group.start("pair")
        await table.play_one()
        while True:  # a turn with a tile that one tap lays (not one that asks for the end)
            user, message = await group.server.wait_for(table.whose_turn)
            data = next((b.callback_data for row in message.buttons for b in row
                         if (b.callback_data or "").startswith("p:")), None)
            if data is not None:
                break
            await table.play_one()
        game = group.game()
        moves_before = sum(len(h.moves) for h in game.match.hands)  # type: ignore[union-attr]
        first, second = user.press_raw(message, data), user.press_raw(message, data)
        await group.server.wait_for(lambda: first.answered and second.answered)
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        moves_after = sum(len(h.moves) for h in game.match.hands)  # type: ignore[union-attr]
    played = [m for m in game.match.hand.moves[moves_before:]]  # type: ignore[union-attr]
    assert len([m for m in played if m.seat == group.users.index(user)]) == 1
    assert moves_after > moves_before
    # the second tap says nothing (player QA: "It is X's turn" read as the tap not counting)
    assert not first.answer_text and not second.answer_text, second.answer_text


async def test_stale_forged_and_foreign_buttons_change_nothing(group: Group) -> None:
    dewi = group.users[4]
    async with group.bot():
        table = await group.start("gaple-dead")
        await table.play_one()
        user, message = await group.server.wait_for(table.whose_turn)
        game = group.game()
        before = game.move_no
        seat = group.users.index(user)
        tile = game.match.hand.hands[seat][0]  # type: ignore[union-attr]
        attempts = {
            "garbled": user.press_raw(message, "garbage"),
            "long": user.press_raw(message, "p:" + "9" * 60),
            "stale": user.press_raw(message, Lay(game.game_id, before - 1, tile,
                                                         None).encode()),
            "other game": user.press_raw(message, Lay(game.game_id + 7, before, tile,
                                                      None).encode()),
            "not held": user.press_raw(message, TileTap(
                game.game_id, before,
                next(t for t in (Tile(a, b) for a in range(7) for b in range(a, 7))
                     if t not in game.match.hand.hands[seat]),
                TileIntent.DISCARD).encode()),  # type: ignore[union-attr]
        }
        table_message = next(m for m in group.server.bot_messages(group.chat)
                             if any(b.text == "👀 My tiles" for row in m.buttons for b in row))
        attempts["onlooker tiles"] = dewi.press(table_message, "👀 My tiles")
        attempts["onlooker move"] = dewi.press_raw(
            table_message, Lay(game.game_id, before, tile, None).encode())
        await group.server.wait_for(lambda: all(r.answered for r in attempts.values()))
        assert game.move_no == before
        toasts = {name: r.answer_text for name, r in attempts.items()}
        assert toasts["garbled"] == toasts["long"] == toasts["stale"] == toasts["other game"] \
            == "That button is out of date."
        assert toasts["not held"] in ("You don't hold that tile.", "You must play when you can.")
        assert toasts["onlooker tiles"] == toasts["onlooker move"] \
            == "You are not playing in this game."
        assert active_hand(group.server, user) is message  # still the same turn


async def test_a_player_who_blocked_the_bot_can_come_back(group: Group) -> None:
    async with group.bot():
        table = await group.start("gaple")
        user, _ = await group.server.wait_for(table.whose_turn)
        seat = group.users.index(user)
        nxt = group.users[(seat + 1) % 4]
        nxt.block_bot()
        await table.play_one()
        await group.server.wait_for(lambda: group.said("I cannot send " + nxt.first_name))
        # The turn timer runs (90 s by default): the group is told the bot plays for them.
        assert group.said("when their time runs out, I play for them")
        assert not group.said("The game waits")
        [notice] = [m for m in group.server.bot_messages(group.chat)
                    if m.content.startswith("I cannot send")]
        nxt.unblock_bot()
        back = nxt.send_private("/start")
        await group.server.wait_for(lambda: active_hand(group.server, nxt) is not None,
                                    message="the hand was not sent again")
        # The group's notice goes once it is no longer true (player QA: it stayed).
        await group.server.wait_for(lambda: notice.deleted, message="the notice stayed")
        await table.play_one()
        assert group.game().messages.unreachable_notes == {}
        # Back mid-game, their tiles answer the /start, not a newcomer's greeting (player QA)
        assert not [m for m in group.server.bot_messages(nxt.private_chat)
                    if m.content.startswith("Hello!") and m.message_id > back.message_id]


async def test_a_seated_players_start_sends_their_tiles_again(group: Group) -> None:
    """A /start from someone at a running table (their chat cleared, say): their tiles."""
    async with group.bot():
        table = await group.start("gaple")
        user, hand = await group.server.wait_for(table.whose_turn)
        again = user.send_private("/start")
        await group.server.wait_for(lambda: hand.deleted and active_hand(
            group.server, user) is not None, message="the tiles were not sent again")
        await group.server.wait_idle()
    assert not [m for m in group.server.bot_messages(user.private_chat)
                if m.content.startswith("Hello!") and m.message_id > again.message_id]


async def test_without_a_turn_timer_the_game_waits_for_a_player_who_blocked_the_bot(
        group: Group) -> None:
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings().with_general("turn_seconds", 0).to_json())
        table = await group.start("gaple")
        user, _ = await group.server.wait_for(table.whose_turn)
        nxt = group.users[(group.users.index(user) + 1) % 4]
        nxt.block_bot()
        await table.play_one()
        await group.server.wait_for(lambda: group.said("I cannot send " + nxt.first_name))
        assert group.said("The game waits") and not group.said("I play for them")


async def test_a_group_that_became_a_supergroup_keeps_its_game(group: Group) -> None:
    async with group.bot():
        table = await group.start("pair")
        for _ in range(3):
            await table.play_one()
        old = group.chat
        group.chat = group.server.migrate_group(old)
        await group.server.wait_for(lambda: group.service.open_game_in(group.chat.id) is not None)
        await table.play_one()
        await group.server.wait_for(lambda: any(m.photo for m in
                                                group.server.bot_messages(group.chat)))
        await table.play_until(group.match_over)
    assert group.game().chat_id == group.chat.id


async def test_stop_needs_the_creator_or_an_admin_and_a_confirmation(group: Group) -> None:
    ayu, budi = group.users[:2]
    async with group.bot():
        await group.start("gaple")
        budi.send(group.chat, "/stop")
        await group.server.wait_for(lambda: group.said("Only the game's creator"))
        ayu.send(group.chat, "/stop")
        ask = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat) if m.button_texts
             and "Yes, stop the game" in str(m.button_texts)), None))
        refused = budi.press(ask, "Yes, stop the game")
        await group.server.wait_for(lambda: refused.answered)
        assert group.game().status is Status.PLAYING
        done = ayu.press(ask, "Yes, stop the game")
        await group.server.wait_for(lambda: done.answered)
        await group.server.wait_for(lambda: group.said("stopped the game"))
        assert group.game().status is Status.STOPPED
        ayu.send(group.chat, "/newgame pair")  # the group is free again
        await group.server.wait_for(lambda: group.said("Pair dominoes</b>") or group.said(
            "Pair dominoes: a new table"))


async def test_a_second_newgame_points_to_the_running_one(group: Group) -> None:
    async with group.bot():
        await group.start("pair")
        group.users[2].send(group.chat, "/newgame gaple")
        await group.server.wait_for(lambda: group.said("A game is already running"))


async def test_newgame_in_a_lobby_one_sits_at_says_so_rather_than_to_join(group: Group) -> None:
    async with group.bot():
        await group.open_table("pair", 2)
        group.send(group.users[1], "/newgame pair")  # seated: the creator starts it
        await group.server.wait_for(
            lambda: group.said("You already have a seat at this table: its creator starts"))
        group.send(group.users[0], "/newgame pair")  # the creator: Start is theirs
        await group.server.wait_for(
            lambda: group.said("You opened this table: press Start on it when everyone is in."))
        # ... and another game does not open while theirs waits (player QA: "press Start"
        # alone read as if it had)
        group.send(group.users[0], "/newgame gaple")
        await group.server.wait_for(lambda: group.said(
            "Your Pair dominoes table is still open: press Start on it, or Cancel it to open "
            "Gaple instead."))
        group.send(group.users[2], "/newgame gaple")  # not seated: Join it
        await group.server.wait_for(lambda: group.said("A table is already open here: press Join"))
        replies = [m for m in group.server.bot_messages(group.chat)
                   if (m.text or "").startswith(("You already", "You opened", "A table is",
                                                 "Your Pair"))]
        lobby = group.lobby()
        assert len(replies) == 4 and all(m.reply_to is lobby for m in replies)


async def test_a_flood_wait_is_waited_out(group: Group) -> None:
    async with group.bot():
        table = await group.start("pair")
        await table.play_one()
        table_id = group.game().messages.table_message
        group.server.fail_next("editMessageMedia", retry_after=1, chat=group.chat)
        await table.play_one()
        await table.play_one()
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        game = group.game()
        message = group.server.message(group.chat, table_id)  # type: ignore[arg-type]
        edits = group.server.requests_for("editMessageMedia", group.chat)
    assert [r.status for r in edits].count(429) == 1
    assert edits[-1].status == 200
    assert game.messages.table_key is not None
    name = group.users[game.match.to_move].first_name  # type: ignore[union-attr, index]
    assert f"Your turn, {name}" in plain(message.caption or "")  # type: ignore[union-attr]


async def test_fast_moves_coalesce_into_the_latest_picture(group: Group) -> None:
    """With the group's budget spent, the table skips stale pictures and shows the latest."""
    async with group.bot(group_messages_per_minute=2, group_rate_period=1.0):
        table = await group.start("pair")
        edits_before = len(group.server.requests_for("editMessageMedia", group.chat))
        moves = 0
        for _ in range(10):
            if await table.play_one(done=group.match_over) is not None:
                moves += 1
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        game = group.game()
        message = group.server.message(group.chat, game.messages.table_message)  # type: ignore[arg-type]
        edits = group.server.requests_for("editMessageMedia", group.chat)[edits_before:]
    assert len(edits) < moves, (len(edits), moves)
    assert all(r.status == 200 for r in edits)
    if game.match is not None and game.match.hand.number == 0 and game.match.to_move is not None:
        name = group.users[game.match.to_move].first_name
        assert f"Your turn, {name}" in plain(message.caption or "")  # type: ignore[union-attr]
