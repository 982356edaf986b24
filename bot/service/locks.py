"""Per-game and per-chat locks: actions in one game are serialised, different games run
concurrently; and per-hand locks: one edit of a player's hand message at a time (taken
without the game's lock held, the game's taken inside it, never the other way round).

A lock exists only while someone holds it or waits for it: finished games and quiet chats
leave nothing behind, however many the bot has seen.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from types import TracebackType


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0  # holding or waiting


class Held:
    """``async with locks.game(game_id):`` the lock of one key, made when first needed."""

    __slots__ = ("_key", "_table")

    def __init__(self, table: dict[Hashable, _Entry], key: Hashable) -> None:
        self._table = table
        self._key = key

    async def __aenter__(self) -> None:
        entry = self._table.get(self._key)
        if entry is None:
            entry = self._table[self._key] = _Entry()
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:  # cancelled while waiting
            self._leave(entry)
            raise

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        entry = self._table[self._key]
        entry.lock.release()
        self._leave(entry)

    def _leave(self, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0:
            del self._table[self._key]


class Locks:
    def __init__(self) -> None:
        self._games: dict[Hashable, _Entry] = {}
        self._chats: dict[Hashable, _Entry] = {}
        self._hands: dict[Hashable, _Entry] = {}

    def game(self, game_id: int) -> Held:
        return Held(self._games, game_id)

    def chat(self, chat_id: int) -> Held:
        return Held(self._chats, chat_id)

    def hand(self, game_id: int, seat: int) -> Held:
        """The lock of one seat's hand message: its edits one at a time, so that what the
        game stores of it says what the chat shows (a question's edit held by a flood wait,
        a sync's edit of the same message)."""
        return Held(self._hands, (game_id, seat))

    def __len__(self) -> int:
        """How many locks exist now (held or awaited)."""
        return len(self._games) + len(self._chats) + len(self._hands)
