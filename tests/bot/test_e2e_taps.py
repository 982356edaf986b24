"""A tap's answer and the races around it, on a deliberate deal: a tap that asks which end is
answered before the question's edit (which may wait for the private chat's budget), and a
tap on a hand message whose send the bot has not heard back from yet plays, while a stray
is still refused."""

from __future__ import annotations

import asyncio
import re
import time
from collections import Counter
from dataclasses import replace

import pytest
from bot_kit import Group, plain

import engine.match
from bot.handlers.taps import SEND_WAIT
from engine import Deal, Tile, full_set
from fakeapi import FakeTelegramServer, FakeUser, Hold, StoredMessage
from fakeapi.players import live_buttons

OUT_OF_DATE = "That message is out of date: your tiles are in the newest one."


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile(int(a), int(b)) for a, b in (t.split("-") for t in text.split()))


# Ayu must lead 6-6, Budi can only lay 3-6, Sergei only 4-6: the ends are then 3 and 4, and
# Þóra's 3-4 fits both, so her tap on it asks which end.
HANDS = (tiles("6-6 0-0 0-1 0-2 1-1 1-2 2-2"), tiles("3-6 0-3 1-3 0-4 1-4 2-3 0-5"),
         tiles("4-6 2-4 1-5 2-5 5-5 4-4 4-5"))
DEAL = Deal((*HANDS, tuple(t for t in full_set(6) if not any(t in h for h in HANDS))))
ASK = "✅ 3-4"


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hand the bot deals is :data:`DEAL`."""
    monkeypatch.setattr(engine.match, "seeded_deal", lambda *args, **kwargs: DEAL)


def data_of(message: StoredMessage, label: str) -> str:
    return message.button(label).callback_data or ""


def answers_per_tap(group: Group) -> Counter[str]:
    return Counter(str(r.params.get("callback_query_id"))
                   for r in group.server.requests_for("answerCallbackQuery"))


async def thoras_turn(group: Group) -> tuple[FakeUser, StoredMessage]:
    """Three forced moves, then Þóra's turn with 3-4, which fits both ends."""
    table = await group.start("pair")
    for _ in range(3):
        await table.play_one()
    user, message = await group.server.wait_for(table.whose_turn)
    assert user is group.users[3] and data_of(message, ASK).startswith("e:")
    await group.server.wait_idle()
    return user, message


async def test_a_tap_that_asks_which_end_is_answered_before_the_question_is_shown(
        group: Group, dealt: None) -> None:
    """The question is an edit of the hand message, which may wait for the private chat's
    budget (3 in 3 s): the tap's spinner must not wait with it."""
    async with group.bot():
        thora, message = await thoras_turn(group)
        # (the question's edit brings a picture of its own, the chosen tile raised alone)
        held = group.server.hold("editMessageMedia", after_acting=False,
                                 chat=thora.private_chat)
        record = thora.press(message, ASK)
        await group.server.wait_for(lambda: record.answered, timeout=3,
                                    message="the tap's answer waited for the question's edit")
        assert record.answer_text is None
        await group.server.wait_for(lambda: held.holding)  # the edit comes, and waits
        assert record.answered and "Where does" not in (message.caption or "")
        held.release()
        await group.server.wait_for(
            lambda: "Where does 3-4 go? Tap an end." in (message.caption or ""))
        methods = [r.method for r in group.server.requests
                   if (r.method.startswith("editMessage") and r.chat_id == thora.private_chat.id)
                   or r.params.get("callback_query_id") == record.id]
        assert methods == ["answerCallbackQuery", "editMessageMedia"]
        await group.server.wait_idle()
    assert answers_per_tap(group)[record.id] == 1


