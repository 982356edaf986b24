"""A rematch's private messages never keep a live button that means nothing (player QA): the
invitation ("🔁 … your seat is kept for you", with its Join) says its player is at the table
once they are, however they joined, or that the table started without them or was closed;
the last hand of the match played again loses its "🔁 Play again" once the rematch starts
(not when it is closed: the old result plays again then). Restarts change none of it."""

from __future__ import annotations

from bot_kit import Group, lobby_button, plain
from test_e2e_play_again import played_once

from bot.models import Game, Status
from fakeapi import FakeUser, StoredMessage

PLACE = "↩ The table is in the group Domino evening."


async def invited(group: Group, user: FakeUser) -> StoredMessage:
    """``user``'s rematch invitation, once sent (with its Join)."""
    notice = await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(user.private_chat)
         if "wants to play" in m.content), None))
    assert [b.text for row in notice.buttons for b in row] == ["✋ Join"]
    return notice


def last_hands(group: Group, game: Game, *users: FakeUser) -> list[StoredMessage]:
    """The users' last hand messages of ``game``, in the users' order."""
    return [group.server.message(user.private_chat, game.messages.hands[game.seat_of(
        user.id) or 0].message_id) for user in users]


async def tap(group: Group, user: FakeUser, message: StoredMessage, button: str) -> str | None:
    record = user.press(message, button)
    await group.server.wait_for(lambda: record.answered)
    return record.answer_text


async def test_joined_from_the_group_the_invitation_says_so_and_the_old_play_again_goes(
        group: Group) -> None:
    ayu, budi = group.users[:2]
    async with group.bot() as runtime:
        await played_once(group)
        old = group.game()
        hands = last_hands(group, old, ayu, budi)
        assert [h.button_texts for h in hands] == [["🔁 Play again"]] * 2
        # the match's end, then the way back: the footer is the last line
        assert plain(hands[0].content).endswith(f"won it.\n{PLACE}")
        assert await tap(group, ayu, hands[0], "🔁 Play again") == (
            "A new table is open: the others press Join to play again.")
        invitation = await invited(group, budi)
        rematch = group.game()
        lobby = group.lobby()
        assert await tap(group, budi, lobby, lobby_button(lobby, "j") or "") == (
            "You joined the game.")
        await runtime.publisher.idle()
        assert invitation.buttons == []
        assert plain(invitation.content) == (
            f"🔁 French again: ✅ you are at the table.\n{PLACE}")
        # the old hands' Play again stays while the rematch waits: it seats there too
        assert [h.button_texts for h in hands] == [["🔁 Play again"]] * 2
        [[again]] = hands[1].buttons
        assert await tap(group, ayu, lobby, lobby_button(lobby, "s") or "") == "Let's play!"
        await group.server.wait_for(lambda: rematch.status is Status.PLAYING)
        await runtime.publisher.idle()
        assert [h.buttons for h in hands] == [[], []]
        # a tap that was on its way (a client not refreshed yet) points to the new match
        late = budi.press_raw(hands[1], again.callback_data or "")
        await group.server.wait_for(lambda: late.answered)
        assert late.answer_text == (
            "The new match is on and you are at its table: your tiles are in the newest "
            "message (/hand sends them again).")
        assert plain(hands[0].content).endswith(f"won it.\n{PLACE}")  # (its words stay)
        assert rematch.messages.invitations == {} and rematch.messages.again_hands == {}
        assert plain(invitation.content).startswith("🔁 French again: ✅")  # (edited once)
        assert invitation.edit_count == 1


async def test_a_table_started_without_them_or_closed_says_so_after_a_restart_too(
        group: Group) -> None:
    """The ids are stored: the bot that closes the invitation is not the one that sent it.
    A table closed before it started gives the old hands their Play again back."""
    ayu, budi = group.users[:2]
    async with group.bot():
        await played_once(group)
        old = group.game()
        hands = last_hands(group, old, ayu, budi)
        await tap(group, ayu, hands[0], "🔁 Play again")
        invitation = await invited(group, budi)
    async with group.bot() as runtime:
        rematch = group.game()
        assert rematch.messages.invitations == {budi.id: invitation.message_id}
        lobby = group.lobby()
        await tap(group, ayu, lobby, lobby_button(lobby, "c") or "")
        await group.server.wait_for(lambda: rematch.status is Status.CANCELLED)
        await runtime.publisher.idle()
        assert invitation.buttons == []
        assert plain(invitation.content) == (
            f"🔁 French again: the table was closed before it started.\n{PLACE}")
        assert [h.button_texts for h in hands] == [["🔁 Play again"]] * 2
        # played again from the old hand once more; this time Budi's seat is freed
        await tap(group, ayu, hands[0], "🔁 Play again")
        second = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if "wants to play" in m.content and m.buttons), None))
        rematch = group.game()
        lobby = group.lobby()
        await tap(group, ayu, lobby, lobby_button(lobby, "F") or "")
        await runtime.publisher.idle()
        assert second.buttons == []
        assert plain(second.content) == (
            f"🔁 French again: your seat is no longer kept for you.\n{PLACE}")
        lobby = group.lobby()
        await tap(group, ayu, lobby, "🤖 + normal")
        await tap(group, ayu, lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: rematch.status is Status.PLAYING)
        await runtime.publisher.idle()
        assert [h.buttons for h in hands] == [[], []]
        assert second.edit_count == 1  # (freed, then started: one edit said it)


async def test_a_table_closed_just_before_a_stop_closes_its_invitations_after_the_restart(
        group: Group) -> None:
    """Review: a restart synced the open games and those finished or stopped lately, never
    a cancelled one, so a rematch closed just before the bot stopped (its hands' sync not
    run: here it closes nothing of a cancelled game) kept its invitation's Join for good."""
    ayu, budi = group.users[:2]
    async with group.bot() as runtime:
        await played_once(group)
        hands = last_hands(group, group.game(), ayu, budi)
        await tap(group, ayu, hands[0], "🔁 Play again")
        invitation = await invited(group, budi)
        invitations = runtime.publisher.hands.invitations

        class StoppedFirst:
            async def close_stale(self, game: Game) -> bool:
                return game.status is not Status.CANCELLED \
                    and await invitations.close_stale(game)

        runtime.publisher.hands.invitations = StoppedFirst()  # type: ignore[assignment]
        rematch, lobby = group.game(), group.lobby()
        await tap(group, ayu, lobby, lobby_button(lobby, "c") or "")
        await group.server.wait_for(lambda: rematch.status is Status.CANCELLED)
        await runtime.publisher.idle()
        assert invitation.buttons  # (the bot stopped before closing it)
    async with group.bot() as runtime:
        await runtime.publisher.idle()
        await group.server.wait_for(lambda: not invitation.buttons, timeout=5)
        assert plain(invitation.content) == (
            f"🔁 French again: the table was closed before it started.\n{PLACE}")
