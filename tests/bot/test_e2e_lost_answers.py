"""Lost answers: a call that went through (or not) while its answer never came back. What a
user sees must not double (docs/ARCHITECTURE.md, "Lost answers"), and every tap is answered."""

from __future__ import annotations

import re

import pytest
from bot_kit import Group, lobby_button

from fakeapi import FakeUser, StoredMessage
from fakeapi.players import active_hand, live_buttons

OUT_OF_DATE = "That message is out of date: your tiles are in the newest one."


def held_tile(label: str) -> tuple[int, int]:
    """The tile a hand button names ("✅ 3-4", "3-4")."""
    low, high = label.split()[-1].split("-")
    return int(low), int(high)


def held(group: Group, user: FakeUser) -> list[tuple[int, int]]:
    """The tiles on the user's newest hand message."""
    messages = [m for m in group.server.bot_messages(user.private_chat) if m.photo]
    if not messages:
        return []
    return [held_tile(b.text) for row in messages[-1].buttons for b in row
            if re.fullmatch(r"(?:\S+ )?\d+-\d+", b.text)]


def live_hands(group: Group, user: FakeUser) -> list[StoredMessage]:
    """The user's hand messages that still show buttons to lay a tile."""
    return [m for m in group.server.bot_messages(user.private_chat) if live_buttons(m)]


@pytest.mark.parametrize("after_acting", [False, True], ids=["before", "after"])
async def test_a_lost_hand_message_leaves_one_live_keyboard(group: Group,
                                                            after_acting: bool) -> None:
    async with group.bot():
        table = await group.start("pair")
        user, lead = await group.server.wait_for(table.whose_turn)
        seat = group.users.index(user)
        # every hand is there before any send is made to fail
        await group.server.wait_for(lambda: all(held(group, u) for u in group.users[:4]))
        # The fake drops the first call armed (of those in a chat) only: the player who plays
        # after the lead (the first after the leader with a tile that fits) goes first, so
        # that they lose the answer to the hand message that says it is their turn
        laid = set(held_tile(live_buttons(lead)[0]))
        after = [group.users[(seat + k) % 4] for k in (1, 2, 3)]
        fits = [u for u in after if any(laid & set(t) for t in held(group, u))]
        others = fits[:1] + [u for u in after if u is not fits[0]]
        for other in others:
            group.server.drop_connection("sendPhoto", after_acting=after_acting,
                                         chat=other.private_chat)
        await table.play_one()
        dropped = await group.server.wait_for(lambda: group.server.dropped)
        victim = next(u for u in others if u.private_chat.id == dropped[0].chat_id)
        hands = group.game().messages.hands
        victim_seat = group.users.index(victim)

        def recorded() -> StoredMessage | None:  # the hand message the bot knows it sent
            known = hands.get(victim_seat)
            if known is None or ":A:" not in known.key:
                return None
            message = group.server.message(victim.private_chat, known.message_id)
            return message if live_buttons(message) else None

        current = await group.server.wait_for(recorded)
        assert active_hand(group.server, victim) is current  # the newest is the current one
        strays = [m for m in live_hands(group, victim) if m is not current]
        assert len(strays) == (1 if after_acting else 0)
        for stray in strays:  # the stray's buttons act on nothing, and it says so
            move_no = group.game().move_no
            record = victim.press(stray, live_buttons(stray)[0])
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
            assert record.answer_text == OUT_OF_DATE
            assert group.game().move_no == move_no
            await group.server.wait_for(lambda s=stray: not live_buttons(s))  # type: ignore[misc]
            assert stray.caption == OUT_OF_DATE.replace("That", "This")
        assert live_hands(group, victim) == [current]
        assert seat != group.users.index(victim)
        await table.play_one()  # the current message plays on


@pytest.mark.parametrize("after_acting", [False, True], ids=["before", "after"])
async def test_a_lost_hand_result_is_never_doubled(group: Group, after_acting: bool) -> None:
    async with group.bot():
        table = await group.start("pair")
        await group.server.wait_for(lambda: group.game().messages.table_message)
        # The next photo the group gets is hand 1's result (the next table follows it).
        group.server.drop_connection("sendPhoto", after_acting=after_acting, chat=group.chat)
        await table.play_until(lambda: group.game().match.hand.number > 0  # type: ignore[union-attr]
                               or group.match_over())
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        assert [r.method for r in group.server.dropped] == ["sendPhoto"]
        assert len(group.hand_results()) == (1 if after_acting else 0)
        # The table's caption carries the scores whatever became of the announcement.
        table_message = group.server.message(group.chat, group.game().messages.table_message)  # type: ignore[arg-type]
        assert table_message.photo is not None and "hand 2" in (table_message.caption or "")


