"""Who administers a group, cached: every lookup spends the group's request budget."""

from __future__ import annotations

import time

from telegram.error import TelegramError
from telegram.ext import ContextTypes

ADMIN_CACHE_SECONDS = 60.0
_admins: dict[int, tuple[float, frozenset[int]]] = {}


async def admins_of(context: ContextTypes.DEFAULT_TYPE, chat_id: int) -> frozenset[int]:
    """The group's human admins, cached for a minute: each lookup spends the group's budget
    of about 20 requests a minute."""
    now = time.monotonic()
    cached = _admins.get(chat_id)
    if cached is not None and now - cached[0] < ADMIN_CACHE_SECONDS:
        return cached[1]
    try:
        members = await context.bot.get_chat_administrators(chat_id)
    except TelegramError:
        return frozenset()
    admins = frozenset(m.user.id for m in members if not m.user.is_bot)
    for stale in [c for c, (when, _) in _admins.items() if now - when >= ADMIN_CACHE_SECONDS]:
        del _admins[stale]  # a group asked about once must not stay for ever
    _admins[chat_id] = (now, admins)
    return admins
