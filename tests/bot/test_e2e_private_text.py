"""A plain text written to the bot in private is answered once (QA: "hi, what do I do?"
mid-game and "hello?" with no game got nothing): where the writer's tiles are and whether it
is their turn, their seat at a table not started yet, or where to begin; what is not a
person's plain text is not answered."""

from __future__ import annotations

from dataclasses import replace

from bot_kit import Group, plain
from test_e2e_away import hand_budi_over
from test_e2e_leave_stop import leave
from test_e2e_take_back import BACK

from bot.handlers.privatetext import NO_GAME
from bot.i18n import translator
from bot.service.returns import LEFT_FOR_GOOD
from fakeapi import FakeTelegramServer, FakeUser, StoredMessage


async def answer_to(group: Group, user: FakeUser, text: str) -> StoredMessage:
    """The bot's one answer to ``text`` sent in ``user``'s private chat (none other after)."""
    await group.server.wait_idle()
    sent = user.send_private(text)
    said = await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(user.private_chat)
         if m.message_id > sent.message_id and not m.photo), None))
    await group.server.wait_idle()
    after = [m for m in group.server.bot_messages(user.private_chat)
             if m.message_id > sent.message_id and not m.photo]
    assert after == [said]
    return said


async def test_a_text_with_no_game_says_where_to_begin(group: Group) -> None:
    ayu = group.users[0]
    ayu.language_code = "id"
    async with group.bot():
        said = await answer_to(group, ayu, "hello?")
    assert said.text == translator("id")(NO_GAME)  # in the writer's language
    assert said.buttons[0][0].url == f"https://t.me/{group.server.bot.username}?startgroup=new"


async def test_a_text_mid_game_points_to_the_tiles_and_says_whose_turn(group: Group) -> None:
    async with group.bot():
        table = await group.start("pair")
        await table.play_one()
        mover, _ = await group.server.wait_for(table.whose_turn)
        other = next(u for u in group.users[:4] if u is not mover)
        assert (await answer_to(group, mover, "hi, what do I do?")).text == (
            "It is your turn: tap a marked tile in my message above.")
        assert (await answer_to(group, other, "hi, what do I do?")).text == (
            "Your tiles are in my message above. It is not your turn yet: I will write when "
            "it is.")


async def test_a_text_from_someone_seated_in_a_lobby_says_where(group: Group) -> None:
    budi = group.users[1]
    async with group.bot():
        await group.open_table("kolbasa", players=2)
        said = await answer_to(group, budi, "when do we start?")
    assert plain(said.text or "") == ("You have a seat at the table in Domino evening: your "
                                      "tiles will come here when the game starts.")


async def test_a_text_at_two_tables_says_each_has_its_message(
        telegram: FakeTelegramServer, group: Group) -> None:
    ayu, budi, dewi = group.users[0], group.users[1], group.users[4]
    chat = telegram.add_group("Domino club", members=group.users, admins=[ayu])
    evening = replace(group, users=[ayu, budi])
    club = replace(group, chat=chat, users=[ayu, dewi])
    async with evening.bot() as runtime:
        club.runtime = runtime
        for at in (evening, club):
            await at.start("kolbasa", players=2)
        await telegram.wait_idle(quiet=0.3)
        turns = sum(at.game().match.to_move == 0 for at in (evening, club))  # type: ignore[union-attr]
        said = await answer_to(group, ayu, "which one?")
    expected = "Your tiles are in my messages above, one for each of your 2 tables."
    if turns:
        expected += f" It is your turn at {turns} of them: tap a marked tile there."
    assert said.text == expected


async def test_what_is_no_persons_plain_text_is_not_answered(group: Group) -> None:
    """A bot's text, a dice, a command the bot does not know: no answer."""
    ayu = group.users[0]
    async with group.bot():
        first = ayu.send_private("/start")
        await group.server.wait_idle()
        before = len(group.server.bot_messages(ayu.private_chat))
        message = first.to_api()
        updates = group.server.world.updates
        bot_sender = dict(message["from"], is_bot=True)
        updates.push("message", dict(message, text="hello", entities=[], message_id=900,
                                     **{"from": bot_sender}))
        dice = {k: v for k, v in message.items() if k not in ("text", "entities")}
        updates.push("message", dict(dice, message_id=901, dice={"emoji": "🎲", "value": 3}))
        ayu.send_private("/nosuchcommand")
        await group.server.wait_for(lambda: updates.all_delivered)
        await group.server.wait_idle()
        assert len(group.server.bot_messages(ayu.private_chat)) == before


async def test_a_text_from_a_player_whose_seat_went_while_away_offers_it_back(
        group: Group) -> None:
    """As /start does (review: the text got "add me to a group", mid-match)."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        await hand_budi_over(group)
        await runtime.publisher.idle()
        said = await answer_to(group, budi, "hi, what now?")
        assert said.button_texts == [BACK] and "Take my seat back" in plain(said.content)
        await runtime.publisher.idle()


async def test_a_text_from_a_player_who_left_says_they_left(group: Group) -> None:
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        await group.start("pair")
        await leave(group, budi)
        await runtime.publisher.idle()
        said = await answer_to(group, budi, "hello?")
        assert said.text == translator("en")(LEFT_FOR_GOOD) and said.buttons == []
