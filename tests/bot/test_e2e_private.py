"""The private chat: a player can follow and play a whole match from it."""

from __future__ import annotations

import re
import time
from dataclasses import replace

from bot_kit import Group, plain

from bot.models import Status
from bot.presentation.keyboards import hand_order
from bot.presentation.pictures import labels_for
from engine import Tile, player_view
from fakeapi import StoredMessage
from fakeapi.players import Table, active_hand, live_buttons
from renderers import render_hand


def current_hand(group: Group, seat: int) -> StoredMessage:
    messages = [m for m in group.server.bot_messages(group.users[seat].private_chat)
                if not m.deleted and m.photo]
    return messages[-1]


async def test_the_turn_message_tells_what_happened_and_where_the_table_is(group: Group) -> None:
    async with group.bot():
        table = await group.start("pair")
        for _ in range(5):
            await table.play_one()
        user, message = await group.server.wait_for(table.whose_turn)
        caption = plain(message.caption or "")
        seat = group.users.index(user)
        partner = group.users[(seat + 2) % 4].first_name
        assert "Since your last turn:" in caption
        assert len(re.findall(r"^• .+\.$", caption, re.M)) >= 3  # the other three moved
        assert re.search(r"Tiles in hand: Ayu \d · Budi \d · Sergei \d · Þóra \d\.", caption)
        assert "Score: Ayu & Sergei 0 · Budi & Þóra 0 (to 100)" in caption
        assert f"Your partner: {partner}." in caption
        assert "⏳ 90 s to move, then I move for you." in caption
        assert "The table is in the group Domino evening." in caption
        # The others' waiting messages say nothing that the next move would make stale.
        for other in range(4):
            if other != seat:
                waiting = current_hand(group, other).caption or ""
                assert "Not your turn yet: I will write when it is." in waiting
                assert "Tiles in hand" not in waiting and "Your turn" not in waiting
        # A tap out of turn says whose turn it is.
        other = (seat + 1) % 4
        tile = next(b for row in current_hand(group, other).buttons for b in row
                    if b.callback_data)
        record = group.users[other].press(current_hand(group, other), tile.text)
        await group.server.wait_for(lambda: record.answered)
        assert plain(record.answer_text or "") == (
            f"It is {user.first_name}'s turn; I will write when it is yours.")


async def test_choosing_an_end_says_which_tile_and_back_restores_the_tiles(group: Group) -> None:
    async with group.bot():
        table = await group.start("pair")
        await table.play_one()
        while True:  # a turn with a tile that fits both ends (a deliberate position)
            user, message = await group.server.wait_for(table.whose_turn)
            ask = next((b for row in message.buttons for b in row
                        if (b.callback_data or "").startswith("e:")), None)
            if ask is not None:
                break
            await table.play_one()
        tile = ask.text.removeprefix("✅ ")
        turn_picture = message.photo_bytes
        record = user.press(message, ask.text)
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text is None
        # The tap is answered before the question's edit: the question shows when it comes.
        await group.server.wait_for(lambda: "↩ Back" in message.button_texts)
        assert f"Where does {tile} go? Tap an end." in (message.caption or "")
        # The picture shows which tile goes: it alone is raised (tester: every playable
        # tile stayed raised), in the same message.
        game = group.game()
        seat, low, high = group.users.index(user), *map(int, tile.split("-"))
        view = player_view(game.match, seat)  # type: ignore[arg-type]
        ordered = replace(view, hand=hand_order(view.hand))
        assert message.photo_bytes == render_hand(ordered, labels=labels_for("en"),
                                                  chosen=Tile(low, high)) != turn_picture
        back = user.press(message, "↩ Back")
        await group.server.wait_for(lambda: back.answered)
        await group.server.wait_for(lambda: "↩ Back" not in message.button_texts)
        assert "Your turn: tap a marked tile to lay it." in (message.caption or "")
        assert ask.text in message.button_texts
        assert message.photo_bytes == turn_picture  # every playable tile raised again


