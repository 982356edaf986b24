"""What real Telegram lets people do that a game must take calmly: write anonymously (as the
group or a channel), bear names that show nothing or turn text around, tap buttons days old,
closed, or forged from another group, address another bot, unblock the bot mid-game. Each
gets a clear answer, changes nothing it should not, and logs no error."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from bot_kit import Group, complaints, counting_seeds, lobby_button, plain

from bot.handlers.runtime import Runtime
from bot.models import Status
from bot.presentation.gamebuttons import LobbyAction, LobbyTap
from bot.service.settings import GroupSettings
from fakeapi import FakeTelegramServer, FakeUser, StoredMessage
from fakeapi.players import active_hand


async def test_someone_writing_as_the_group_or_a_channel_is_asked_to_write_as_themselves(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    ayu, budi = group.users[:2]  # Ayu is an admin
    channel = group.server.add_channel("Budi's news")
    async with group.bot():
        group.server.send_as_chat(ayu, group.chat, "/newgame pair")
        group.server.send_as_chat(budi, group.chat, "/newgame gaple", as_chat=channel)
        await group.server.wait_for(lambda: len(
            [t for t in group.texts() if "as yourself" in t]) == 2)
        assert group.service.open_game_in(group.chat.id) is None  # no table nobody can start
        group.server.send_as_chat(ayu, group.chat, "/notify")
        group.server.send_as_chat(ayu, group.chat, "/hand")
        await group.server.wait_for(lambda: len(
            [t for t in group.texts() if "as yourself" in t]) == 4)
    assert not complaints(caplog)


async def test_an_anonymous_admin_may_stop_a_game(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    ayu = group.users[0]
    async with group.bot():
        await group.start("pair")
        group.server.send_as_chat(ayu, group.chat, "/stop")
        ask = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Yes, stop the game" in str(m.button_texts)), None))
        record = ayu.press(ask, "Yes, stop the game")  # (a tap is never anonymous)
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: group.game().status is Status.STOPPED)
    assert not complaints(caplog)


@pytest.mark.parametrize(("first", "last", "username", "shown"), [
    ("ㅤ", None, "ghost", "ghost"),  # a Hangul filler: the "empty name" people choose
    ("\u200b\u2800", None, None, None),  # zero-width and braille blanks: the user's id
    ("ㅤ", "Lee", None, "ㅤ Lee"),  # something to read after all
])
async def test_a_name_that_shows_nothing_is_replaced_by_one_that_does(
        telegram: FakeTelegramServer, tmp_path: Path, first: str, last: str | None,
        username: str | None, shown: str | None) -> None:
    ghost = telegram.add_user(first, last_name=last, username=username, language_code="en")
    others = [telegram.add_user(n, language_code="en") for n in ("Budi", "Sergei", "Dewi")]
    chat = telegram.add_group("G", members=[ghost, *others], admins=[ghost])
    group = Group(telegram, chat, [ghost, *others], tmp_path / "bot.sqlite3", counting_seeds())
    async with group.bot():
        await group.open_table("gaple", 2)
        lobby = group.lobby()
        assert f"1. {shown or ghost.id}\n" in plain(lobby.text or "")


async def test_taps_on_messages_days_old_act_as_on_new_ones(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    """Past two days Telegram sends a tap with an InaccessibleMessage (its chat and id, date
    0) and lets the bot no longer delete the message."""
    ayu, budi = group.users[:2]
    async with group.bot() as runtime:
        ayu.send(group.chat, "/rules")
        picker = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat) if m.buttons), None))
        ayu.send(group.chat, "/settings")
        menu = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if m.buttons and m is not picker), None))
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings().with_general("turn_seconds", 0).to_json())
        table = await group.start("gaple")
        budi.send(group.chat, "/leave")
        leave = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Yes, leave" in str(m.button_texts)), None))
        for message in (picker, menu, leave):
            group.server.age(message, days=3)
        taps = [ayu.press(picker, picker.buttons[0][0].text),
                ayu.press(menu, menu.buttons[0][0].text),
                budi.press(leave, "No, stay")]
        await group.server.wait_for(lambda: all(r.answered for r in taps))
        await runtime.publisher.idle()
        assert group.said("Gaple") and sum("How to play" in t or "Gaple" in t
                                            for t in group.texts()) >= 2  # the rules came
        assert not leave.buttons  # too old to delete: its buttons are gone instead
        # A tile that asks which end, on a hand message days old (nobody has a time limit).
        for _ in range(40):
            user, hand = await group.server.wait_for(table.whose_turn)
            asks = [b for row in hand.buttons for b in row if b.text.startswith("✅")
                    and not (b.callback_data or "").startswith("p:")]
            if asks:
                break
            await table.play_one()
        else:
            # (the deals are seeded: a change to dealing must not turn this into a skip)
            pytest.fail("no tile asked for its end in 40 moves: deal other tiles")
        group.server.age(hand, days=3)
        record = user.press(hand, asks[0].text)
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: any(
            b.text.startswith(("◀", "▶")) or b.text.endswith(("◀", "▶"))
            for row in hand.buttons for b in row), message="the end was not asked")
    assert not complaints(caplog)


async def test_buttons_of_another_groups_game_do_nothing_there_or_here(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    """A modified client can send any button's data from any message: a game's buttons act
    only from its own group (or, for its players, from their private chat)."""
    stranger = group.server.add_user("Mallory", language_code="en")
    other = group.server.add_group("Elsewhere", members=[stranger], admins=[stranger])
    async with group.bot() as runtime:
        await group.open_table("gaple", 2)
        lobby = group.lobby()
        stranger.send_private("/start")
        stranger.send(other, "/help")
        here = await group.server.wait_for(lambda: group.server.last_bot_message(other))
        shown = here.text
        await forged_lobby_taps(group, runtime, stranger, here)
        assert stranger.id not in lobby.mentioned_user_ids and here.text == shown
    assert not complaints(caplog)


async def forged_lobby_taps(group: Group, runtime: Runtime, stranger: FakeUser,
                            on: StoredMessage) -> None:
    """The lobby's Join, Start and Cancel, forged by ``stranger`` on the message ``on``: each
    is out of date, and the two-player lobby stays as it was."""
    game = group.game()
    forged = [stranger.press_raw(on, LobbyTap(game.game_id, action).encode())
              for action in (LobbyAction.JOIN, LobbyAction.START, LobbyAction.CANCEL)]
    await group.server.wait_for(lambda: all(r.answered for r in forged))
    assert {r.answer_text for r in forged} == {"That button is out of date."}
    await runtime.publisher.idle()
    assert group.game().status is Status.LOBBY and len(group.game().players) == 2


async def answered(group: Group, user: FakeUser, count: int) -> list[StoredMessage]:
    """The bot's messages in ``user``'s private chat once there are more than ``count``."""
    await group.server.wait_for(lambda: len(group.server.bot_messages(user.private_chat)) > count)
    return group.server.bot_messages(user.private_chat)


async def test_a_lobby_button_forged_in_a_strangers_private_chat_does_nothing(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    """The same from the stranger's chat with the bot, on a message whose id is the lobby's
    (each chat numbers its own): only a game's players act on it from a private chat."""
    stranger = group.server.add_user("Mallory", language_code="en")
    async with group.bot() as runtime:
        await group.open_table("gaple", 2)
        game = group.game()
        lobby = game.messages.lobby
        assert lobby is not None
        mine: list[StoredMessage] = []
        while not mine or mine[-1].message_id < lobby:  # /help: a message and its answer
            if mine and (lobby - mine[-1].message_id) % 2:
                stranger.send_private("/nosuch")  # unanswered: one id
            stranger.send_private("/help")
            mine = await answered(group, stranger, len(mine))
        here = next(m for m in mine if m.message_id == lobby)
        await forged_lobby_taps(group, runtime, stranger, here)
    assert not complaints(caplog)


