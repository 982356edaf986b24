"""A double tap on a tile (a phone's finger, a slow answer): the move is made once, and the
second tap is answered silently, not with a refusal that reads as the tap not counting
(player QA: "It is Budi's turn now" popped over the board)."""

from __future__ import annotations

from bot_kit import Group

from fakeapi.players import live_buttons


async def test_a_tile_tapped_twice_is_laid_once_and_the_second_tap_says_nothing(
        group: Group) -> None:
    async with group.bot() as runtime:
        table = await group.start("kolbasa", 2)
        user, message = await group.server.wait_for(table.whose_turn)
        game = group.game()
        before = game.move_no
        tile = next(label for label in live_buttons(message) if label.startswith("✅"))
        first, second = user.press(message, tile), user.press(message, tile)
        await group.server.wait_for(lambda: first.answered and second.answered)
        await runtime.publisher.idle()
        assert game.move_no == before + 1
        assert not first.answer_text and not second.answer_text, second.answer_text
