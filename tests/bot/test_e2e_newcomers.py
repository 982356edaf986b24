"""The lobby's link to the private chat (``/start join<table>``) followed after the table has
started: a seated player gets their tiles, anyone else is told the game began without them,
instead of "That table is no longer open" for a game being played; and the private chat
opened by hand after a Join that needed it: a plain /start acts as the link; a tile that
cannot go, tapped on one's turn, says which can (newcomer QA)."""

from __future__ import annotations

from bot_kit import Group, lobby_button, plain
from test_e2e_leave_stop import leave

from bot.handlers.startlinks import KEPT_SECONDS, StartLinks
from bot.service.returns import LEFT_FOR_GOOD
from fakeapi.players import PLAY_MARKS


async def test_the_lobby_link_after_start_sends_a_seated_player_the_tiles(group: Group) -> None:
    budi, dewi = group.users[1], group.users[4]
    async with group.bot():
        await group.start("gaple")
        game = group.game()
        await group.server.wait_idle()
        last = max(m.message_id for m in group.server.bot_messages(budi.private_chat))
        budi.send_private(f"/start join{game.game_id}")
        fresh = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if m.message_id > last and m.photo is not None and m.buttons), None))
        assert "no longer open" not in (fresh.caption or "")
        dewi.send_private("/start")
        dewi.send_private(f"/start join{game.game_id}")
        await group.server.wait_for(lambda: any(
            (m.text or "") == "That table has started without you. When its game is over, "
                              "anyone can open the next one with /newgame."
            for m in group.server.bot_messages(dewi.private_chat)))
        assert not any("no longer open" in (m.text or "")
                       for user in (budi, dewi)
                       for m in group.server.bot_messages(user.private_chat))


async def test_the_lobby_link_tells_one_who_left_that_a_computer_plays_their_seat(
        group: Group) -> None:
    """Player QA: Ólafur left with /leave, then opened the lobby's link and was told the
    table "started without you", though he sat there: he is told he left and a computer
    plays his seat, as the table's "My tiles" tells him."""
    budi = group.users[1]
    async with group.bot():
        await group.start("gaple")
        game = group.game()
        await leave(group, budi)
        last = max(m.message_id for m in group.server.bot_messages(budi.private_chat))
        budi.send_private(f"/start join{game.game_id}")
        told = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if m.message_id > last and m.text), None))
        assert told.text == LEFT_FOR_GOOD


async def test_a_plain_start_after_a_join_that_needed_the_chat_takes_the_seat(
        group: Group) -> None:
    """Dewi taps Join before ever talking to the bot and opens the private chat by hand,
    not through the link the tap gave: her plain /start seats her, as the link would have."""
    dewi = group.users[4]
    async with group.bot():
        await group.open_table("gaple-dead", players=3)
        lobby = group.lobby()
        record = dewi.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: record.answered)
        assert record.url and "start=join" in record.url and dewi.id not in lobby.mentioned_user_ids
        dewi.send_private("/start")
        await group.server.wait_for(lambda: any(
            plain(m.text or "") == "You have a seat at the table in Domino evening: your "
                                   "tiles will come here when the game starts."
            for m in group.server.bot_messages(dewi.private_chat)))
        await group.server.wait_for(lambda: dewi.id in lobby.mentioned_user_ids)


def test_a_link_given_stands_in_for_a_plain_start_once_and_for_ten_minutes() -> None:
    now = [0.0]
    links = StartLinks(clock=lambda: now[0])
    links.give(7, "join12")
    assert links.take(7) == "join12" and links.take(7) == ""
    links.give(7, "join13")
    now[0] += KEPT_SECONDS + 1
    assert links.take(7) == "" and links.take(8) == ""


async def test_an_unmarked_tile_tapped_on_ones_turn_says_which_can_go(group: Group) -> None:
    """A newcomer tapped a tile of their hand that cannot go (Gaple's first lead): "You
    cannot lay that tile now." said nothing of what could (newcomer QA)."""
    async with group.bot():
        table = await group.start("gaple")
        turn = None
        while turn is None:  # a turn whose hand holds a tile that cannot go now
            await group.server.wait_for(lambda: table.whose_turn() is not None)
            user, message = table.whose_turn()  # type: ignore[misc]
            unmarked = [b.text for row in message.buttons for b in row
                        if b.callback_data and not b.text.startswith(PLAY_MARKS)
                        and "-" in b.text]
            turn = (user, message, unmarked[0]) if unmarked else None
            if turn is None:
                await table.play_one()
        user, message, label = turn
        record = user.press(message, label)
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "You cannot lay that tile now: the ones marked ✅ can go."


async def test_help_in_private_offers_to_add_the_bot_to_a_group(group: Group) -> None:
    """/help in the private chat is the same help, with the button that adds the bot to a
    group, where its games are played, as /start there has (newcomer QA); in the group the
    help has no button."""
    ayu = group.users[0]
    async with group.bot():
        ayu.send_private("/help")
        private = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(ayu.private_chat) if m.buttons), None))
        assert "Dominoes for your group" in (private.text or "")
        assert private.buttons[0][0].url == (
            f"https://t.me/{group.server.bot.username}?startgroup=new")
        ayu.send(group.chat, "/help")
        public = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Dominoes for your group" in (m.text or "")), None))
        assert not public.buttons


async def test_a_start_from_someone_seated_in_a_lobby_says_where_the_seat_is(
        group: Group) -> None:
    """QA: Budi, seated at a table not started yet, sent /start and read the newcomer's
    "Hello! Add me to a group…": he is told of his seat, and where (as the lobby's link
    says); once the game runs, /start sends his tiles again, as before."""
    budi = group.users[1]
    async with group.bot():
        await group.open_table("gaple", players=2)
        await group.server.wait_idle()
        last = max(m.message_id for m in group.server.bot_messages(budi.private_chat))
        budi.send_private("/start")
        said = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if m.message_id > last), None))
        assert plain(said.text or "") == ("You have a seat at the table in Domino evening: "
                                          "your tiles will come here when the game starts.")
        assert not said.buttons
