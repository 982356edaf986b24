"""An announcement is shown at most once, even when the bot dies between its send and its
mark as sent (QA: SIGKILLed the instant "The match is over" appeared, the restarted bot
posted it again, both with a working Play again)."""

from __future__ import annotations

from bot_kit import Group


async def test_an_announcement_sent_but_not_marked_is_not_sent_again_after_a_restart(
    group: Group,
) -> None:
    async with group.bot() as runtime:
        storage = runtime.service.storage

        async def lost(item_id: int) -> None:  # Telegram took it; the bot died before the mark
            return None

        storage.outbox_done = lost  # type: ignore[method-assign]
        table = await group.start("french target=1", players=2)
        await table.play_until(group.match_over)
        await group.server.wait_idle()
    async with group.bot() as runtime:
        await group.server.wait_idle()
        await runtime.publisher.idle()
        assert await runtime.service.storage.pending_outbox(group.game().game_id) == []
    over = [t for t in group.texts() if t.startswith("The match is over")]
    assert len(over) == 1, over
    match = group.game().match
    assert match is not None
    assert len(group.hand_results()) == len(match.hands)
