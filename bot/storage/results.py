"""Finished results, as the scoreboards read them: matches that reached their end, and their
hands. Rows come back in the order the matches finished."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import aiosqlite

from .core import Connection


@dataclass(frozen=True, slots=True)
class ResultFilter:
    """Which finished matches: of one group and/or one game, finished in [since, until)."""

    chat_id: int | None = None
    game: str | None = None
    since: float | None = None
    until: float | None = None

    def where(self) -> tuple[str, list[object]]:
        conditions: list[str] = ["1"]
        params: list[object] = []
        for condition, value in (("m.chat_id = ?", self.chat_id), ("m.variant = ?", self.game),
                                 ("m.finished_at >= ?", self.since),
                                 ("m.finished_at < ?", self.until)):
            if value is not None:
                conditions.append(condition)
                params.append(value)
        return " AND ".join(conditions), params


class ResultRows(Connection):
    async def finished_matches(self, which: ResultFilter) -> list[aiosqlite.Row]:
        where, params = which.where()
        return await self.fetch_all(
            f"SELECT m.* FROM match_results m WHERE {where} ORDER BY m.finished_at, m.game_id",
            params,
        )

    async def hands_of_finished_matches(self, which: ResultFilter) -> list[aiosqlite.Row]:
        where, params = which.where()
        return await self.fetch_all(
            "SELECT h.game_id, h.winner_side, h.points FROM hand_results h"
            f" JOIN match_results m ON m.game_id = h.game_id WHERE {where}"
            " ORDER BY h.game_id, h.hand_number",
            params,
        )

    async def matches_played_by(self, user_id: int) -> list[aiosqlite.Row]:
        """(variant, chat_id, seat) of every finished match ``user_id`` sat in; ``seat`` is
        the stored player (JSON), the last one the newest."""
        return await self.fetch_all(
            "SELECT m.variant, m.chat_id, p.value AS seat"
            " FROM match_results m, json_each(m.players) p"
            " WHERE json_extract(p.value, '$[0]') = ? ORDER BY m.finished_at, m.game_id",
            (user_id,),
        )

    async def user_names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The names the bot last saw for these users (those it knows)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        rows = await self.fetch_all(
            f"SELECT user_id, name FROM users WHERE user_id IN ({','.join('?' * len(wanted))})",
            wanted,
        )
        return {int(r["user_id"]): str(r["name"]) for r in rows}
