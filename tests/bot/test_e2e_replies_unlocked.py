"""A command's refusal is said once the game's lock is free: a slow answer or a flood wait
in the chat it goes to does not hold back the lobby's taps meanwhile (as a hand's question
does not hold back the table's: test_e2e_question_lock)."""

from __future__ import annotations

from bot_kit import Group, lobby_button

#: How long the refusal's send is held: far longer than a tap may wait for its answer.
HOLD = 20.0
#: How soon a lobby tap is answered while the refusal is held.
PROMPT = 3.0


async def lobby_tap_answered(group: Group) -> None:
    """A seated player's Join tap (already in) is answered at once."""
    lobby = group.lobby()
    record = group.users[1].press(lobby, lobby_button(lobby, "j") or "")
    await group.server.wait_for(lambda: record.answered, timeout=PROMPT,
                                message="a lobby tap waited for a refusal's send")
    assert "already" in (record.answer_text or ""), record.answer_text


async def test_leave_refused_to_the_creator_holds_back_no_lobby_tap(group: Group) -> None:
    async with group.bot():
        await group.open_table("pair")
        await group.server.wait_idle()
        held = group.server.hold("sendMessage", after_acting=False, chat=group.chat,
                                 timeout=HOLD)
        group.send(group.users[0], "/leave")
        await group.server.wait_for(lambda: held.holding)
        await lobby_tap_answered(group)
        held.release()
        await group.server.wait_for(lambda: group.said("cancel it instead"))
        await group.server.wait_idle()


async def test_a_full_tables_link_holds_back_no_lobby_tap(group: Group) -> None:
    dewi = group.users[4]
    async with group.bot():
        await group.open_table("pair")
        game = group.game()
        dewi.send_private("/start")
        await group.server.wait_idle()
        held = group.server.hold("sendMessage", after_acting=False, chat=dewi.private_chat,
                                 timeout=HOLD)
        dewi.send_private(f"/start join{game.game_id}")
        await group.server.wait_for(lambda: held.holding)
        await lobby_tap_answered(group)
        held.release()
        await group.server.wait_for(lambda: any(
            "full" in (m.text or "") for m in group.server.bot_messages(dewi.private_chat)))
        await group.server.wait_idle()
