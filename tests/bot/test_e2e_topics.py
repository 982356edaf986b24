"""Forum supergroups: each topic holds its own game, and all it says stays in that topic.

A topic's id is the id of the message that created it; the General topic has none: messages
there carry no message_thread_id, and the bot sends there without one (the Bot API answers
"message thread not found" to message_thread_id=1).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from bot_kit import NAMES, Group, counting_seeds, lobby_button, plain

from bot.computers import computer
from bot.handlers.runtime import Runtime
from bot.models import Game, Outgoing, Status
from bot.presentation.painter import Urgency
from bot.storage import OutboxItem
from fakeapi import FakeChat, FakeTelegramServer, FakeTopic, FakeUser, StoredMessage
from fakeapi.players import Table, live_buttons

NORMAL = 1  # index of the "normal" computer level on the lobby's buttons


@pytest.fixture
def forum(telegram: FakeTelegramServer, tmp_path: Path) -> Group:
    """A forum supergroup (General only, so far); Ayu is its admin, the bot is not."""
    users = [telegram.add_user(name, language_code="en") for name in NAMES]
    chat = telegram.add_group("Domino club", members=users, admins=users[:1], forum=True)
    return Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())


def place(forum: Group, topic: FakeTopic | None, users: Sequence[FakeUser]) -> Group:
    """The same forum and bot, seen from one topic (None: General), with these players."""
    return replace(forum, users=list(users), topic=topic, extra={})


def two_topics(forum: Group) -> list[tuple[FakeTopic, Group]]:
    """Ayu opens the topics "Evening" (Ayu and Budi play there) and "Weekend" (Sergei and
    Þóra)."""
    topics = [forum.server.create_topic(forum.chat, name, forum.users[0])
              for name in ("Evening", "Weekend")]
    return [(topic, place(forum, topic, forum.users[2 * i: 2 * i + 2]))
            for i, topic in enumerate(topics)]


@asynccontextmanager
async def running(forum: Group, *places: Group) -> AsyncIterator[Runtime]:
    async with forum.bot(computer_pause=0.02) as runtime:
        for each in places:
            each.runtime = runtime
        yield runtime


async def open_table(at: Group, game: str = "gaple", computers: int = 2) -> Table:
    """The place's people open a table there, computers fill the other seats, it starts."""
    for user in at.users:
        user.send_private("/start")
    at.send(at.users[0], f"/newgame {game}")
    lobby = await at.server.wait_for(at._lobby_or_none, message="a lobby in the topic")
    for user in at.users[1:]:
        record = user.press(lobby, lobby_button(lobby, "j") or "")
        await at.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
    gid = at.game().game_id
    for _ in range(computers):
        record = at.users[0].press(lobby, f"a:{gid}:{NORMAL}")
        await at.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
    start = at.users[0].press(lobby, lobby_button(lobby, "s") or "")
    await at.server.wait_for(lambda: start.answered)
    assert start.answer_text == "Let's play!"
    return Table(at.server, at.users)


def threads(server: FakeTelegramServer, chat: FakeChat) -> set[int | None]:
    return {m.thread_id for m in server.bot_messages(chat)}


def was_lobby(message: StoredMessage) -> bool:
    """The message was sent as a lobby (with its Join button)."""
    return any(b.callback_data and b.callback_data.startswith("j:")
               for row in message.versions[0].buttons for b in row)


def general_texts(forum: Group) -> list[str]:
    return [m.content for m in forum.server.topic_messages(forum.chat, None)]


