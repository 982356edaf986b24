"""The publisher's reading of Telegram's refusals, and its waiting for a game's syncs."""

from __future__ import annotations

import asyncio

import pytest
from bot_kit import Group
from telegram.error import BadRequest

from bot.publishing.messenger import topic_refusal


@pytest.mark.parametrize(("description", "deleted"), [
    ("Bad Request: TOPIC_CLOSED", False),
    ("Bad Request: message thread not found", True),
    ("Bad Request: TOPIC_DELETED", True),
    ("Bad Request: message to edit not found", None),
    ("Bad Request: chat not found", None),
])
def test_a_closed_or_deleted_topic_is_told_apart_from_other_refusals(
    description: str, deleted: bool | None
) -> None:
    """Telegram's exact descriptions, as PTB hands them over (prefix stripped)."""
    assert topic_refusal(BadRequest(description)) is deleted


async def test_settled_waits_for_the_named_games_syncs_within_its_grace(group: Group) -> None:
    """A lobby's new post held unanswered: its game's syncs are not settled within a short
    grace (and go on), another game's are at once; answered, they settle once its sync has
    saved what it sent."""
    async with group.bot() as runtime:
        await group.open_table("pair", 2)
        await runtime.publisher.idle()
        game = group.game()
        old = game.messages.lobby
        group.server.delete_message(group.lobby(), by=group.users[0])
        held = group.server.hold("sendMessage", after_acting=False, chat=group.chat, timeout=30)
        runtime.message_gone(game, lobby=True)
        await group.server.wait_for(lambda: held.holding)
        publisher = runtime.publisher
        assert await publisher.settled([game.game_id + 1], 30.0)
        assert await publisher.settled([], 30.0)
        assert not await publisher.settled([game.game_id], 0.2)
        assert held.holding and game.messages.lobby == old
        asyncio.get_running_loop().call_later(0.2, held.release)
        assert await publisher.settled([game.game_id, game.game_id + 1], 30.0)
        assert game.messages.lobby not in (None, old)
        assert group.lobby().message_id == game.messages.lobby
