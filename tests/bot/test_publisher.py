"""The publisher's reading of Telegram's refusals."""

from __future__ import annotations

import pytest
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