async def test_two_topics_hold_two_games_at_once_each_in_its_own_topic(forum: Group) -> None:
    server, ayu = forum.server, forum.users[0]
    (evening, first), (weekend, second) = two_topics(forum)
    async with running(forum, first, second) as runtime:
        table_one = await open_table(first)
        table_two = await open_table(second)
        one, two = first.game(), second.game()
        assert one.game_id != two.game_id
        assert (one.thread_id, two.thread_id) == (evening.thread_id, weekend.thread_id)
        await table_one.play_until(lambda: bool(first.hand_results()))
        await table_two.play_one()
        # A second /newgame in a busy topic points at its game, in that topic.
        first.send(ayu, "/newgame gaple")
        await server.wait_for(lambda: first.said("A game is already running in this topic."))
        # "⬇ Table" there speaks of the topic too.
        await runtime.publisher.idle()
        assert one.messages.table_message is not None
        shown = server.message(forum.chat, one.messages.table_message)
        record = forum.users[1].press(shown, "⬇ Table")
        await server.wait_for(lambda: record.answered)
        assert record.answer_text == "The table is at the bottom of the topic now."
        await runtime.publisher.idle()
        asked = ayu.send_private("/table")  # (Ayu plays in that topic alone)
        answer = await server.wait_for(lambda: next(
            (m for m in server.bot_messages(ayu.private_chat)
             if m.message_id > asked.message_id and not m.photo), None))
        # (the table was posted again a moment ago: once more when the gap is over)
        assert answer.text == "Your table comes down to the bottom of its topic in a few seconds."
        await server.wait_idle()
    assert one.status is two.status is Status.PLAYING
    assert threads(server, forum.chat) == {evening.thread_id, weekend.thread_id}
    assert first.hand_results() and not second.hand_results()
    for at in (first, second):
        lobby = next(m for m in at.messages() if was_lobby(m))
        assert set(lobby.versions[-2].text or "") >= {u.first_name[0] for u in at.users}
        assert any(m.photo for m in at.messages()), "the table picture is in the topic"
    assert not second.said("A game is already running")
    # Hands still go privately, to each player of each table.
    for user in forum.users[:4]:
        assert any(m.photo and m.buttons for m in server.bot_messages(user.private_chat))
    # Every send to the group named its topic.
    sends = server.requests_for("sendPhoto", forum.chat) + server.requests_for(
        "sendMessage", forum.chat)
    assert sends and all(r.params.get("message_thread_id") in (evening.thread_id,
                                                               weekend.thread_id)
                         for r in sends)


async def test_computers_at_two_tables_of_a_group_have_different_names(forum: Group) -> None:
    """Player QA: the tables of two topics both had a "🤖 Rio"; a computer seated at one
    table takes a name no computer has at the group's other open tables, while one is free."""
    (_, first), (_, second) = two_topics(forum)
    async with running(forum, first, second):
        await open_table(first)
        await open_table(second)
        one, two = first.game(), second.game()
        await forum.server.wait_idle()
    names = [[p.name for p in game.players if p.is_computer] for game in (one, two)]
    assert names == [["🤖 Rio", "🤖 Zeno"], ["🤖 Nova", "🤖 Juno"]]


def test_a_computer_takes_a_name_used_elsewhere_only_when_no_other_is_free() -> None:
    taken = {computer("normal", set()).user_id}
    elsewhere = {computer("normal", taken).user_id, -203, -204}  # Zeno, Nova, Juno
    assert computer("normal", taken, elsewhere).name == "🤖 Zeno"
    assert computer("normal", taken, {-203}).name == "🤖 Zeno"
    assert computer("normal", set(), {-201, -202}).name == "🤖 Nova"


async def test_the_general_topic_plays_without_a_thread_id(forum: Group) -> None:
    server = forum.server
    general = place(forum, None, forum.users[:2])
    corner = server.create_topic(forum.chat, "Corner", forum.users[2])
    side = place(forum, corner, forum.users[2:3])
    async with running(forum, general, side):
        table = await open_table(general)
        side.send(side.users[0], "/newgame gaple")  # General's game does not hold the topic
        await server.wait_for(side._lobby_or_none, message="a lobby in the topic")
        await table.play_until(lambda: bool(general.hand_results()))
        await server.wait_idle()
    assert general.game().thread_id is None and side.game().thread_id == corner.thread_id
    assert general.hand_results() and any(m.photo for m in general.messages())
    assert [m for m in general.messages() if was_lobby(m)]
    assert side.lobby() not in general.messages()
    for record in server.requests_for(None, forum.chat):
        if record.method in ("sendMessage", "sendPhoto") and record.ok:
            assert record.params.get("message_thread_id") in (None, corner.thread_id)
    assert not [e for e in server.errors if "thread" in (e.description or "")]


