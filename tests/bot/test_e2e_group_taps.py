"""Taps on the group's lobby and table while the bot waits for the answer to their send: the
message is on the screen (a quick tap can come) before the bot knows its id. The tap waits,
briefly, for the send instead of taking the new message for a stray (which would refuse it
and strip the group's current lobby or table of its buttons); a stray is still refused; and
"My tiles" while the player's hand is being sent leaves them one hand message."""

from __future__ import annotations

import asyncio

from bot_kit import Group, lobby_button

from fakeapi import FakeUser, Hold, StoredMessage

MY_TILES = "👀 My tiles"
STRAY = "This message is out of date: the table's newest message is below."
REFUSED = "That message is out of date: use the newest one."


async def tapped_while_held(group: Group) -> None:
    """Let the bot take the tap while the send stays unanswered."""
    await group.server.wait_for(lambda: group.server.world.updates.all_delivered)
    await asyncio.sleep(0.2)


async def start_with_table_held(group: Group) -> tuple[StoredMessage, Hold]:
    """A pair game starts; its first table is sent and the answer to that send held."""
    await group.open_table("pair")
    lobby = group.lobby()
    held = group.server.hold("sendPhoto", after_acting=True, chat=group.chat)
    start = group.users[0].press(lobby, lobby_button(lobby, "s") or "")
    await group.server.wait_for(lambda: held.holding and start.answered)
    return group.server.message(group.chat, held.result["message_id"]), held


def hand_messages(group: Group, user: FakeUser) -> list[StoredMessage]:
    """The user's hand messages still there (pictures, in their private chat)."""
    return [m for m in group.server.bot_messages(user.private_chat)
            if m.photo and not m.deleted]


async def test_my_tiles_on_a_table_whose_send_is_unanswered_sends_the_tiles(
        group: Group) -> None:
    async with group.bot():
        budi = group.users[1]
        table, held = await start_with_table_held(group)
        assert group.game().messages.table_message is None  # the bot does not know the table yet
        record = budi.press(table, MY_TILES)
        await tapped_while_held(group)
        held.release()
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "I sent your tiles to our private chat."
        await group.server.wait_idle()
        assert group.game().messages.table_message == table.message_id
        assert STRAY not in (table.caption or "") and MY_TILES in table.button_texts
        # the tiles sent again, as asked: the first hand message gave way to a fresh one
        await group.server.wait_for(
            lambda: len(group.server.requests_for("sendPhoto", budi.private_chat)) == 2)
        await group.server.wait_idle()
        assert len(hand_messages(group, budi)) == 1


async def test_join_on_a_lobby_whose_send_is_unanswered_takes_the_seat(group: Group) -> None:
    async with group.bot():
        ayu, budi = group.users[:2]
        for user in (ayu, budi):
            user.send_private("/start")
        await group.server.wait_for(lambda: all(group.server.bot_messages(u.private_chat)
                                                for u in (ayu, budi)))
        held = group.server.hold("sendMessage", after_acting=True, chat=group.chat)
        group.send(ayu, "/newgame pair")
        await group.server.wait_for(lambda: held.holding)
        lobby = group.server.message(group.chat, held.result["message_id"])
        join = lobby_button(lobby, "j")
        assert join is not None
        record = budi.press(lobby, join)
        await tapped_while_held(group)
        held.release()
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "You joined the game."
        await group.server.wait_for(lambda: budi.id in lobby.mentioned_user_ids)
        await group.server.wait_idle()
        assert STRAY not in (lobby.text or "") and lobby_button(lobby, "s") is not None
        assert group.game().messages.lobby == lobby.message_id


async def test_a_stray_table_is_refused_while_the_current_one_is_being_sent(
        group: Group) -> None:
    """The answer to the table's send was lost (a stray is left) and the send that replaces
    it is unanswered: the stray, newer than what the bot knows, is refused once the send is
    answered; the current table's "My tiles" works."""
    async with group.bot():
        await group.open_table("pair")
        lobby = group.lobby()
        group.server.drop_connection("sendPhoto", after_acting=True, chat=group.chat)
        group.users[0].press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: group.server.dropped)
        held = group.server.hold("sendPhoto", after_acting=True, chat=group.chat)
        await group.server.wait_for(lambda: held.holding, message="the send was not retried")
        current = group.server.message(group.chat, held.result["message_id"])
        stray = next(m for m in group.messages()
                     if m.photo and MY_TILES in m.button_texts and m is not current)
        assert stray.message_id < current.message_id and group.game().messages.table_message is None
        refused = group.users[1].press(stray, MY_TILES)
        await tapped_while_held(group)
        held.release()
        await group.server.wait_for(lambda: refused.answered)
        assert refused.answer_text == REFUSED
        await group.server.wait_for(lambda: STRAY in (stray.caption or ""))
        assert stray.button_texts == []
        record = group.users[1].press(current, MY_TILES)
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "I sent your tiles to our private chat."


async def test_my_tiles_while_the_hand_is_being_sent_leaves_one_hand_message(
        group: Group) -> None:
    """"My tiles" forgets the hand message the bot knows; the send in flight (whose message
    the bot does not know yet) is the fresh one, and no second one follows it."""
    async with group.bot():
        budi = group.users[1]
        await group.open_table("pair")
        lobby = group.lobby()
        held = group.server.hold("sendPhoto", after_acting=True, chat=budi.private_chat)
        group.users[0].press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: held.holding)
        game = group.game()
        table = await group.server.wait_for(lambda: game.messages.table_message)
        assert game.messages.hands.get(1) is None
        record = budi.press(group.server.message(group.chat, table), MY_TILES)
        await group.server.wait_for(lambda: record.answered)
        held.release()
        await group.server.wait_idle()
        assert group.runtime is not None
        await group.runtime.publisher.idle()
        sent = group.server.requests_for("sendPhoto", budi.private_chat)
        assert len(sent) == 1 and [m.message_id for m in hand_messages(group, budi)] == [
            held.result["message_id"]]
