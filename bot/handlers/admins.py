"""Who administers a group, cached: every lookup spends the group's request budget."""

from __future__ import annotations

import time

from telegram import ChatMemberAdministrator, ChatMemberOwner
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


async def bot_writes_in_closed_topics(context: ContextTypes.DEFAULT_TYPE, chat_id: int
                                      ) -> bool | None:
    """Whether the bot may still post in the forum's closed topics: Telegram lets the group's
    owner, and admins who may manage its topics, write there (a supergroup's admin is told
    whether they may; one not told is taken to). None when Telegram could not tell."""
    try:
        member = await context.bot.get_chat_member(chat_id, context.bot.id)
    except TelegramError:
        return None
    return isinstance(member, ChatMemberOwner) or (
        isinstance(member, ChatMemberAdministrator) and member.can_manage_topics is not False)
