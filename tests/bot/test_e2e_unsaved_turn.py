"""A turn's message whose id the bot never saved (QA: SIGKILLed the instant a turn reached
its player, who tapped a ✅ tile while the bot restarted): the tap at the game's very move
plays, and that message becomes the seat's hand message; a button of another move still has
the tiles sent anew (a backup restored behind the chat)."""

from __future__ import annotations

import contextlib
import json
import sqlite3

from bot_kit import Group, tap_played

from fakeapi import FakeUser, StoredMessage
from fakeapi.players import live_buttons


async def a_turn_whose_id_was_lost(group: Group) -> tuple[FakeUser, StoredMessage, int]:
    """A game two moves in, the bot stopped on a person's turn, the database left with the
    seat's message before that turn's (as when the bot dies between the send and the save):
    who is to move, their turn's message, the move number."""
    async with group.bot():
        table = await group.start("pair")
        for _ in range(2):
            await table.play_one()
        user, message = await group.server.wait_for(table.whose_turn)
        game = group.game()
        before = game.move_no
        seat = game.seat_of(user.id)
        assert seat is not None
    older = [m for m in group.server.bot_messages(user.private_chat)
             if m.message_id < message.message_id]
    with contextlib.closing(sqlite3.connect(group.database)) as db, db:
        (stored,) = db.execute("SELECT messages FROM games WHERE game_id=?",
                               (game.game_id,)).fetchone()
        messages = json.loads(stored)
        assert messages["hands"][str(seat)][0] == message.message_id
        if older:
            messages["hands"][str(seat)][0] = older[-1].message_id
        else:
            del messages["hands"][str(seat)]
        db.execute("UPDATE games SET messages=? WHERE game_id=?",
                   (json.dumps(messages), game.game_id))
    return user, message, before


async def test_a_tap_on_a_turn_whose_id_was_not_saved_plays_its_move(group: Group) -> None:
    user, message, before = await a_turn_whose_id_was_lost(group)
    shown = live_buttons(message)
    record = user.press(message, shown[0])  # waits for the bot's next poll
    async with group.bot():
        game = group.game()
        # answered with no words (not "I sent your tiles..."), and played
        await tap_played(group, user, message, record, before, shown, "the unsaved turn's tap")
        seat = game.seat_of(user.id)
        assert seat is not None
        assert game.messages.hands[seat].message_id == message.message_id
    assert not message.deleted
    assert "out of date" not in (message.caption or message.text or "")
    alive = [m for m in group.server.bot_messages(user.private_chat)
             if not m.deleted and m.message_id != message.message_id and m.buttons
             and any(b.callback_data for row in m.buttons for b in row)]
    assert alive == [], [m.caption or m.text for m in alive]


async def test_a_tap_of_another_move_on_an_unknown_message_still_resends_the_tiles(
    group: Group,
) -> None:
    user, message, _ = await a_turn_whose_id_was_lost(group)
    with contextlib.closing(sqlite3.connect(group.database)) as db, db:
        db.execute("UPDATE games SET move_no=move_no-1 WHERE chat_id=?", (group.chat.id,))
    button = live_buttons(message)[0]
    record = user.press(message, button)
    async with group.bot() as runtime:
        await group.server.wait_for(lambda: record.answered, message="the tap was not answered")
        if record.answer_text == "One moment: this message is still arriving. Tap again.":
            # (CI: handled while the start's sync was sending this seat's hand anew, as the
            # tap would have: once it is there, the old message points to it)
            await runtime.publisher.idle()
            record = user.press(message, button)
            await group.server.wait_for(lambda: record.answered)
            assert record.answer_text in ("That message is out of date: your tiles are in "
                                          "the newest one.",
                                          "I sent your tiles to our private chat.")
        else:
            assert record.answer_text == "I sent your tiles to our private chat."