@asynccontextmanager
async def under_way(forum: Group) -> AsyncIterator[tuple[FakeTopic, Group, Table, Runtime]]:
    """Ayu and Budi (and two computers) play Gaple in the topic "Evening"; one move made."""
    topic = forum.server.create_topic(forum.chat, "Evening", forum.users[0])
    at = place(forum, topic, forum.users[:2])
    async with running(forum, at) as runtime:
        table = await open_table(at)
        await table.play_one()
        yield topic, at, table, runtime
        await forum.server.wait_idle(quiet=0.5)
        await runtime.publisher.idle()


#: General's words for the game of the topic "Evening" closed while it was played.
CLOSED_EVENING = ("The topic “\u2068Evening\u2069” was closed, so its Gaple game ends with no "
                  "result. Open a new table with /newgame.")


def told_in_general(forum: Group, what: str) -> list[str]:
    return [t for t in general_texts(forum) if f"was {what}" in t]


async def test_a_topic_closed_during_a_game_stops_it_and_general_hears_why(
    forum: Group,
) -> None:
    server, ayu = forum.server, forum.users[0]
    async with under_way(forum) as (topic, at, table, runtime):
        game = at.game()
        player, hand = await server.wait_for(table.whose_turn, message="a human's turn")
        tile = hand.button(live_buttons(hand)[0]).callback_data or ""
        server.close_topic(topic, ayu)  # Telegram tells the bot: "forum_topic_closed"
        await server.wait_for(lambda: told_in_general(forum, "closed"),
                              message="General told that the topic was closed")
        stale = player.press_raw(hand, tile)  # its buttons no longer play
        await server.wait_for(lambda: stale.answered)
        assert runtime.service.open_game_in(forum.chat.id, topic.thread_id) is None
    assert game.status is Status.STOPPED and game.thread_id is None
    [told] = told_in_general(forum, "closed")
    said, revealed = told.split("\n")  # (and the unfinished hand's seed, to check its deal)
    assert said == CLOSED_EVENING and revealed.startswith("🔓 The unfinished hand's seed: ")
    assert not at.said("The match is over")
    assert len([e for e in server.errors if "TOPIC_CLOSED" in (e.description or "")]) <= 1
    assert stale.answer_text == "This game is over."


async def test_newgame_in_a_closed_topic_is_answered_in_private_not_in_general(
        forum: Group) -> None:
    """An admin may still write in a closed topic, the bot (not an admin) may not: Telegram
    answers its sends there "TOPIC_CLOSED". A /newgame sent there opens no table and
    says nothing in General; its sender hears why in private."""
    server, ayu = forum.server, forum.users[0]
    topic = server.create_topic(forum.chat, "Evening", ayu)
    at = place(forum, topic, forum.users[:2])
    ayu.send_private("/start")
    server.close_topic(topic, ayu)
    async with running(forum, at) as runtime:
        at.send(ayu, "/newgame gaple")
        told = await server.wait_for(lambda: next(
            (m for m in server.bot_messages(ayu.private_chat)
             if "could not open" in m.content), None), message="Ayu told in private")
        await server.wait_idle(quiet=0.3)
        await runtime.publisher.idle()
        assert runtime.service.open_games() == []
    assert plain(told.content) == (
        "I could not open the Gaple table: the topic “Evening” is closed, so I may not write "
        "there. Reopen it, or send /newgame in another topic.")
    assert general_texts(forum) == [] and server.topic_messages(forum.chat, topic) == []
    assert len(server.bot_messages(ayu.private_chat)) == 2  # (the /start's welcome)


