"""The hand of the player to move links the group's table as it is now: the turn's hand is
often out before its table is posted (it linked the lobby above it until the move), and
/table posts the table anew and deletes the old one (it linked a deleted message until the
move). A waiting hand followed the table already (its key is its caption's digest); a turn's
key was its move and players only."""

from __future__ import annotations

from dataclasses import replace

from bot_kit import Group, lobby_button

from fakeapi import FakeTelegramServer, FakeUser, StoredMessage


def links(message: StoredMessage) -> list[str]:
    return [e["url"] for e in message.entities if e["type"] == "text_link"]


def turn_hand(group: Group) -> tuple[FakeUser, StoredMessage]:
    """The player to move and their hand message, as the game records it."""
    game = group.game()
    assert game.match is not None and game.match.to_move is not None
    seat = game.match.to_move
    user = next(u for u in group.users if u.id == game.players[seat].user_id)
    return user, group.server.message(user.private_chat, game.messages.hands[seat].message_id)


def table_url(group: Group) -> str:
    table = group.game().messages.table_message
    assert table is not None
    return f"https://t.me/c/{str(group.chat.id)[4:]}/{table}"


async def test_a_turn_sent_before_its_table_links_the_table_once_it_is_posted(
        telegram: FakeTelegramServer, group: Group) -> None:
    club = telegram.add_group("Domino club", members=group.users, supergroup=True)
    at_club = replace(group, chat=club, users=group.users[:2])
    async with at_club.bot() as runtime:
        await at_club.open_table("kolbasa", 2)
        held = telegram.hold("sendPhoto", after_acting=False, chat=club)  # the table's post
        lobby = at_club.lobby()
        at_club.users[0].press(lobby, lobby_button(lobby, "s") or "")
        await telegram.wait_for(lambda: held.holding)
        game = at_club.game()
        await telegram.wait_for(lambda: len(game.messages.hands) == 2,
                                message="both hands out before the table")
        _, hand = turn_hand(at_club)
        assert links(hand) == [f"https://t.me/c/{str(club.id)[4:]}/{lobby.message_id}"]
        held.release()
        await telegram.wait_for(lambda: game.messages.table_message is not None)
        await runtime.publisher.idle()
        user, hand = turn_hand(at_club)
        assert links(hand) == [table_url(at_club)]
        assert len([m for m in telegram.bot_messages(user.private_chat) if m.photo]) == 1, \
            "edited in place: a turn's hand is not sent twice"


async def test_a_turn_links_the_table_posted_again_by_table(
        telegram: FakeTelegramServer, group: Group) -> None:
    club = telegram.add_group("Domino club", members=group.users, supergroup=True)
    at_club = replace(group, chat=club, users=group.users[:2])
    async with at_club.bot() as runtime:
        table = await at_club.start("kolbasa", 2)
        game = at_club.game()
        await telegram.wait_for(lambda: game.messages.table_message is not None)
        await table.play_one()  # the next turn's hand, sent once the table was known
        await runtime.publisher.idle()
        _, hand = turn_hand(at_club)
        assert links(hand) == [table_url(at_club)]
        old = game.messages.table_message
        at_club.send(at_club.users[1], "/table")
        await telegram.wait_for(lambda: game.messages.table_message != old
                                and telegram.message(club, old or 0).deleted)
        await runtime.publisher.idle()
        _, hand = turn_hand(at_club)
        assert links(hand) == [table_url(at_club)]  # not the table deleted