async def started(group: Group, user: FakeUser) -> None:
    """``user`` opens the private chat, so that Join seats them at once."""
    user.send_private("/start")
    await group.server.wait_for(lambda: group.server.last_bot_message(user.private_chat))


@pytest.mark.parametrize("after_acting", [False, True], ids=["before", "after"])
async def test_a_lost_tap_answer_is_not_sent_again(group: Group, after_acting: bool) -> None:
    async with group.bot():
        await group.open_table("gaple", players=2)
        lobby = group.lobby()
        await started(group, group.users[2])
        group.server.drop_connection("answerCallbackQuery", after_acting=after_acting,
                                     chat=group.chat)
        record = group.users[2].press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: group.server.dropped)
        await group.server.wait_idle()
        answers = [r for r in group.server.requests_for("answerCallbackQuery")
                   if r.params.get("callback_query_id") == record.id]
    assert len(answers) == 1  # never a second answer, which Telegram refuses
    assert record.answered is after_acting
    assert not [r for r in group.server.errors if r.method == "answerCallbackQuery"]


@pytest.mark.parametrize("status", [500, 502])
async def test_a_failed_tap_answer_is_retried_within_the_window(group: Group,
                                                                status: int) -> None:
    async with group.bot():
        await group.open_table("gaple", players=2)
        lobby = group.lobby()
        await started(group, group.users[2])
        group.server.fail_next("answerCallbackQuery", error_code=status,
                               description="Bad Gateway", times=2)
        record = group.users[2].press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: record.answered, timeout=12)
    assert record.answer_text == "You joined the game."
    answers = group.server.requests_for("answerCallbackQuery")
    assert [r.status for r in answers][-3:] == [status, status, 200]


STRAY = "This message is out of date: the table's newest message is below."


@pytest.mark.parametrize("after_acting", [False, True], ids=["before", "after"])
async def test_a_lost_lobby_leaves_one_lobby_that_acts(group: Group, after_acting: bool) -> None:
    ayu, budi = group.users[:2]
    async with group.bot():
        await started(group, ayu)
        await started(group, budi)
        group.server.drop_connection("sendMessage", after_acting=after_acting, chat=group.chat)
        ayu.send(group.chat, "/newgame gaple")
        await group.server.wait_for(lambda: group.service.open_game_in(group.chat.id)
                                    and group.game().messages.lobby)
        lobbies = [m for m in group.server.bot_messages(group.chat) if lobby_button(m, "j")]
        assert len(lobbies) == (2 if after_acting else 1)
        current = group.server.message(group.chat, group.game().messages.lobby)  # type: ignore[arg-type]
        for stray in (m for m in lobbies if m is not current):
            record = budi.press(stray, lobby_button(stray, "j") or "")
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
            assert record.answer_text == "That message is out of date: use the newest one."
            assert stray.text == STRAY and not stray.buttons
            assert len(group.game().players) == 1
        record = budi.press(current, lobby_button(current, "j") or "")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "You joined the game."


@pytest.mark.parametrize("after_acting", [False, True], ids=["before", "after"])
async def test_a_lost_table_leaves_one_table_that_acts(group: Group, after_acting: bool) -> None:
    await_table = lambda: group.game().messages.table_message  # noqa: E731
    async with group.bot():
        await group.open_table("pair")
        group.server.drop_connection("sendPhoto", after_acting=after_acting, chat=group.chat)
        lobby = group.lobby()
        record = group.users[0].press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(await_table)
        tables = [m for m in group.server.bot_messages(group.chat)
                  if any(b.text == "👀 My tiles" for row in m.buttons for b in row)]
        assert len(tables) == (2 if after_acting else 1)
        current = group.server.message(group.chat, group.game().messages.table_message)  # type: ignore[arg-type]
        for stray in (m for m in tables if m is not current):
            tap = group.users[1].press(stray, "👀 My tiles")
            await group.server.wait_for(lambda r=tap: r.answered)  # type: ignore[misc]
            assert tap.answer_text == "That message is out of date: use the newest one."
            assert stray.caption == STRAY and not stray.buttons
        tap = group.users[1].press(current, "👀 My tiles")
        await group.server.wait_for(lambda: tap.answered)
        assert tap.answer_text == "I sent your tiles to our private chat."
