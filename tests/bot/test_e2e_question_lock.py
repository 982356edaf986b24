"""The second tap's question ("Where does 3-4 go?") is an edit of the chooser's hand message
that may wait out a flood limit or a slow answer in their private chat: the game's lock is
not held meanwhile, so the other players' taps are answered at once (QA: a tap answered
after a minute), and what the edit stores is stored only if the game is still there."""

from __future__ import annotations

import asyncio
import time

from bot_kit import Group
from test_e2e_taps import ASK, answers_per_tap, dealt, thoras_turn

from bot.publishing.handsync import CHOOSING
from bot.publishing.messenger import key_of
from fakeapi import FakeUser, StoredMessage
from fakeapi.players import live_buttons

__all__ = ["dealt"]  # (the fixture, used by name)

#: How long the question's edit is held: far longer than a tap may wait for its answer.
HOLD = 20.0
#: How soon another player's tap is answered while the question's edit is held.
PROMPT = 3.0


def waiting_hand(group: Group, user: FakeUser) -> StoredMessage:
    """``user``'s newest hand message, one that waits for their turn."""
    return next(m for m in reversed(group.server.bot_messages(user.private_chat))
                if not m.deleted and any(b.callback_data for row in m.buttons for b in row))


def thoras_moves(group: Group) -> int:
    """How many moves Þóra (seat 3) made this hand."""
    match = group.game().match
    assert match is not None
    return sum(move.seat == 3 for move in match.hand.moves)


async def test_another_players_tap_is_answered_while_the_question_waits(
        group: Group, dealt: None) -> None:
    async with group.bot():
        thora, message = await thoras_turn(group)
        held = group.server.hold("editMessageMedia", after_acting=False,
                                 chat=thora.private_chat, timeout=HOLD)
        record = thora.press(message, ASK)
        await group.server.wait_for(lambda: held.holding)
        ayu = group.users[0]
        hand = waiting_hand(group, ayu)
        other = ayu.press_raw(hand, next(b.callback_data for row in hand.buttons for b in row
                                          if b.callback_data))
        started = time.monotonic()
        await group.server.wait_for(lambda: other.answered, timeout=PROMPT,
                                    message="another player's tap waited for the question")
        assert time.monotonic() - started < PROMPT
        assert "Þóra" in (other.answer_text or ""), other.answer_text
        again = thora.press(message, ASK)  # her own second tap: answered too
        await group.server.wait_for(lambda: again.answered, timeout=PROMPT)
        assert held.holding
        held.release()
        await group.server.wait_for(
            lambda: "Where does 3-4 go? Tap an end." in (message.caption or ""))
        moved, laid = group.game().move_no, thoras_moves(group)
        end = next(t for t in message.button_texts if "◀" in t)
        chosen = thora.press(message, end)
        await group.server.wait_for(lambda: group.game().move_no > moved)
        await group.server.wait_idle()
        assert thoras_moves(group) == laid + 1  # her choice played once
        assert not chosen.answer_text
    counts = answers_per_tap(group)
    assert counts[record.id] == counts[other.id] == counts[chosen.id] == 1


async def test_a_question_held_past_its_turn_leaves_the_hand_current(
        group: Group, dealt: None) -> None:
    """Her time runs out while the question's edit is held: the bot lays for her at once
    (the game's lock is free), and once the edit comes, the hand shows the game as it is
    now (a waiting hand), not the question of a turn gone; its stored key says so."""
    async with group.bot() as runtime:
        thora, message = await thoras_turn(group)
        held = group.server.hold("editMessageMedia", after_acting=False,
                                 chat=thora.private_chat, timeout=HOLD)
        record = thora.press(message, ASK)
        await group.server.wait_for(lambda: held.holding)
        game = group.game()
        laid = thoras_moves(group)

        async def expire() -> None:
            async with runtime.locks.game(game.game_id):  # her time runs out, now
                game.deadline = time.time()
                await runtime.service.expire(game, game.move_no)

        await asyncio.wait_for(expire(), PROMPT)  # (not after the question's edit)
        assert thoras_moves(group) == laid + 1
        held.release()
        await group.server.wait_for(lambda: not held.holding)
        await group.server.wait_idle()
        stored = game.messages.hands[3]
        assert not (key_of(stored.key) or "").endswith(CHOOSING), stored.key
        hand = waiting_hand(group, thora)
        assert "Where does" not in (hand.caption or ""), hand.caption
        assert not live_buttons(hand), hand.button_texts
        assert hand.message_id == stored.message_id
    assert answers_per_tap(group)[record.id] == 1
