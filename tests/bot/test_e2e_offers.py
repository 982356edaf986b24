"""Buttons count only where they were made and while what they offer holds: a settings button
on another message, in another chat, or a seat offer for a player who is back."""

from __future__ import annotations

import time

from bot_kit import Group, plain

from bot.handlers.menu import MENU_REPLACED
from bot.models import AWAY_TURN_SECONDS, Status
from bot.presentation.gamebuttons import ReplaceAway, SettingTap
from bot.service.settings import GroupSettings
from fakeapi import StoredMessage
from fakeapi.players import Table


async def table_message(group: Group) -> StoredMessage:
    return await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(group.chat)
         if any(b.text == "👀 My tiles" for row in m.buttons for b in row)), None))


async def test_settings_buttons_work_only_on_the_groups_menu(group: Group) -> None:
    ayu = group.users[0]  # the group's admin
    async with group.bot() as runtime:
        await group.start("gaple")
        table = await table_message(group)
        forged = {
            "done on the table": ayu.press_raw(table, SettingTap("", "done").encode()),
            "language on the table": ayu.press_raw(table, SettingTap("", "language", 2).encode()),
            "target in private": ayu.press_raw(
                group.server.last_bot_message(ayu.private_chat),  # type: ignore[arg-type]
                SettingTap("gaple", "target", 1).encode()),
        }
        await group.server.wait_for(lambda: all(r.answered for r in forged.values()))
        assert {name: r.answer_text for name, r in forged.items()} == dict.fromkeys(
            forged, "That button is out of date.")
        assert any(b.text == "👀 My tiles" for row in table.buttons for b in row)
        settings = GroupSettings.from_json(await runtime.storage.chat_settings(group.chat.id))
        # (the started table gave the group its language; the forged tap chose none)
        assert (settings.language, settings.auto_language, settings.games) == (None, "en", {})
        # An older menu stops working once a newer one is sent.
        ayu.send(group.chat, "/settings")
        first = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Settings of this group" in (m.text or "")), None))
        turn_time = first.button("Turn time: 90 s").callback_data or ""
        ayu.send(group.chat, "/settings")
        await group.server.wait_for(lambda: sum(
            "Settings of this group" in (m.text or "")
            for m in group.server.bot_messages(group.chat)) == 1 and first.text == MENU_REPLACED)
        # (its buttons are taken off: a client still showing them is told to use the newer)
        await group.server.wait_for(lambda: not first.buttons)
        old = ayu.press_raw(first, turn_time)
        await group.server.wait_for(lambda: old.answered)
        assert old.answer_text == MENU_REPLACED


async def time_out_until_away(group: Group, absent_seat: int) -> StoredMessage:
    """The player in ``absent_seat`` lets their time run out, turn after turn, until the group
    is told they seem away; the others play. Deadlines are made due at once (the service
    resolves a due turn exactly as the timer job would), so nothing waits on the clock."""
    runtime = group.runtime
    assert runtime is not None
    game = group.game()
    others = Table(group.server, [u for u in group.users[:4] if u is not group.users[absent_seat]])
    while not group.said("seems to be away"):
        assert game.status is Status.PLAYING, "the match ended before anybody was away"
        if game.match.to_move == absent_seat:  # type: ignore[union-attr]
            async with runtime.locks.game(game.game_id):
                game.deadline = time.time()
                await runtime.service.expire(game, game.move_no)
        else:
            await others.play_one()
    return await group.server.wait_for(lambda: next(
        m for m in group.server.bot_messages(group.chat) if "seems to be away" in (m.text or "")))


