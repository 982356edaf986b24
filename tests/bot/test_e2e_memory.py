"""Memory stays flat: a finished game leaves the bot's memory and is read back from SQLite
whenever something still asks for it ("Play again", /scoreboard, a tap on its messages)."""

from __future__ import annotations

from bot_kit import Group

from bot.handlers.runtime import Runtime
from bot.models import Status
from fakeapi import StoredMessage


def again_message(group: Group) -> StoredMessage | None:
    return next((m for m in group.server.bot_messages(group.chat)
                 if any((b.callback_data or "").startswith("g:")
                        for row in m.buttons for b in row)), None)


async def finish_a_match(group: Group, runtime: Runtime) -> int:
    """Two people play French to a target of 1 (one hand); the game's id."""
    table = await group.start("french target=1", players=2)
    game_id = group.game().game_id
    await table.play_until(group.match_over)
    await runtime.publisher.idle()
    return game_id


async def test_a_finished_game_leaves_memory_and_play_again_reads_it_back(group: Group) -> None:
    async with group.bot() as runtime:
        game_id = await finish_a_match(group, runtime)
        assert runtime.service.game(game_id) is None  # gone from memory...
        assert runtime.service.open_games() == []
        assert len(runtime.locks) == 0  # ...with its lock
        places = runtime.publisher.hands.places
        assert places.chat_titles == {} and places.topic_names == {}
        application = group.extra["application"]
        assert not application.chat_data and not application.user_data  # type: ignore[attr-defined]
        finished = await runtime.service.find(game_id)  # ...and still in the database
        assert finished is not None and finished.status is Status.FINISHED
        assert runtime.service.game(game_id) is None  # reading it did not bring it back
        # the table was brought up to date first: its caption closes as the result says
        assert any(text.endswith("\nThis match is over.") for text in group.texts())

        end = again_message(group)
        assert end is not None
        ayu, budi = group.users[:2]
        record = ayu.press(end, "🔁 Play again")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "A new table is open: the others press Join to play again."
        rematch = group.game()
        assert rematch.game_id != game_id and rematch.status is Status.LOBBY
        assert [p.user_id for p in rematch.players] == [budi.id, ayu.id]  # the lead moves on
        assert rematch.pending == [budi.id]
        assert runtime.service.game(game_id) is None


async def test_a_finished_game_still_counts_on_the_scoreboard_and_in_stats(group: Group) -> None:
    async with group.bot() as runtime:
        game_id = await finish_a_match(group, runtime)
        assert runtime.service.game(game_id) is None
        finished = group.game()
        assert finished.match is not None and finished.match.winner is not None
        winner = group.users[finished.match.sides[finished.match.winner][0]].first_name
        group.users[2].send(group.chat, "/scoreboard")
        board = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if m.photo and "Scoreboard" in (m.caption or "")), None))
        group.users[0].send_private("/stats")
        stats = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.users[0].private_chat)
             if "figures across groups" in (m.text or "")), None))
    first_line = next(line for line in (board.caption or "").splitlines()
                      if line.startswith("1."))
    assert winner in first_line
    assert "French" in (stats.text or "")


async def test_a_tap_on_a_finished_games_hand_is_refused_from_the_database(
    group: Group,
) -> None:
    async with group.bot() as runtime:
        game_id = await finish_a_match(group, runtime)
        assert runtime.service.game(game_id) is None
        ayu = group.users[0]
        # (the last photo: a winner's cheer may follow it)
        hand = [m for m in group.server.bot_messages(ayu.private_chat) if m.photo][-1]
        finished = group.game()
        current = finished.messages.hands.get(0)
        assert current is not None and current.message_id == hand.message_id
        # A client that still shows an old button (a lost edit) taps it.
        record = ayu.press_raw(hand, f"p:{game_id}:{finished.move_no}:0:-")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "This game is over."
        assert runtime.service.game(game_id) is None
