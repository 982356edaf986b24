"""The questions a game asks in the group (/stop's and /leave's confirmations) and "Play
again", once the match they were about is over."""

from __future__ import annotations

from bot_kit import Group, lobby_button, plain
from test_e2e_hand_change import up_to_the_last_move

from bot.models import Status
from fakeapi import FakeUser, StoredMessage
from fakeapi.players import Table


async def question(group: Group, answer: str) -> StoredMessage:
    """The bot's newest question in the group that offers the button ``answer``."""
    return await group.server.wait_for(lambda: next(
        (m for m in reversed(group.server.bot_messages(group.chat))
         if answer in str(m.button_texts)), None))


async def test_questions_left_open_are_closed_when_the_match_ends(group: Group) -> None:
    ayu, budi = group.users[:2]
    async with group.bot():
        await group.start("gaple target=1")  # one hand decides the match
        group.send(ayu, "/stop")
        stop = await question(group, "Yes, stop the game")
        group.send(budi, "/leave")
        leave = await question(group, "Yes, leave")
        late_leave = leave.button("Yes, leave").callback_data or ""
        await Table(group.server, group.users[:4]).play_until(group.match_over)
        await group.server.wait_for(lambda: not stop.buttons and not leave.buttons)
        assert stop.text == leave.text == "This game is over."
        # A client that still shows the old buttons: the answer says the game is over.
        tap = budi.press_raw(leave, late_leave)
        await group.server.wait_for(lambda: tap.answered)
        assert tap.answer_text == "This game is over."
        assert group.game().status is Status.FINISHED


async def test_a_stopped_game_closes_the_other_questions(group: Group) -> None:
    ayu, budi = group.users[:2]
    async with group.bot():
        await group.start("pair")
        group.send(budi, "/leave")
        leave = await question(group, "Yes, leave")
        group.send(ayu, "/stop")
        stop = await question(group, "Yes, stop the game")
        ayu.press(stop, "Yes, stop the game")
        await group.server.wait_for(lambda: not leave.buttons)
        assert leave.text == "The game was stopped."
        await group.server.wait_for(lambda: stop.deleted)  # (its own call, in either order)


async def test_an_answered_question_is_not_edited_at_the_end(group: Group) -> None:
    """"No, play on" takes the question away; the game's end leaves it alone."""
    ayu = group.users[0]
    async with group.bot():
        await group.start("pair")
        group.send(ayu, "/stop")
        stop = await question(group, "No, play on")
        answer = ayu.press(stop, "No, play on")
        await group.server.wait_for(lambda: answer.answered and stop.deleted)
        assert group.game().messages.questions == []
        group.send(ayu, "/stop")
        again = await question(group, "Yes, stop the game")
        ayu.press(again, "Yes, stop the game")
        await group.server.wait_for(lambda: group.game().status is Status.STOPPED)
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        edits = [r for r in group.server.requests if r.method.startswith("editMessage")
                 and str(r.params.get("message_id")) == str(stop.message_id)]
        assert edits == []


async def test_a_second_play_again_seats_the_tapper_in_the_new_table(group: Group) -> None:
    budi, sergei = group.users[1:3]
    async with group.bot():
        await group.start("gaple target=1")
        await Table(group.server, group.users[:4]).play_until(group.match_over)
        result = await question(group, "🔁 Play again")
        first = budi.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: first.answered)
        lobby = await group.server.wait_for(lambda: next(
            (m for m in reversed(group.server.bot_messages(group.chat))
             if lobby_button(m, "j") and "⏳" in (m.text or "")), None))
        assert sergei.id in group.game().pending
        second = sergei.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: second.answered)
        assert second.answer_text == "You joined the game."
        rematch = group.game()
        assert rematch.status is Status.LOBBY and sergei.id not in rematch.pending
        assert [p.name for p in rematch.players] == ["Budi", "Sergei", "Þóra", "Ayu"]
        await group.server.wait_for(lambda: "Sergei ⏳" not in plain(lobby.content))
        assert "Þóra ⏳" in plain(lobby.content)
        twice = budi.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: twice.answered)
        assert twice.answer_text == "You are already in this game."


