"""An old result's "🔁 Play again" in a group that has played on: refused while the next game
is played (as /newgame is), and stale, its button taken off, once that game is over; the
latest result's opens the table, and the others' taps on it join it."""

from __future__ import annotations

from bot_kit import Group, lobby_button, plain
from test_e2e_leave_stop import leave

from bot.models import Status
from fakeapi import StoredMessage


async def played_once(group: Group) -> StoredMessage:
    """A French match of two played to its end: its result, with its Play again."""
    table = await group.start("french target=1", players=2)
    await table.play_until(group.match_over)
    assert group.runtime is not None
    await group.runtime.publisher.idle()
    [result] = results(group)
    return result


def results(group: Group) -> list[StoredMessage]:
    """The group's match results with their "Play again" button, oldest first."""
    return [m for m in group.messages()
            if any((b.callback_data or "").startswith("g:") for row in m.buttons for b in row)]


async def test_only_the_latest_result_plays_again(group: Group) -> None:
    ayu, budi = group.users[:2]
    async with group.bot() as runtime:
        table = await group.start("french target=1", players=2)
        await table.play_until(group.match_over)
        await runtime.publisher.idle()
        [first] = results(group)
        table = await group.start("french target=1", players=2)
        playing = budi.press(first, "🔁 Play again")
        await group.server.wait_for(lambda: playing.answered)
        assert playing.answer_text == "A game is already running in this chat."
        await table.play_until(lambda: len(results(group)) == 2)
        await runtime.publisher.idle()
        latest = results(group)[1]
        # the button's removal waits its turn in the group's budget: the answer does not
        held = group.server.hold("editMessageCaption", after_acting=False, chat=group.chat,
                                 timeout=30)
        said, marks = first.caption or "", first.entities
        assert said.endswith("\nPlay again with the same players and rules: tap below, or "
                             "/newgame.")
        stale = budi.press(first, "🔁 Play again")
        await group.server.wait_for(lambda: stale.answered, timeout=5)
        assert stale.answer_text == (
            "A newer game has been played here since: use the latest result's 🔁 Play again, "
            "or /newgame.")
        assert runtime.service.open_game_in(group.chat.id) is None
        await group.server.wait_for(lambda: held.holding)
        assert first.buttons != []
        held.release()
        await group.server.wait_for(lambda: first.buttons == [])
        # its words stay, but for the line that pointed to the button
        assert first.caption == said.rsplit("\n", 1)[0]
        assert first.entities == marks and marks  # the bold and the names as they were
        assert results(group) == [latest]
        again = ayu.press(latest, "🔁 Play again")
        await group.server.wait_for(lambda: again.answered)
        assert again.answer_text == "A new table is open: the others press Join to play again."
        joined = budi.press(latest, "🔁 Play again")
        await group.server.wait_for(lambda: joined.answered)
        assert joined.answer_text == "You joined the game."
        rematch = group.game()
        assert rematch.status is Status.LOBBY and rematch.pending == []


async def test_a_stranger_hears_the_same_however_the_tap_is_timed(group: Group) -> None:
    """Someone who did not play the match taps its "Play again": told it is for its players,
    before and after a player opened the table again (QA: after, a link to the private chat
    that would seat them came instead)."""
    ayu, dewi = group.users[0], group.users[4]
    async with group.bot():
        result = await played_once(group)
        answers = []
        for opener in (None, ayu):
            if opener is not None:
                opened = opener.press(result, "🔁 Play again")
                await group.server.wait_for(lambda o=opened: o.answered)  # type: ignore[misc]
            tap = dewi.press(result, "🔁 Play again")
            await group.server.wait_for(lambda t=tap: t.answered)  # type: ignore[misc]
            answers.append((tap.answer_text, tap.url))
    assert answers == [("Only the players of that match can start it again.", None)] * 2


