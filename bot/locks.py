"""Per-game and per-chat locks: actions in one game are serialised, different games run
concurrently."""

from __future__ import annotations

import asyncio
from collections import defaultdict


class Locks:
    def __init__(self) -> None:
        self._games: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._chats: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def game(self, game_id: int) -> asyncio.Lock:
        return self._games[game_id]

    def chat(self, chat_id: int) -> asyncio.Lock:
        return self._chats[chat_id]
