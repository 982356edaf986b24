"""The help a group reads when the bot joins it, once.

Added to a group, the bot said nothing, and nobody there knew what to type (newcomer QA).
It now posts its help. Added through its own "Add me to a group" link, Telegram also sends
``/start new`` in the group, which answers with the same help: whichever of the two comes
second within :data:`WELCOME_GAP` says nothing.

Added back soon after its removal stopped the group's game, the bot says so first: the
group was never told why its game ended (QA), only the players in private.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from ..i18n import Translator
from ..presentation import lobbytexts
from ..presentation.matchendtexts import BOT_REMOVED
from ..service import GameService
from ..service.locks import Locks

log = logging.getLogger(__name__)
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


async def arrival_text(service: GameService, locks: Locks, chat_id: int, t: Translator,
                       help_due: bool) -> str | None:
    """What the group reads as the bot arrives (added, or added back): its help when
    ``help_due`` (:meth:`Welcomes.due`), after a line saying its game was stopped because
    the bot was removed, when that was recent (QA: the group was never told why its game
    ended; :meth:`~bot.service.GameService.removal_to_tell`), that line alone when the help
    was just posted otherwise; None: nothing to say."""
    try:
        removed = await service.removal_to_tell(chat_id, locks)
    except Exception as exc:  # (the help goes all the same)
        log.warning("reading whether group %s's game stopped as the bot was removed "
                    "failed: %r", chat_id, exc)
        removed = False
    said = [t(BOT_REMOVED)] if removed else []
    if help_due:
        said.append(lobbytexts.help_text(t))
    return "\n\n".join(said) or None