async def test_a_dead_tile_is_confirmed_once_and_can_be_taken_back(group: Group) -> None:
    async with group.bot():
        table = await group.start("gaple-dead")
        while True:  # play until somebody must put a tile face down
            user, message = await group.server.wait_for(table.whose_turn)
            if any(label.startswith("⬛") for label in live_buttons(message)):
                break
            await table.play_one()
        game = group.game()
        before = game.move_no
        label = next(label for label in live_buttons(message) if label.startswith("⬛"))
        tile = label.removeprefix("⬛ ")
        record = user.press(message, label)
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: "↩ Back" in message.button_texts)  # the question
        assert game.move_no == before  # one tap puts nothing down
        assert f"Put {tile} face down? It counts against you." in (message.caption or "")
        back = user.press(message, "↩ Back")
        await group.server.wait_for(lambda: back.answered)
        await group.server.wait_for(lambda: "↩ Back" not in message.button_texts)
        assert game.move_no == before and label in message.button_texts
        user.press(message, label)
        confirm = await group.server.wait_for(lambda: next(
            (b.text for row in message.buttons for b in row if "Yes, put" in b.text), None))
        done = user.press(message, confirm)
        await group.server.wait_for(lambda: done.answered)
        await group.server.wait_for(lambda: game.move_no > before)


async def test_the_player_hears_what_the_bot_did_for_them_and_how_it_ended(group: Group) -> None:
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await table.play_one()
        game = group.game()
        seat = game.match.to_move  # type: ignore[union-attr]
        assert seat is not None
        async with runtime.locks.game(game.game_id):  # their time runs out, now
            game.deadline = time.time()
            await runtime.service.expire(game, game.move_no)
        await group.server.wait_for(lambda: "⏰ Your time ran out: I laid"
                                    in (current_hand(group, seat).caption or ""))
        others = Table(group.server, [u for i, u in enumerate(group.users[:4]) if i != seat])
        await others.play_one()
        # Stopping the game tells every player, and leaves no live keyboard behind.
        group.users[0].send(group.chat, "/stop")
        ask = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Yes, stop the game" in str(m.button_texts)), None))
        group.users[0].press(ask, "Yes, stop the game")
        await group.server.wait_for(lambda: game.status is Status.STOPPED)
        await runtime.publisher.idle()
    for user in group.users[:4]:
        last = [m for m in group.server.bot_messages(user.private_chat) if m.photo][-1]
        assert "The game was stopped: nobody wins it." in (last.caption or "")
        assert active_hand(group.server, user) is None


async def test_a_replaced_player_is_told_who_plays_their_seat(group: Group) -> None:
    async with group.bot(computer_pause=0.05):
        table = await group.start("gaple")
        await table.play_one()
        sergei = group.users[2]
        sergei.send(group.chat, "/leave")
        ask = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat) if "Yes, leave" in
             str(m.button_texts)), None))
        record = sergei.press(ask, "Yes, leave")
        await group.server.wait_for(lambda: record.answered)
        farewell = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(sergei.private_chat)
             if "plays your seat now" in m.content), None))
        assert not farewell.buttons
        assert farewell.content.count("🤖") == 1, farewell.content  # one robot, not two
        assert active_hand(group.server, sergei) is None


async def test_history_keeps_who_made_each_move_after_a_seat_changes_hands(group: Group) -> None:
    async with group.bot(computer_pause=30):  # the computer waits: the caption is read first
        table = await group.start("gaple")
        game = group.game()
        while not (game.match.hand.moves and game.match.hand.moves[-1].seat == 2  # type: ignore[union-attr]
                   and game.match.to_move == 3):  # type: ignore[union-attr]
            await table.play_one()
        sergei = group.users[2]
        sergei.send(group.chat, "/leave")
        ask = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat) if "Yes, leave" in
             str(m.button_texts)), None))
        record = sergei.press(ask, "Yes, leave")
        await group.server.wait_for(lambda: game.players[2].is_computer)
        newcomer = game.players[2].name
        table_message = group.server.message(group.chat, game.messages.table_message)  # type: ignore[arg-type]
        moves_before = len(game.match.hand.moves)  # type: ignore[union-attr]
        await Table(group.server, [group.users[3]]).play_one()  # Þóra moves: a new caption
        assert len(game.match.hand.moves) > moves_before  # type: ignore[union-attr]
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        caption = plain(table_message.caption or "")  # type: ignore[union-attr]
        assert record.answered
    assert re.search(r"^Sergei (laid|led|knocked)", caption, re.M), caption
    moves = [line for line in caption.splitlines() if re.match(r"^\S.* (laid|led|knocked)", line)]
    assert not any(line.startswith(newcomer) for line in moves), caption  # none of them theirs