async def test_a_closed_lobbys_buttons_say_it_was_closed(group: Group) -> None:
    async with group.bot():
        await group.open_table("pair", 2)
        lobby = group.lobby()
        data = [lobby_button(lobby, kind) or "" for kind in ("j", "s", "l")]
        group.users[0].press(lobby, lobby_button(lobby, "c") or "")
        await group.server.wait_for(lambda: group.game().status is Status.CANCELLED)
        late = [group.users[1].press_raw(lobby, d) for d in data]  # a client still showing them
        await group.server.wait_for(lambda: all(r.answered for r in late))
    assert {r.answer_text for r in late} == {"This table was closed before the game started."}


async def test_commands_to_another_bot_are_left_to_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Without privacy mode (or as an admin) the bot reads every message of the group:
    /newgame@OtherBot is not for it, /help@its_own_name (in any case) is."""
    async with FakeTelegramServer(privacy_mode=False) as server:
        users = [server.add_user(n, language_code="en") for n in ("Ayu", "Budi")]
        chat = server.add_group("G", members=users, admins=users[:1])
        group = Group(server, chat, users, tmp_path / "bot.sqlite3", counting_seeds())
        async with group.bot():
            users[0].send(chat, "/newgame@OtherBot pair")
            users[0].send(chat, "/help@OtherBot")
            users[1].send(chat, "good game everyone")
            users[1].send(chat, "/help@Domino_Test_Bot")
            await server.wait_for(lambda: server.bot_messages(chat))
            await server.wait_idle()
            assert [m.text.split("\n")[0] for m in server.bot_messages(chat)  # type: ignore[union-attr]
                    ] == ["Dominoes for your group"]
        server.assert_no_violations()
    assert not complaints(caplog, logging.WARNING)


@pytest.mark.parametrize("name", ["محمد عبد الرحمن", "😀" * 64, "<b>Ann</b> & Lee", "\u202eevil"])
async def test_odd_names_play_through_texts_and_pictures(
        telegram: FakeTelegramServer, tmp_path: Path, name: str,
        caplog: pytest.LogCaptureFixture) -> None:
    users = [telegram.add_user(name, language_code="en")]
    users += [telegram.add_user(n, language_code="en") for n in ("Budi", "Sergei", "Dewi")]
    chat = telegram.add_group("G", members=users, admins=users[:1])
    group = Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())
    async with group.bot():
        table = await group.start("gaple")
        for _ in range(6):
            await table.play_one()
        assert any(m.photo for m in telegram.bot_messages(chat))
    assert not complaints(caplog, logging.WARNING)


async def test_a_player_who_unblocks_the_bot_gets_their_tiles_without_asking(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    """Unblocking tells the bot (my_chat_member): the tiles go at once, /start or not."""
    async with group.bot():
        table = await group.start("gaple")
        user, _ = await group.server.wait_for(table.whose_turn)
        after = group.users[(group.users.index(user) + 1) % 4]
        after.block_bot()
        await table.play_one()
        await group.server.wait_for(lambda: group.said("I cannot send " + after.first_name))
        after.unblock_bot()
        await group.server.wait_for(lambda: active_hand(group.server, after) is not None,
                                    message="the tiles were not sent on the unblock")
        await table.play_one()
    assert not complaints(caplog)


COMMANDS = ("/start", "/newgame", "/notify", "/table", "/stop", "/leave", "/settings", "/hand",
            "/rules", "/help", "/scoreboard", "/stats", "/replay", "/verify", "/start join0",
            "/replay 1", "/verify 1 1", "/scoreboard x", "/stats @x", "/start hand99")


async def test_every_command_in_either_place_gets_one_answer_and_no_error(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    """In private what belongs to a group, in the group what belongs to the private chat;
    and a channel the bot is added to and removed from says nothing."""
    ayu, budi = group.users[:2]
    channel = group.server.add_channel("News")
    async with group.bot() as runtime:
        group.server.add_bot(channel)
        for command in COMMANDS:
            ayu.send_private(command)
            budi.send(group.chat, command)
        group.server.kick_bot(channel)
        await group.server.wait_for(
            lambda: len(group.server.bot_messages(ayu.private_chat)) == len(COMMANDS)
            and len(group.server.bot_messages(group.chat)) == len(COMMANDS), timeout=20)
        await group.server.wait_idle()
        await runtime.publisher.idle()
    assert len(group.server.bot_messages(ayu.private_chat)) == len(COMMANDS)
    assert len(group.server.bot_messages(group.chat)) == len(COMMANDS)
    assert not any("went wrong" in t for t in group.texts())
    assert not complaints(caplog, logging.WARNING)