async def test_a_second_tap_refused_after_the_question_still_says_why(
        group: Group, dealt: None) -> None:
    """The question's tap was answered early, with no toast; the end tapped after the turn
    was over is a tap of its own, and its refusal is a toast."""
    async with group.bot() as runtime:
        thora, message = await thoras_turn(group)
        record = thora.press(message, ASK)
        await group.server.wait_for(lambda: "◀" in str(message.button_texts))
        end = data_of(message, next(t for t in message.button_texts if "◀" in t))
        game = group.game()
        async with runtime.locks.game(game.game_id):  # her time runs out, now
            game.deadline = time.time()
            await runtime.service.expire(game, game.move_no)
        moved = game.move_no
        late = thora.press_raw(message, end)  # the end she tapped as the bot laid for her
        await group.server.wait_for(lambda: late.answered)
        assert late.answer_text is not None
        assert re.fullmatch(r"It is \w+'s turn; I will write when it is yours\.",
                            plain(late.answer_text)), late.answer_text
        assert game.move_no == moved
        await group.server.wait_idle()
    counts = answers_per_tap(group)
    assert counts[record.id] == counts[late.id] == 1
    assert all(c.answered for c in group.server.callbacks)
    assert set(counts.values()) == {1}  # every tap of the game answered exactly once


async def budis_turn_held(group: Group) -> tuple[FakeUser, Hold, StoredMessage]:
    """Ayu leads and Budi's turn is sent, the answer to its send held: Budi, the hold, and
    the new message (whose id the bot does not know yet)."""
    table = await group.start("pair")
    budi = group.users[1]
    await group.server.wait_for(table.whose_turn)
    await group.server.wait_idle()
    held = group.server.hold("sendPhoto", after_acting=True, chat=budi.private_chat)
    await table.play_one()
    await group.server.wait_for(lambda: held.holding)
    return budi, held, group.server.message(budi.private_chat, held.result["message_id"])


async def test_a_tap_on_a_hand_message_whose_send_is_unanswered_plays(
        group: Group, dealt: None) -> None:
    """A robot taps its new hand message before the bot has the answer to its send (and so
    its id): the tap waits for the send, briefly, instead of being refused as a stray."""
    async with group.bot():
        budi, held, message = await budis_turn_held(group)
        game = group.game()
        known = game.messages.hands.get(1)
        assert known is not None and known.message_id != message.message_id
        before = game.move_no
        record = budi.press(message, "✅ 3-6")
        await group.server.wait_for(lambda: group.server.world.updates.all_delivered)
        await asyncio.sleep(0.2)  # the bot handles the tap while the send is unanswered
        held.release()
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text is None
        await group.server.wait_for(lambda: game.move_no > before)
        assert game.match is not None and Tile(3, 6) not in game.match.hand.hands[1]


async def test_a_stray_hand_message_is_refused_while_the_current_one_is_being_sent(
        group: Group, dealt: None) -> None:
    """The answer to a hand's send was lost (a stray is left), and the send that replaces it
    is still unanswered: the stray, newer than the message the bot knows, is refused once
    the send is answered; the new message plays."""
    async with group.bot():
        table = await group.start("pair")
        budi = group.users[1]
        await group.server.wait_for(table.whose_turn)
        await group.server.wait_idle()
        group.server.drop_connection("sendPhoto", after_acting=True, chat=budi.private_chat)
        await table.play_one()  # Ayu leads; Budi's turn is sent, its answer lost
        await group.server.wait_for(lambda: group.server.dropped)
        held = group.server.hold("sendPhoto", after_acting=True, chat=budi.private_chat)
        await group.server.wait_for(lambda: held.holding, message="the send was not retried")
        current = group.server.message(budi.private_chat, held.result["message_id"])
        stray = next(m for m in group.server.bot_messages(budi.private_chat)
                     if live_buttons(m) and m is not current)
        game = group.game()
        known = game.messages.hands.get(1)
        assert known is not None and known.message_id < stray.message_id < current.message_id
        before = game.move_no
        refused = budi.press(stray, "✅ 3-6")
        await group.server.wait_for(lambda: group.server.world.updates.all_delivered)
        await asyncio.sleep(0.2)
        held.release()
        await group.server.wait_for(lambda: refused.answered)
        assert refused.answer_text == OUT_OF_DATE and game.move_no == before
        record = budi.press(current, "✅ 3-6")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text is None
        await group.server.wait_for(lambda: game.move_no > before)


