"""A person at two tables at once, in two topics of one forum or in two groups, tells them
apart from the private chat (tester): each hand names its table's group and topic, a link to
the table where Telegram has one, and /table in private asks which table to bring down."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import replace

from bot_kit import Group, plain

from fakeapi import FakeTelegramServer, FakeUser, StoredMessage


def newest_hand(group: Group, user: FakeUser, place: str) -> StoredMessage | None:
    """``user``'s newest hand message whose caption names ``place`` (None: none yet)."""
    return next((m for m in reversed(group.server.bot_messages(user.private_chat))
                 if m.photo and not m.deleted and place in plain(m.content)), None)


def hand_of(group: Group, user: FakeUser, place: str) -> StoredMessage:
    """``user``'s newest hand message whose caption names ``place``."""
    hand = newest_hand(group, user, place)
    assert hand is not None, f"no hand of {user.first_name} names {place}"
    return hand


def links(message: StoredMessage) -> list[tuple[str, str]]:
    """A message's links: the text each covers (read) and where it goes."""
    text = message.content.encode("utf-16-le")
    return [(plain(text[2 * e["offset"]: 2 * (e["offset"] + e["length"])].decode("utf-16-le")),
             e["url"]) for e in message.entities if e["type"] == "text_link"]


async def both_playing(*places: Group) -> None:
    """Kolbasa at each place between its two people (Ayu at both), started."""
    for at in places:
        await at.start("kolbasa", players=2)
    server = places[0].server
    await server.wait_for(lambda: all(at.game().messages.table_message for at in places))
    await server.wait_idle(quiet=0.3)


async def asked_which(server: FakeTelegramServer, ayu: FakeUser) -> StoredMessage:
    asked = ayu.send_private("/table")
    return await server.wait_for(lambda: next(
        (m for m in server.bot_messages(ayu.private_chat)
         if m.message_id > asked.message_id and not m.photo), None))


async def test_hands_in_two_topics_name_their_topic_and_table_asks_which(
        telegram: FakeTelegramServer, group: Group) -> None:
    ayu, budi, dewi = group.users[0], group.users[1], group.users[4]
    chat = telegram.add_group("Domino club", members=group.users, admins=[ayu], forum=True)
    evening_topic = telegram.create_topic(chat, "Evening", ayu)
    weekend_topic = telegram.create_topic(chat, "Weekend", ayu)
    evening = replace(group, chat=chat, topic=evening_topic, users=[ayu, budi])
    weekend = replace(group, chat=chat, topic=weekend_topic, users=[ayu, dewi])
    async with evening.bot() as runtime:
        weekend.runtime = runtime
        await both_playing(evening, weekend)
        internal = str(chat.id)[4:]
        for at, name in ((evening, "Evening"), (weekend, "Weekend")):
            hand = await telegram.wait_for(
                lambda n=name: newest_hand(group, ayu, f"topic {n} "))  # type: ignore[misc]
            assert plain(hand.content).endswith(
                f"↩ The table is in the topic {name} of the group Domino club.")
            thread = at.topic.thread_id  # type: ignore[union-attr]
            [(text, url)] = links(hand)  # the topic's name: to the topic, or its table
            assert text == name and url.startswith(f"https://t.me/c/{internal}/{thread}")
        # Renamed: the hands sent from now on say its new name.
        telegram.rename_topic(weekend_topic, "Sunday", ayu)
        await telegram.wait_for(lambda: runtime.publisher.hands.places.topic(weekend.game())
                                == "Sunday")
        weekend.send(dewi, "nice name")  # quoting the topic's creation: "Weekend" still
        await telegram.wait_idle(quiet=0.3)
        sent = ayu.send_private("/hand")
        await telegram.wait_for(lambda: any(
            "topic Sunday " in plain(m.content) for m in telegram.bot_messages(ayu.private_chat)
            if m.message_id > sent.message_id))
        assert plain(hand_of(group, ayu, "topic Sunday ").content).endswith(
            "↩ The table is in the topic Sunday of the group Domino club.")
        # /table in private: which table? One tap brings down that one alone.
        question = await asked_which(telegram, ayu)
        assert question.text == ("You are playing at more than one table. Which one should I "
                                 "post again at the bottom?")
        assert [plain(label) for label in question.button_texts] == [
            "⬇ Domino club · Evening", "⬇ Domino club · Sunday"]
        tables = {at.game().game_id: at.game().messages.table_message
                  for at in (evening, weekend)}
        tap = ayu.press(question, question.button_texts[1])
        await telegram.wait_for(lambda: tap.answered)
        assert tap.answer_text == "The table is at the bottom of the topic now."
        await telegram.wait_for(lambda: weekend.game().messages.table_message
                                != tables[weekend.game().game_id])
        await runtime.publisher.idle()
        assert evening.game().messages.table_message == tables[evening.game().game_id]
        newest = telegram.topic_messages(chat, weekend_topic)[-1]
        assert newest.message_id == weekend.game().messages.table_message and newest.photo