async def test_newgame_in_a_closed_topic_by_a_stranger_to_the_bot_says_nothing(
        forum: Group) -> None:
    """Ayu never opened a private chat with the bot: nobody hears of the refused table."""
    server, ayu = forum.server, forum.users[0]
    topic = server.create_topic(forum.chat, "Evening", ayu)
    server.close_topic(topic, ayu)
    at = place(forum, topic, forum.users[:2])
    async with running(forum, at) as runtime:
        at.send(ayu, "/newgame gaple")
        await server.wait_for(lambda: any("TOPIC_CLOSED" in (e.description or "")
                                          for e in server.errors))
        await server.wait_idle(quiet=0.3)
        await runtime.publisher.idle()
        assert runtime.service.open_games() == []
    assert server.bot_messages(forum.chat) == server.bot_messages(ayu.private_chat) == []


async def test_a_topic_closed_while_its_table_is_drawn_posts_nothing_in_general(
    forum: Group,
) -> None:
    """The topic is closed while a move's table is being drawn (the group's sync made its
    draft and waits for the picture): the game moves to General, and that sync, picking up
    after the drawing, must not post the topic's table there (nor anything but the notice)."""
    server, ayu = forum.server, forum.users[0]
    async with under_way(forum) as (topic, at, table, runtime):
        game = at.game()
        painter = runtime.pictures.painter
        draw, gate, waiting = painter.draw, asyncio.Event(), []

        def slow_table(drawing: Callable[[], bytes], urgency: Urgency) -> asyncio.Future[bytes]:
            drawn = draw(drawing, urgency)
            if urgency is not Urgency.TABLE:
                return drawn
            slow: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
            waiting.append(slow)

            async def later() -> None:
                await gate.wait()
                slow.set_result(await drawn)
            background.append(asyncio.ensure_future(later()))
            return slow

        background: list[asyncio.Future[None]] = []
        player, hand = await server.wait_for(table.whose_turn, message="a human's turn")
        painter.draw = slow_table  # type: ignore[method-assign]
        try:
            player.press(hand, live_buttons(hand)[0])
            await server.wait_for(lambda: waiting, message="the move's table being drawn")
            server.close_topic(topic, ayu)
            await server.wait_for(lambda: game.status is Status.STOPPED,
                                  message="the game stopped (its notice waits for the sync)")
        finally:
            gate.set()
        await asyncio.gather(*background)
        await server.wait_for(lambda: told_in_general(forum, "closed"),
                              message="General told that the topic was closed")
        await runtime.publisher.idle()
    assert game.status is Status.STOPPED and game.thread_id is None
    assert [text.split("\n")[0] for text in general_texts(forum)] == [CLOSED_EVENING]
    assert not [m for m in server.topic_messages(forum.chat, None) if m.photo]


async def test_a_topic_closed_while_its_outbox_is_read_sends_nothing_of_it_to_general(
    forum: Group,
) -> None:
    """The topic is closed while the group's sync reads the game's announcements ("a computer
    takes the seat of Budi", queued for the topic): the stop drops them, and the rows read
    before it must not go to General, where the game has moved; only the notice does."""
    server, ayu = forum.server, forum.users[0]
    async with under_way(forum) as (topic, at, _, runtime):
        game, budi = at.game(), forum.users[1]
        storage = runtime.service.storage
        read, gate, waiting = storage.pending_outbox, asyncio.Event(), []

        async def slow_read(game_id: int) -> list[OutboxItem]:
            items = await read(game_id)
            if items:
                waiting.append(items)
                await gate.wait()
            return items

        at.send(budi, "/leave")
        ask = await server.wait_for(lambda: next(
            (m for m in server.bot_messages(forum.chat) if "Yes, leave" in str(m.button_texts)),
            None))
        storage.pending_outbox = slow_read  # type: ignore[method-assign]
        try:
            budi.press(ask, "Yes, leave")
            await server.wait_for(lambda: waiting, message="the sync reading the announcement")
            server.close_topic(topic, ayu)
            await server.wait_for(lambda: game.status is Status.STOPPED,
                                  message="the game stopped (its notice waits for the sync)")
        finally:
            gate.set()
        await server.wait_for(lambda: told_in_general(forum, "closed"),
                              message="General told that the topic was closed")
        await runtime.publisher.idle()
    (told,) = general_texts(forum)
    assert told.startswith(CLOSED_EVENING) and "takes the seat" not in told


