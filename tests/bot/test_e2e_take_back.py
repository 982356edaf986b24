"""A player away, their seat handed to a computer, takes it back during the match with the
button of their private chat (bot.service.returns): the seat is theirs at once, the group is
told, their tiles come back, and the match ends with them credited; two taps, a tap on the
computer's turn, a tap on an old hand's tile and a tap after the match are each answered."""

from __future__ import annotations

import io
import json
import sqlite3
import time
from contextlib import closing

from bot_kit import Group, plain
from PIL import Image
from test_e2e_away import hand_budi_over, play_to_the_result
from test_e2e_leave_stop import leave

from bot.i18n import translator
from bot.models import Game, Player, Status
from bot.presentation import returntexts
from bot.presentation.tilebuttons import TileIntent, TileTap
from bot.service.returns import ALREADY_BACK, MATCH_OVER
from bot.service.settings import GroupSettings
from bot.wording import named
from engine import Match, Tile, table_view
from fakeapi import FakeUser, StoredMessage
from fakeapi.players import Table, active_hand, live_buttons
from renderers.seats import knocked_lately
from renderers.table import slots
from renderers.themes import find_theme

BACK = "↩ Take my seat back"


async def the_offer(group: Group, user: FakeUser) -> StoredMessage:
    """The message of ``user``'s private chat that offers the way back to their seat."""
    return await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(user.private_chat)
         if not m.deleted and BACK in m.button_texts), None), message="no way back offered")


async def test_the_away_player_takes_the_seat_back_plays_and_is_credited(group: Group) -> None:
    ayu, budi, sergei, thora = group.users[:4]
    async with group.bot(computer_pause=0.05) as runtime:
        robot = await hand_budi_over(group)
        game = group.game()
        offer = await the_offer(group, budi)
        await runtime.publisher.idle()
        table_id = game.messages.table_message
        table = next(m for m in group.messages() if m.message_id == table_id)
        edits = table.edit_count
        assert robot.name in plain(table.content)
        tap = budi.press(offer, BACK)
        await group.server.wait_for(lambda: tap.answered)
        assert tap.answer_text == "Your seat is yours again: your tiles are on their way."
        assert game.players[1].user_id == budi.id and game.status is Status.PLAYING
        back = game.seat_changes[-1]
        assert back.left == robot and back.seat == 1
        # The group hears it; the table names him again; the offer says it is done.
        await group.server.wait_for(lambda: group.said(
            f"Budi is back and takes their seat from {robot.name}."))

        def score_line() -> str:  # (the caption's line that names each seat)
            return next((line for line in plain(table.content).splitlines()
                         if line.startswith("Score:")), "")
        await group.server.wait_for(lambda: table.edit_count > edits and "Budi" in score_line()
                                    and robot.name not in score_line())
        # The offer was his last hand's picture, the tiles he had when he left: it goes,
        # and his tiles now come in a new message, with the usual buttons (live on his
        # turn). Player QA: the old tiles stayed, under "✅ You took your seat back".
        await group.server.wait_for(lambda: offer.deleted, message="the old tiles stayed")

        def pictures() -> list[int]:
            return [m.message_id for m in group.server.bot_messages(budi.private_chat)
                    if m.photo and not m.deleted]
        await group.server.wait_for(lambda: 1 in game.messages.hands and pictures() == [
            game.messages.hands[1].message_id], message="no tiles, or old ones beside them")
        assert pictures()[0] > offer.message_id
        # He plays on with the others to the end.
        await Table(group.server, [ayu, budi, sergei, thora]).play_until(group.match_over)
        result = await play_to_the_result(group)
        await runtime.publisher.idle()
        match = game.match
        assert match is not None and game.status is Status.FINISHED
        moved = [i for i, move in enumerate(match.hands[back.hand].moves)
                 if move.seat == 1 and i >= back.moves]
        assert moved, "Budi made no move of his own after taking his seat back"
        assert all(game.player_at(1, back.hand, i).user_id == budi.id for i in moved)
        words = plain(result.content)
        assert "replaced by a computer" not in words and "left the match" not in words
        assert "Budi" in words and robot.name not in words
        with closing(sqlite3.connect(group.database)) as db:
            players, scores, winner, leavers = db.execute(
                "SELECT players, scores, winner_side, leavers FROM match_results"
                " WHERE game_id=?", (game.game_id,)).fetchone()
        assert [p[0] for p in json.loads(players)][1] == budi.id
        assert tuple(json.loads(scores)) == match.scores and winner == match.winner
        assert json.loads(leavers) == []  # one result for him: the seat's, not a leaver's


