"""Who administers a group, cached: every lookup spends the group's request budget."""

from __future__ import annotations

import time

from telegram.error import TelegramError
from telegram.ext import ContextTypes

ADMIN_CACHE_SECONDS = 60.0
CACHE_KEY = "admins"


class AdminCache:
    """Each group's human admins as last seen, for a minute. One per running bot (kept in
    its ``bot_data``), and pruned as it fills, so it holds only the last minute's groups."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[float, frozenset[int]]] = {}

    def get(self, chat_id: int, now: float) -> frozenset[int] | None:
        cached = self._seen.get(chat_id)
        if cached is None or now - cached[0] >= ADMIN_CACHE_SECONDS:
            return None
        return cached[1]

    def put(self, chat_id: int, admins: frozenset[int], now: float) -> None:
        if len(self._seen) > 64:
            self._seen = {chat: seen for chat, seen in self._seen.items()
                          if now - seen[0] < ADMIN_CACHE_SECONDS}
        self._seen[chat_id] = (now, admins)


async def admins_of(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int
) -> frozenset[int] | None:
    """The group's human admins, cached for a minute: each lookup spends the group's budget
    of about 20 requests a minute. None when Telegram could not tell (not cached): a failed
    lookup must not read as "this group has no admins", which would let anybody in."""
    cache = context.application.bot_data.setdefault(CACHE_KEY, AdminCache())
    assert isinstance(cache, AdminCache)
    now = time.monotonic()
    cached = cache.get(chat_id, now)
    if cached is not None:
        return cached
    try:
        members = await context.bot.get_chat_administrators(chat_id)
    except TelegramError:
        return None
    admins = frozenset(m.user.id for m in members if not m.user.is_bot)
    cache.put(chat_id, admins, now)
    return admins