async def test_a_topic_closed_before_the_outbox_is_read_sends_nothing_of_it_to_general(
    forum: Group,
) -> None:
    """The stop has moved the game to General in memory while its commit, which drops the
    topic's announcements, is still in flight (another connection, as on PostgreSQL), when
    the group's sync reads the outbox: it reads no thread and rows still there, and must
    not post them in General; the stop's own sync posts only its notice."""
    server, ayu = forum.server, forum.users[0]
    async with under_way(forum) as (topic, at, _, runtime):
        game, budi = at.game(), forum.users[1]
        storage, group_sync = runtime.service.storage, runtime.publisher.group
        sync, save_status = group_sync.sync, storage.save_status
        syncs, commits, syncing, committing = (asyncio.Event() for _ in range(4))

        async def held_sync(game_id: int) -> None:
            syncing.set()
            await syncs.wait()
            await sync(game_id)

        async def slow_save(stopped: Game, status: Status, outgoing: Sequence[Outgoing],
                            now: float, drop_outbox: bool = False) -> None:
            if status is Status.STOPPED:
                committing.set()
                await commits.wait()
            await save_status(stopped, status, outgoing, now, drop_outbox)

        at.send(budi, "/leave")
        ask = await server.wait_for(lambda: next(
            (m for m in server.bot_messages(forum.chat) if "Yes, leave" in str(m.button_texts)),
            None))
        await runtime.publisher.idle()
        group_sync.sync = held_sync  # type: ignore[method-assign]
        storage.save_status = slow_save  # type: ignore[method-assign, assignment]
        try:
            budi.press(ask, "Yes, leave")  # queues "a computer takes the seat of Budi"
            await asyncio.wait_for(syncing.wait(), 5)
            server.close_topic(topic, ayu)
            await asyncio.wait_for(committing.wait(), 5)
            assert game.thread_id is None and game.status.open
            syncs.set()
            await asyncio.sleep(0.5)  # the sync reads the rows the stop is dropping
        finally:
            syncs.set()
            commits.set()
        await server.wait_for(lambda: told_in_general(forum, "closed"),
                              message="General told that the topic was closed")
        await runtime.publisher.idle()
    (told,) = general_texts(forum)
    assert "takes the seat" not in told


async def test_table_asked_again_in_the_gap_is_answered_in_the_topic(forum: Group) -> None:
    """/table twice in a moment in a topic: the second is told, there, that the table comes
    down to the bottom of the topic once the gap is over."""
    server, ayu = forum.server, forum.users[0]
    async with under_way(forum) as (_, at, _table, runtime):
        runtime.publisher.group.reposts.repost_gap = 60.0
        table = at.game().messages.table_message
        at.send(ayu, "/table")
        await server.wait_for(lambda: at.game().messages.table_message != table,
                              message="the table posted again in the topic")
        at.send(ayu, "/table")
        await server.wait_for(lambda: at.said("in a few seconds"), message="the answer")
    assert at.texts()[-1] == "The table comes down to the bottom of the topic in a few seconds."
    assert not general_texts(forum)