async def test_two_taps_at_once_give_the_seat_once(group: Group) -> None:
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        robot = await hand_budi_over(group)
        game = group.game()
        offer = await the_offer(group, budi)
        data = offer.buttons[0][0].callback_data or ""
        taps = [budi.press_raw(offer, data), budi.press_raw(offer, data)]
        await group.server.wait_for(lambda: all(tap.answered for tap in taps))
        assert sorted(tap.answer_text or "" for tap in taps) == sorted(
            ["Your seat is yours again: your tiles are on their way.", ALREADY_BACK])
        assert [c.left for c in game.seat_changes].count(robot) == 1
        assert game.players[1].user_id == budi.id
        await group.server.wait_for(lambda: group.said("Budi is back"))
        await runtime.publisher.idle()
        assert sum("Budi is back" in text for text in group.texts()) == 1


async def handed_over(group: Group) -> tuple[Player, Game, Match, Table]:
    """Budi's seat handed to a computer: the computer, the game, its match, and the other
    three people at the table, to play on."""
    ayu, _, sergei, thora = group.users[:4]
    robot = await hand_budi_over(group)
    game = group.game()
    assert game.match is not None
    return robot, game, game.match, Table(group.server, [ayu, sergei, thora])


async def test_a_tap_on_the_computers_turn_makes_it_his_turn_and_no_move_for_him(
        group: Group) -> None:
    """The computer's move is waiting (its pause) when he taps: it never comes, the turn is
    his at the same move number, with his clock, and his tap on a tile plays it."""
    budi = group.users[1]
    async with group.bot(computer_pause=30) as runtime:
        robot, game, match, others = await handed_over(group)
        while match.to_move != 1:
            await others.play_one()
        assert game.players[1] == robot
        moves = game.move_no
        tap = budi.press(await the_offer(group, budi), BACK)
        await group.server.wait_for(lambda: tap.answered)
        assert tap.answer_text == "Your seat is yours again: your tiles are on their way."
        assert game.move_no == moves and match.to_move == 1 and game.deadline is not None
        assert runtime.timers._armed.get(f"computer:{game.game_id}") is None
        await group.server.wait_for(lambda: active_hand(group.server, budi) is not None,
                                    message="no live hand for him")
        hand = active_hand(group.server, budi)
        assert hand is not None and live_buttons(hand)
        number, index = match.hand.number, len(match.hand.moves)
        await Table(group.server, [budi]).play_one()
        assert game.move_no > moves and match.hands[number].moves[index].seat == 1