async def test_the_others_are_told_in_private_and_their_join_link_takes_the_seat(
        group: Group) -> None:
    """Player QA: a player who plays from the private chat alone never saw that the table
    played again. Each player asked to confirm hears it there, with a Join that seats them;
    the one who asked for it hears nothing."""
    ayu, budi = group.users[:2]
    async with group.bot() as runtime:
        result = await played_once(group)
        again = ayu.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: again.answered)
        rematch = group.game()
        assert rematch.pending == [budi.id]
        notice = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if "wants to play" in (m.text or "")), None))
        assert plain(notice.content) == (
            "🔁 Ayu wants to play French again in Domino evening, with the same players: your "
            "seat is kept for you. Tap Join to take it.")
        [[join]] = notice.buttons
        assert join.url is not None and join.url.endswith(f"?start=join{rematch.game_id}")
        budi.send_private(f"/start join{rematch.game_id}")
        await group.server.wait_for(lambda: rematch.pending == [])
        assert rematch.seat_of(budi.id) is not None
        await runtime.publisher.idle()
        assert not any("wants to play" in (m.text or "")
                       for m in group.server.bot_messages(ayu.private_chat))


async def test_a_player_who_leaves_the_rematch_before_the_notice_goes_is_not_told(
        group: Group) -> None:
    """Review: the notice's words were chosen before its turn to go, and one who left was
    sent a /notify notice they never asked for (or told their seat was kept)."""
    ayu, budi = group.users[:2]
    async with group.bot() as runtime:
        result = await played_once(group)
        lobby_post = group.server.hold("sendMessage", after_acting=True, chat=group.chat)
        again = ayu.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: again.answered and lobby_post.holding)
        rematch = group.game()
        budi.send(group.chat, "/leave")  # (the notices wait for the lobby's post)
        await group.server.wait_for(lambda: rematch.seat_of(budi.id) is None)
        lobby_post.release()
        await group.server.wait_for(lambda: rematch.messages.lobby is not None)
        await runtime.publisher.idle()
        assert await runtime.storage.pending_notices(rematch.game_id) == []
        assert not [m for m in group.server.bot_messages(budi.private_chat)
                    if "🔁" in (m.text or "") or "🔔" in (m.text or "")]


async def test_the_last_hand_in_private_plays_again_from_there(group: Group) -> None:
    """Player QA: a player of the private chat met the match's end there with no way to a
    rematch (it was the group's button alone). The last hand message offers it too; its tap
    opens the table in the group as the group's would, and the other player is asked."""
    ayu, budi = group.users[:2]
    async with group.bot() as runtime:
        await played_once(group)
        game = group.game()
        last = group.server.message(ayu.private_chat, game.messages.hands[0].message_id)
        assert last.button_texts == ["🔁 Play again"]
        tap = ayu.press(last, "🔁 Play again")
        await group.server.wait_for(lambda: tap.answered)
        assert tap.answer_text == "A new table is open: the others press Join to play again."
        lobby = runtime.service.open_game_in(group.chat.id)
        assert lobby is not None and lobby.status is Status.LOBBY
        assert lobby.seat_of(ayu.id) is not None
        assert budi.id in [p.user_id for p in lobby.players] or budi.id in lobby.pending


async def test_one_who_left_plays_again_in_their_seat_and_no_stand_in_fills_it(
        group: Group) -> None:
    """Icelandic QA: after Budi left with /leave, "Play again" seated the computer that took
    his seat (a rematch of stand-ins leaves no room for people), and Budi's own tap was
    refused as a stranger's. The seat of one who left is open again, and he may open the
    rematch, back in the seat he had."""
    ayu, budi, sergei = group.users[:3]
    async with group.bot() as runtime:
        table = await group.start("french target=1", players=3)
        await leave(group, budi)
        await table.play_until(group.match_over)
        await runtime.publisher.idle()
        [result] = results(group)
        again = budi.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: again.answered)
        assert again.answer_text == "A new table is open: the others press Join to play again."
        rematch = group.game()
        assert rematch.status is Status.LOBBY
        assert [p.user_id for p in rematch.players] == [budi.id, sergei.id, ayu.id]
        assert rematch.pending == [sergei.id, ayu.id]


async def test_a_stranger_at_a_rematch_whose_seats_are_kept_hears_why_it_is_full(
        group: Group) -> None:
    """Indonesian QA: Dewi tapped Join on a rematch whose seats were all kept for the
    match's players and read only "This game is full."."""
    ayu, dewi = group.users[0], group.users[4]
    async with group.bot() as runtime:
        table = await group.start("gaple target=1", players=4)
        await table.play_until(group.match_over)
        await runtime.publisher.idle()
        [result] = results(group)
        again = ayu.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: again.answered)
        await group.server.wait_for(lambda: group.game().messages.lobby is not None)
        lobby = group.lobby()
        late = dewi.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: late.answered)
        assert late.answer_text == ("This table is full: its seats are kept for the last "
                                    "match's players.")
