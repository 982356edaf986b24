"""What the group reads when a hand ends, through Telegram: the pips only where they count."""

from __future__ import annotations

import pytest
from bot_kit import Group

HAND_OVER = "Hand 1 is over."


def hand_results(group: Group) -> list[str]:
    return [m.caption or m.text or "" for m in group.messages()
            if (m.caption or m.text or "").startswith(HAND_OVER)]


@pytest.mark.parametrize(("game", "counted"), [("six-matador", False), ("matador", True)])
async def test_the_hands_result_totals_the_pips_only_where_they_count(
        group: Group, game: str, counted: bool) -> None:
    """Six-matador's hand is decided by the points of play alone; Matador's by the pips."""
    async with group.bot():
        table = await group.start(f"{game} target=500", 2)
        await table.play_until(lambda: bool(hand_results(group)))
    result = hand_results(group)[0]
    assert ("Pips counted:" in result) is counted, result
    assert "+0" not in result