async def test_a_seat_offer_is_refused_once_the_player_is_back(group: Group) -> None:
    ayu = group.users[0]  # the creator
    async with group.bot() as runtime:
        table = await group.start("pair")
        game = group.game()
        absent_seat = 2  # Sergei; Ayu, the creator, is there to hand his seat over
        offer = await time_out_until_away(group, absent_seat)
        assert offer.button_texts == ["🤖 Hand \u2068Sergei\u2069's seat to a computer"]
        # Sergei comes back and plays a turn of his own.
        others = Table(group.server, [u for u in group.users[:4] if u is not group.users[2]])
        while game.match.to_move != absent_seat:  # type: ignore[union-attr]
            await others.play_one()
        await table.play_one()
        assert absent_seat not in game.timer.away
        # The group hears it (player QA: the players waited on, not knowing he was back),
        # and the offer goes (player QA: it stayed, its button answering only that he was
        # back; a tap that races its deletion still is: test_e2e_away_back).
        await group.server.wait_for(lambda: group.said("Sergei is back and plays on."))
        await group.server.wait_for(lambda: offer.deleted, message="the offer stayed")
        assert not game.players[absent_seat].is_computer
        # A forged offer for somebody who was never away changes nothing either.
        other = next(s for s in range(1, 4) if s != absent_seat)
        forged = ayu.press_raw(await table_message(group),
                               ReplaceAway(game.game_id, other).encode())
        await group.server.wait_for(lambda: forged.answered)
        assert forged.answer_text == "That player is at the table and plays on."
        assert not any(p.is_computer for p in game.players)
        assert runtime is not None


async def test_an_away_player_moves_at_once_and_an_away_creators_seat_is_anyones_to_hand_on(
        group: Group) -> None:
    """Ayu, the creator, goes away: her turns are played after a short clock, not the whole
    turn's (ten minutes of waiting a hand); the group's table says she is away, not "your
    turn"; and Budi, who is neither creator nor admin, may give her seat to a computer
    (player QA: nobody at the table could)."""
    budi = group.users[1]
    async with group.bot() as runtime:
        await group.start("pair")
        game = group.game()
        offer = await time_out_until_away(group, 0)
        assert "Anyone playing at this table can hand the seat" in (offer.text or "")
        others = Table(group.server, group.users[1:4])
        while game.match.to_move != 0:  # type: ignore[union-attr]
            await others.play_one()
        assert game.deadline is not None
        assert game.deadline - time.time() <= AWAY_TURN_SECONDS < game.turn_seconds
        table = await table_message(group)
        await group.server.wait_for(
            lambda: "Ayu seems to be away: I move for them in a moment." in plain(table.content))
        assert "Your turn, Ayu" not in plain(table.content)
        record = budi.press(offer, offer.buttons[0][0].callback_data or "")
        await group.server.wait_for(lambda: record.answered)
        assert game.players[0].is_computer, record.answer_text
        assert runtime is not None


async def test_with_the_creator_at_the_table_only_she_or_an_admin_hands_a_seat_on(
        group: Group) -> None:
    budi = group.users[1]
    async with group.bot():
        await group.start("pair")
        game = group.game()
        offer = await time_out_until_away(group, 2)
        assert "The game's creator or an admin can hand the seat" in (offer.text or "")
        record = budi.press(offer, offer.buttons[0][0].callback_data or "")
        await group.server.wait_for(lambda: record.answered)
        assert plain(record.answer_text or "") == (
            "Ayu, who opened this table, is playing: only they or a group admin can hand a "
            "seat on.")
        assert not game.players[2].is_computer


async def test_an_away_creator_back_at_the_table_makes_her_offer_stale_for_everyone(
        group: Group) -> None:
    """Player QA: Þóra tapped the offer that said anyone at the table could, after Ayu came
    back, and read that only the creator or an admin could: the offer is out of date."""
    ayu, thora = group.users[0], group.users[3]
    async with group.bot() as runtime:
        table = await group.start("pair")
        game = group.game()
        offer = await time_out_until_away(group, 0)
        data = offer.buttons[0][0].callback_data or ""
        # (the offer, once Ayu is back, goes: past the 48 hours a bot may delete it, it
        # stays, unbuttoned, and a tap sent before that still comes)
        await runtime.publisher.idle()
        group.server.fail_next("deleteMessage", chat=group.chat,
                               description="Bad Request: message can't be deleted for everyone")
        others = Table(group.server, group.users[1:4])
        while game.match.to_move != 0:  # type: ignore[union-attr]
            await others.play_one()
        await table.play_one()  # Ayu plays a tile herself
        await group.server.wait_for(lambda: group.said("Ayu is back and plays on."))
        await group.server.wait_for(lambda: not offer.buttons)
        record = thora.press_raw(offer, data)
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "That player is at the table and plays on."
        assert not game.players[0].is_computer and ayu is group.users[0]