async def test_the_creator_of_a_rematch_goes_on_without_a_player_who_never_confirms(
        group: Group) -> None:
    """Þóra never taps Join at the rematch Budi opened: Start tells Budi whom the table waits
    for and how to go on; the 🪑 button frees her seat (Budi's alone), a computer takes it."""
    ayu, budi, sergei = group.users[:3]
    async with group.bot(computer_pause=0.05):
        await group.start("gaple target=1")
        await Table(group.server, group.users[:4]).play_until(group.match_over)
        result = await question(group, "🔁 Play again")
        opened = budi.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: opened.answered)
        lobby = await group.server.wait_for(lambda: next(
            (m for m in reversed(group.server.bot_messages(group.chat))
             if lobby_button(m, "j") and "⏳" in (m.text or "")), None))
        for user in (sergei, ayu):
            record = user.press(lobby, lobby_button(lobby, "j") or "")
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        await group.server.wait_for(lambda: "Ayu ⏳" not in plain(lobby.content))
        assert "Þóra ⏳" in plain(lobby.content)

        async def tap(user: FakeUser, label: str) -> str:
            record = user.press(lobby, label)
            await group.server.wait_for(lambda: record.answered)
            return plain(record.answer_text or "")

        assert await tap(budi, "▶ Start") == (
            "Waiting for Þóra to confirm with Join. To go on without them, free their seats "
            "with the 🪑 button.")
        assert await tap(sergei, "🪑 Free unconfirmed seats") == (
            "Only the player who created the game can free seats.")
        assert len(group.game().players) == 4
        assert await tap(budi, "🪑 Free unconfirmed seats") == (
            "Seat freed: Þóra. Others can Join now, or add a computer player (🤖).")
        await group.server.wait_for(lambda: "1 more player needed." in plain(lobby.content))
        assert "Þóra" not in plain(lobby.content)
        assert "🪑 Free unconfirmed seats" not in str(lobby.button_texts)
        assert await tap(budi, "🤖 + normal") != ""
        assert await tap(budi, "▶ Start") == "Let's play!"
        game = group.game()
        assert game.status is Status.PLAYING and game.players[3].is_computer
        assert [p.name for p in game.players[:3]] == ["Budi", "Sergei", "Ayu"]


async def test_play_again_does_not_seat_the_tapper_at_a_strangers_table(group: Group) -> None:
    """A table someone who did not play the match opened, with the same game and options, is
    not its rematch: an old result's "Play again" does not seat anyone there."""
    dewi, budi = group.users[4], group.users[1]
    async with group.bot():
        await group.start("gaple target=1")
        await Table(group.server, group.users[:4]).play_until(group.match_over)
        result = await question(group, "🔁 Play again")
        dewi.send_private("/start")
        group.send(dewi, "/newgame gaple target=1")
        await group.server.wait_for(lambda: group.game().status is Status.LOBBY)
        tap = budi.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: tap.answered)
        assert tap.answer_text is not None and tap.answer_text.startswith(
            "A table is already open here"), tap.answer_text
        assert [p.name for p in group.game().players] == ["Dewi"]


async def test_a_stop_confirmed_as_the_match_ends_leaves_the_question_closed(
        group: Group) -> None:
    """"Yes, stop" tapped while the last move is being made (the tap waits for the game's
    lock): the stop is refused, and the question is still closed by the game's end, not
    left with live buttons."""
    ayu = group.users[0]
    async with group.bot() as runtime:
        await group.start("gaple target=1")  # one hand decides the match
        game = group.game()
        seat, action = await up_to_the_last_move(runtime, game)
        group.send(ayu, "/stop")
        stop = await question(group, "Yes, stop the game")
        async with runtime.locks.game(game.game_id):
            tap = ayu.press(stop, "Yes, stop the game")
            await group.server.wait_for(  # the tap waits for the lock
                lambda: runtime.locks._games[game.game_id].users >= 2)
            await runtime.service.act(game, game.players[seat].user_id, game.move_no, action)
        await group.server.wait_for(lambda: tap.answered)
        assert tap.answer_text == "This game is over."
        await group.server.wait_for(lambda: not stop.buttons)
        assert stop.text == "This game is over." and group.game().status is Status.FINISHED
