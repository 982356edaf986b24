"""The hand's buttons carry their meaning in their own colour (the inline button's ``style``),
beside the mark in the label that clients without colours still show."""

from __future__ import annotations

from bot_kit import Group

from fakeapi import StoredMessage
from fakeapi.players import live_buttons


def styles(message: StoredMessage) -> dict[str, str | None]:
    return {b.text: b.style for row in message.buttons for b in row}


async def test_playable_tiles_are_green_and_the_rest_plain(group: Group) -> None:
    async with group.bot():
        table = await group.start("pair")
        for _ in range(3):
            user, message = await group.server.wait_for(table.whose_turn)
            shown = styles(message)
            marked = [text for text in shown if text.startswith("✅")]
            assert marked, "the player to move always has a tile to lay in pair"
            for text, style in shown.items():
                assert style == ("success" if text.startswith("✅") else None), text
            await table.play_one()
        # The waiting players' tiles are plain: nothing of theirs can be played now.
        user, _ = await group.server.wait_for(table.whose_turn)
        for other in group.users[:4]:
            if other is not user:
                hand = [m for m in group.server.bot_messages(other.private_chat)
                        if not m.deleted and m.photo][-1]
                assert hand.buttons and set(styles(hand).values()) == {None}


async def test_the_ways_a_tile_can_go_are_green_too(group: Group) -> None:
    async with group.bot():
        table = await group.start("pair")
        await table.play_one()
        while True:  # a turn with a tile that fits both ends
            user, message = await group.server.wait_for(table.whose_turn)
            ask = next((b for row in message.buttons for b in row
                        if (b.callback_data or "").startswith("e:")), None)
            if ask is not None:
                break
            await table.play_one()
        record = user.press(message, ask.text)
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: "↩ Back" in message.button_texts)
        shown = styles(message)
        assert shown.pop("↩ Back") is None
        assert len(shown) == 2 and set(shown.values()) == {"success"}


async def test_a_tile_that_may_go_face_down_is_blue(group: Group) -> None:
    async with group.bot():
        table = await group.start("gaple-dead")
        while True:  # play until somebody must put a tile face down
            _user, message = await group.server.wait_for(table.whose_turn)
            if any(label.startswith("⬛") for label in live_buttons(message)):
                break
            await table.play_one()
        assert {style for text, style in styles(message).items() if text.startswith("⬛")} \
            == {"primary"}