async def test_a_tap_on_a_hand_message_whose_send_is_slower_than_the_wait_is_not_retired(
        group: Group, dealt: None) -> None:
    """The send's answer takes longer than the tap may wait: the new message is told to
    wait a moment, keeps its buttons (it is no stray), and plays once the answer is in."""
    async with group.bot():
        budi, held, message = await budis_turn_held(group)
        game = group.game()
        before = game.move_no
        early = budi.press(message, "✅ 3-6")
        await group.server.wait_for(lambda: early.answered, timeout=SEND_WAIT + 5)
        assert early.answer_text == "One moment: this message is still arriving. Tap again."
        assert live_buttons(group.server.message(budi.private_chat, message.message_id))
        held.release()
        await group.server.wait_for(lambda: game.messages.hands[1].message_id
                                    == message.message_id)
        record = budi.press(message, "✅ 3-6")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text is None
        await group.server.wait_for(lambda: game.move_no > before)
        sent = [m for m in group.server.bot_messages(budi.private_chat) if m.photo]
        assert sent[-1].message_id == message.message_id  # no hand sent anew


async def test_a_table_posted_again_leaves_a_choice_in_progress_alone(
        telegram: FakeTelegramServer, group: Group, dealt: None) -> None:
    """Review: in a supergroup a turn's hand follows the table's link, and /table posted the
    table anew while Þóra was picking an end for 3-4: her hand was edited back to all her
    tiles, the choice gone from under her finger. The choice stays; Back brings the link up
    to date."""
    club = telegram.add_group("Domino club", members=group.users, supergroup=True)
    at_club = replace(group, chat=club)
    async with at_club.bot() as runtime:
        thora, message = await thoras_turn(at_club)
        record = thora.press(message, ASK)
        await telegram.wait_for(lambda: record.answered and "◀" in str(message.button_texts))
        choice = message.button_texts
        game = at_club.game()
        old = game.messages.table_message or 0
        at_club.send(at_club.users[0], "/table")
        await telegram.wait_for(lambda: game.messages.table_message not in (None, old)
                                and telegram.message(club, old).deleted)
        await runtime.publisher.idle()
        assert message.button_texts == choice
        back = thora.press(message, next(t for t in choice if "Back" in t))
        await telegram.wait_for(lambda: back.answered and ASK in message.button_texts)
        await runtime.publisher.idle()
        new = f"https://t.me/c/{str(club.id)[4:]}/{game.messages.table_message}"
        await telegram.wait_for(lambda: new in [e.get("url") for e in message.entities],
                                message="Back did not bring the table's new link")


async def test_a_waiting_hand_confirms_the_players_own_move(group: Group, dealt: None) -> None:
    """Player QA: a tap played the tile with a silent toast, and the message said only "not
    your turn yet": it now starts with the move; then (in Indonesian): in the player's own
    chat, as the player reads it, not as the group hears it ("✔ Played: Þóra laid …")."""
    async with group.bot():
        thora, message = await thoras_turn(group)
        record = thora.press(message, ASK)
        await group.server.wait_for(lambda: "◀" in str(message.button_texts))
        end = thora.press(message, next(t for t in message.button_texts if "◀" in t))
        await group.server.wait_for(lambda: end.answered and "Not your turn yet" in plain(
            message.content))
        assert record.answered
        assert "\n✔ You laid 3-4 on the left.\n" in plain(message.content)
        assert "Þóra" not in plain(message.content)
        await group.server.wait_idle()
        table = group.server.message(group.chat, group.game().messages.table_message or 0)
        assert "\nÞóra laid 3-4 on the left.\n" in plain(table.content)  # the group's words
