"""The help a group reads when the bot joins it, once.

Added to a group, the bot said nothing, and nobody there knew what to type (newcomer QA).
It now posts its help. Added through its own "Add me to a group" link, Telegram also sends
``/start new`` in the group, which answers with the same help: whichever of the two comes
second within :data:`WELCOME_GAP` says nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: How long the help posted for the bot's arrival stands for the other way of asking it.
WELCOME_GAP = 60.0
#: The payload of the bot's "Add me to a group" link (``?startgroup=new``).
ADDED_PAYLOAD = "new"


class Welcomes:
    """When each group last read the help for the bot's arrival."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._at: dict[int, float] = {}

    def due(self, chat_id: int) -> bool:
        """Whether the group is to read the help now (noted as read if so): not when it read
        it within :data:`WELCOME_GAP`."""
        now = self._clock()
        self._at = {chat: at for chat, at in self._at.items() if now - at <= WELCOME_GAP}
        if chat_id in self._at:
            return False
        self._at[chat_id] = now
        return True