async def test_a_deleted_topic_stops_its_game_without_retrying_forever(forum: Group) -> None:
    server = forum.server
    async with under_way(forum) as (topic, at, table, runtime):
        game = at.game()
        server.delete_topic(topic)  # Telegram tells bots nothing: the next send finds out
        await table.play_one(done=lambda: not game.status.open)
        await server.wait_for(lambda: told_in_general(forum, "deleted"),
                              message="General told that the topic was deleted")
        assert runtime.service.open_game_in(forum.chat.id, topic.thread_id) is None
        await server.wait_idle(quiet=0.5)
        await runtime.publisher.idle()
    assert game.status is Status.STOPPED and len(told_in_general(forum, "deleted")) == 1
    assert game.messages.topic_deleted  # and its players hear in private why it stopped
    for user in forum.users[:2]:
        hands = [m for m in server.bot_messages(user.private_chat) if m.photo]
        assert "The game was stopped: its topic was deleted." in plain(hands[-1].content)
    gone = [e for e in server.errors if "thread not found" in (e.description or "")]
    assert 1 <= len(gone) <= 2
    assert not server.topic_messages(forum.chat, topic)  # the topic's messages went with it
    assert not [m for m in server.bot_messages(forum.chat) if m.photo and not m.deleted], \
        "the stopped table is not posted again in General"


async def test_games_in_topics_survive_a_restart(forum: Group) -> None:
    server, ayu = forum.server, forum.users[0]
    (evening, first), (weekend, second) = two_topics(forum)
    async with running(forum, first, second):
        table = await open_table(first)
        await table.play_one()
        second.send(second.users[0], "/newgame gaple")
        await server.wait_for(second._lobby_or_none)
        first_id, second_id = first.game().game_id, second.game().game_id
        second.users[1].send_private("/start")
    async with running(forum, first, second) as runtime:
        resumed = runtime.service.open_game_in(forum.chat.id, evening.thread_id)
        lobby = runtime.service.open_game_in(forum.chat.id, weekend.thread_id)
        assert resumed is not None and resumed.game_id == first_id
        assert lobby is not None and lobby.game_id == second_id
        assert runtime.service.open_game_in(forum.chat.id) is None  # General is free
        await table.play_until(lambda: bool(first.hand_results()))
        join = second.users[1].press(second.lobby(), lobby_button(second.lobby(), "j") or "")
        await server.wait_for(lambda: join.answered)
        first.send(ayu, "/newgame gaple")
        await server.wait_for(lambda: first.said("A game is already running"))
        await server.wait_idle()
    assert threads(server, forum.chat) == {evening.thread_id, weekend.thread_id}
    assert second.users[1].id in second.lobby().mentioned_user_ids
    assert first.hand_results()


async def test_commands_asked_in_a_topic_are_answered_there(forum: Group) -> None:
    server, ayu = forum.server, forum.users[0]
    topic = server.create_topic(forum.chat, "Evening", ayu)
    at = place(forum, topic, forum.users[:2])
    async with running(forum, at):
        at.send(ayu, "/scoreboard")
        await server.wait_for(lambda: at.messages(), message="a scoreboard in the topic")
        at.send(ayu, "/newgame")  # the game picker, and the lobby it opens, stay there too
        picker = await server.wait_for(lambda: next(
            (m for m in at.messages() if m.buttons and lobby_button(m, "j") is None), None))
        record = ayu.press(picker, picker.buttons[0][0].text)
        await server.wait_for(lambda: record.answered)
        await server.wait_for(at._lobby_or_none, message="the picked game's lobby")
        at.send(ayu, "/stop")  # a lobby is closed with its Cancel: the answer says so
        await server.wait_for(lambda: at.said("press Cancel in the lobby"))
        await server.wait_idle()
    assert not general_texts(forum)
    assert at.texts()[0].startswith(("No games", "Scoreboard", "No finished")), at.texts()[0]
    assert at.game().thread_id == topic.thread_id