async def test_hands_in_two_groups_name_their_group_and_table_asks_which(
        telegram: FakeTelegramServer, group: Group) -> None:
    ayu, budi, dewi = group.users[0], group.users[1], group.users[4]
    club = telegram.add_group("Domino club", members=group.users, supergroup=True)
    office = telegram.add_group("Office", members=group.users)  # a basic group: no links
    at_club = replace(group, chat=club, users=[ayu, budi])
    at_office = replace(group, chat=office, users=[ayu, dewi])
    async with at_club.bot() as runtime:
        at_office.runtime = runtime
        await both_playing(at_club, at_office)
        # A waiting hand links to the table once it is posted (a turn's hand, sent at once,
        # may be out before it: then it links to the lobby, just above where the table comes).
        url = f"https://t.me/c/{str(club.id)[4:]}/{at_club.game().messages.table_message}"
        # The club's waiting hand, as the game records it (under load its caption is edited
        # to name the group and link the table after the bot went quiet: waited for).
        game = at_club.game()
        seat = 1 - (game.match.to_move or 0)  # type: ignore[union-attr]
        person = (ayu, budi)[seat] if game.players[0].user_id == ayu.id else (budi, ayu)[seat]
        waiting = telegram.message(person.private_chat, game.messages.hands[seat].message_id)
        await telegram.wait_for(lambda: links(waiting) == [("Domino club", url)],
                                message="the waiting hand linking the club's table")
        assert plain(waiting.content).endswith("↩ The table is in the group Domino club.")
        assert "Not your turn yet" in waiting.content
        office_hand = await telegram.wait_for(lambda: newest_hand(group, ayu, "group Office"))
        assert plain(office_hand.content).endswith("↩ The table is in the group Office.")
        assert links(office_hand) == []
        question = await asked_which(telegram, ayu)
        assert [plain(label) for label in question.button_texts] == [
            "⬇ Domino club", "⬇ Office"]
        before = at_club.game().messages.table_message
        tap = ayu.press(question, question.button_texts[1])
        await telegram.wait_for(lambda: tap.answered)
        assert tap.answer_text == "The table is at the bottom of the group now."
        await runtime.publisher.idle()
        assert at_club.game().messages.table_message == before
        assert telegram.bot_messages(office)[-1].message_id \
            == at_office.game().messages.table_message


async def test_a_topic_made_before_the_bot_learnt_names_is_named_by_its_messages(
        telegram: FakeTelegramServer, group: Group) -> None:
    """A topic made before this version (none stored) gets its name from the creation that
    its messages quote."""
    ayu, budi = group.users[:2]
    chat = telegram.add_group("Domino club", members=group.users, admins=[ayu], forum=True)
    evening = replace(group, chat=chat, users=[ayu, budi],
                      topic=telegram.create_topic(chat, "Evening", ayu))
    async with evening.bot():
        await telegram.wait_idle(quiet=0.3)
    with closing(sqlite3.connect(group.database)) as db, db:
        assert db.execute("DELETE FROM topics").rowcount == 1
    async with evening.bot():
        await both_playing(evening)
        assert plain(hand_of(group, ayu, "topic").content).endswith(
            "↩ The table is in the topic Evening of the group Domino club.")


async def test_a_topic_named_only_by_a_quote_names_it_on_the_hands_sent_before(
        telegram: FakeTelegramServer, group: Group) -> None:
    """CI: a game's hands were sent while the bot knew no name for its topic, which it then
    learnt from a message quoting the topic's creation; a waiting hand kept no topic in its
    way back until the game changed, the hand of the player to move until the next move.
    Learning it brings both up to date."""
    ayu, budi = group.users[:2]
    chat = telegram.add_group("Domino club", members=group.users, admins=[ayu], forum=True)
    topic = telegram.create_topic(chat, "Evening", ayu)
    evening = replace(group, chat=chat, topic=topic, users=[ayu, budi])
    async with evening.bot() as runtime:
        await both_playing(evening)
        game = evening.game()
        move = game.move_no

        def named() -> bool:
            return all(newest_hand(group, u, "topic Evening ") for u in (ayu, budi))

        await telegram.wait_for(named)
        places = runtime.publisher.hands.places
        places.topic_names[(chat.id, topic.thread_id)] = ""  # (as if never told)
        runtime.publisher.request(game.game_id)
        await telegram.wait_for(
            lambda: not any(newest_hand(group, u, "topic Evening ") for u in (ayu, budi)))
        evening.send(budi, "/rules")  # (a message the bot sees) quoting the topic's creation
        await telegram.wait_for(named)
        assert evening.game().move_no == move  # (both brought up to date without a move)