async def test_an_old_hand_tile_offers_the_way_back_and_a_late_tap_is_refused(
        group: Group) -> None:
    """A tile of his last hand, tapped after the seat went, explains and offers the way back
    in that message; once the match is over, the offer's tap says so and loses its button."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05):
        robot = await hand_budi_over(group)
        game = group.game()
        offer = await the_offer(group, budi)
        tile = TileTap(game.game_id, game.move_no - 1, Tile(0, 1), TileIntent.CHOOSE_END)
        old = budi.press_raw(offer, tile.encode())  # a tile's button of his last hand
        await group.server.wait_for(lambda: old.answered)
        assert old.answer_text == ("A computer player took your seat while you were away: tap "
                                   "“↩ Take my seat back” to play on.")
        assert offer.button_texts == [BACK] and robot.name.removeprefix("🤖 ") in offer.content
        assert game.players[1] == robot  # (offered, not taken)
        data = offer.buttons[0][0].callback_data or ""
        await play_to_the_result(group)
        await group.server.wait_for(lambda: offer.button_texts == [])  # (the match over)
        late = budi.press_raw(offer, data)  # (a client that still shows it)
        await group.server.wait_for(lambda: late.answered)
        assert late.answer_text == MATCH_OVER
        assert group.game().players[1] == robot


async def test_my_tiles_and_hand_offer_the_way_back_in_private(group: Group) -> None:
    """The group's "My tiles" and /hand, from a player whose seat went while he was away:
    the way back comes to his private chat (player QA: not a dead end)."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        await hand_budi_over(group)
        first = await the_offer(group, budi)
        table = next(m for m in group.messages()
                     if m.message_id == group.game().messages.table_message)
        mine = budi.press(table, "👀 My tiles")
        await group.server.wait_for(lambda: mine.answered)
        assert mine.answer_text == ("A computer player took your seat while you were away: I "
                                    "sent you “↩ Take my seat back” in our private chat.")
        second = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if m.message_id > first.message_id and BACK in m.button_texts), None))
        data = second.buttons[0][0].callback_data
        sent = budi.send_private("/hand")
        third = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if m.message_id > sent.message_id and BACK in m.button_texts), None))
        # (each newer one took the older's button: see test_e2e_back_offers)
        tap = budi.press(third, BACK)
        await group.server.wait_for(lambda: tap.answered)
        assert group.game().players[1].user_id == budi.id
        await runtime.publisher.idle()
        # (an offer whose button was still on at the tap goes once the seat is back; one
        # that lost it before stays, saying so)
        stale = next(m for m in (second, first) if not m.deleted)
        again = budi.press_raw(stale, data or "")  # (a client that still shows it)
        await group.server.wait_for(lambda: again.answered)
        assert again.answer_text == ALREADY_BACK
        await runtime.publisher.idle()
        assert not [m for m in group.server.bot_messages(budi.private_chat)
                    if not m.deleted and BACK in m.content]  # (no word invites a tap)


