"""A hand asked for again (a /start in private, "My tiles", /hand) while its message is being
edited: the message is deleted and its seat's next sync sends a new one. The edit answering
after the delete must not make the deleted message the seat's hand again (CI: a player's
/start while their waiting hand followed the table left them with no tiles at all)."""

from __future__ import annotations

from dataclasses import replace

from bot_kit import Group

from fakeapi import FakeTelegramServer, StoredMessage


async def test_a_hand_asked_for_again_while_it_is_edited_comes_anew(
        telegram: FakeTelegramServer, group: Group) -> None:
    club = telegram.add_group("Domino club", members=group.users, supergroup=True)
    at_club = replace(group, chat=club, users=group.users[:2])
    async with at_club.bot() as runtime:
        await at_club.start("kolbasa", 2)
        game = at_club.game()
        await telegram.wait_for(lambda: game.messages.table_message is not None)
        await runtime.publisher.idle()
        assert game.match is not None and game.match.to_move is not None
        seat = 1 - game.match.to_move
        waiter = next(u for u in at_club.users if u.id == game.players[seat].user_id)
        old = game.messages.hands[seat].message_id
        # /table posts the table anew: the waiting hand's link follows it (a caption edit),
        # held after it acted, while its player asks for their tiles again
        held = telegram.hold("editMessageCaption", after_acting=True, chat=waiter.private_chat)
        at_club.send(at_club.users[0], "/table")
        await telegram.wait_for(lambda: held.holding)
        waiter.send_private("/start")
        await telegram.wait_for(lambda: telegram.message(waiter.private_chat, old).deleted)
        held.release()
        await runtime.publisher.idle()

        def live_hands() -> list[StoredMessage]:
            return [m for m in telegram.bot_messages(waiter.private_chat)
                    if m.photo and not m.deleted]

        await telegram.wait_for(live_hands, message="the hand sent anew")
        [hand] = live_hands()
        assert game.messages.hands[seat].message_id == hand.message_id != old