async def test_back_and_then_gone_with_leave_is_thanked_with_no_way_back(group: Group) -> None:
    """Each seat's farewell follows its last change: back, then /leave, is a leave."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        await hand_budi_over(group)
        tap = budi.press(await the_offer(group, budi), BACK)
        await group.server.wait_for(lambda: tap.answered)
        await group.server.wait_for(lambda: any(
            m.photo and not m.deleted and m.buttons and BACK not in m.button_texts
            for m in group.server.bot_messages(budi.private_chat)), message="no tiles")
        await leave(group, budi)
        # (his hand of the moment, whichever message that is, says goodbye)
        bye = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if not m.deleted and "Thanks for playing!" in m.content), None))
        await runtime.publisher.idle()
        assert bye.button_texts == [] and BACK not in bye.content
        assert not [m for m in group.server.bot_messages(budi.private_chat)
                    if not m.deleted and BACK in m.button_texts]


async def test_the_way_back_speaks_the_groups_language_when_the_bot_lacks_theirs(
        group: Group) -> None:
    """A Ukrainian ('uk': a language the bot does not speak) in a Russian group reads his
    tiles in Russian, and so the farewell with its button, the offer /hand sends and the
    note once he is back (review: those three came in English)."""
    ayu, budi = group.users[:2]
    budi.language_code = "uk"
    ru = translator("ru")
    label = ru(returntexts.TAKE_BACK_BUTTON)
    assert label != BACK
    async with group.bot(computer_pause=0.05) as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language="ru").to_json())
        await group.start("gaple target=1")
        game = group.game()
        match = game.match
        assert match is not None
        others = Table(group.server, [ayu, *group.users[2:4]])
        while 1 not in game.timer.away:  # (as test_e2e_offers' time_out_until_away, in ru)
            assert game.status is Status.PLAYING, "the match ended before Budi was away"
            if match.to_move == 1:
                async with runtime.locks.game(game.game_id):
                    game.deadline = time.time()
                    await runtime.service.expire(game, game.move_no)
            else:
                await others.play_one()
        async with runtime.locks.game(game.game_id):
            robot = await runtime.service.replace_away(game, ayu.id, False, 1)
        words = ru(returntexts.HANDED_WHILE_AWAY, computer=robot.name.removeprefix("🤖 "))

        def offers() -> list[StoredMessage]:
            return [m for m in group.server.bot_messages(budi.private_chat)
                    if not m.deleted and label in m.button_texts]
        farewell = await group.server.wait_for(lambda: next(iter(offers()), None),
                                               message="no way back in Russian")
        assert plain(farewell.content).startswith(words)
        sent = budi.send_private("/hand")
        offer = await group.server.wait_for(lambda: next(
            (m for m in offers() if m.message_id > sent.message_id), None),
            message="/hand offered no way back in Russian")
        assert plain(offer.content).startswith(words)
        tap = budi.press(offer, label)
        await group.server.wait_for(lambda: tap.answered)
        assert game.players[1].user_id == budi.id
        note = plain(ru(returntexts.TAKEN_BACK_NOTE, computer=named(robot.name)))
        # (the sync may take the button off before the note replaces the words)
        await group.server.wait_for(lambda: plain(offer.content) == note,
                                    message="no note in Russian")
        assert offer.button_texts == []
        await runtime.publisher.idle()


def knock_shown(group: Group, seat: int) -> bool:
    """Whether the group's table picture shows the knock mark in ``seat``'s panel."""
    game = group.game()
    table = next(m for m in group.messages() if m.message_id == game.messages.table_message)
    assert table.photo_bytes is not None
    with Image.open(io.BytesIO(table.photo_bytes)) as picture:
        image = picture.convert("RGB")
    knock = find_theme("classic").knock  # (within what the PNG's palette makes of it)
    colours = image.crop(slots(len(game.players), image.height)[seat]).getcolors(1 << 20)
    return sum(count for count, found in colours or []
               if max(abs(a - b) for a, b in zip(found, knock, strict=True)) <= 12) > 500


async def test_the_returners_seat_shows_no_knock_of_the_computer(group: Group) -> None:
    """Player QA: back in his seat, Budi's panel kept the computer's last "knock" until the
    next move, as if he had knocked. The knock stays in the log (the computer's, at its
    move); the table, which names Budi now, marks no knock of his."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        robot, game, match, others = await handed_over(group)
        offer = await the_offer(group, budi)
        # (the deals are the same on every run: the computer knocks in this hand)
        while not (1 in knocked_lately(table_view(match)) and match.to_move != 1):
            assert match.hand.result is None, "the hand ended with no knock of the computer"
            await others.play_one()
        await runtime.publisher.idle()
        assert knock_shown(group, 1)  # (the computer's, beside its name: true)
        tap = budi.press(offer, BACK)
        await group.server.wait_for(lambda: tap.answered)
        assert game.players[1].user_id == budi.id
        await group.server.wait_for(lambda: group.said("Budi is back"))
        await runtime.publisher.idle()
        table = next(m for m in group.messages() if m.message_id == game.messages.table_message)
        assert "Budi" in plain(table.content) and 1 in knocked_lately(table_view(match))
        assert not knock_shown(group, 1)
        assert robot.name not in [p.name for p in game.players]


async def test_newgame_from_the_away_player_points_to_the_way_back(group: Group) -> None:
    """Review: one whose seat a computer took while away sent /newgame and heard "a game is
    already running: send /notify for the next table", their seat still waiting for them.
    They hear where the way back is, and it is in their private chat."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05):
        await hand_budi_over(group)
        await the_offer(group, budi)
        budi.send(group.chat, "/newgame gaple")
        await group.server.wait_for(lambda: group.said(
            "A game is already running in this chat. A computer player took your seat while "
            "you were away: I sent you “↩ Take my seat back” in our private chat."))
        assert not group.said("Send /notify here")
        await the_offer(group, budi)

