"""A player's own games, newest first: what /verify looks through for the hands they played."""

from __future__ import annotations

import json

from ..models import Player
from .core import Connection


class HistoryRows(Connection):
    async def recent_games_of(self, user_id: int, limit: int) -> list[int]:
        """The ids of the newest ``limit`` games ``user_id`` sat at (started or finished, not
        lobbies), newest first. The same SQL on both engines (their JSON functions differ): the
        players' JSON (``[[id,"name"],...]``) is matched as text first, then each row's seats
        are read to be sure (a name may hold such text)."""
        if limit <= 0:
            return []
        found: list[int] = []
        last: int | None = None
        while len(found) < limit:
            rows = await self.fetch_all(
                "SELECT game_id, players FROM games WHERE players LIKE ?"
                " AND status IN ('playing', 'finished', 'stopped')"
                " AND (CAST(? AS BIGINT) IS NULL OR game_id < ?)"
                " ORDER BY game_id DESC LIMIT ?",
                (f"%[{int(user_id)},%", last, last, limit))
            for row in rows:
                if any(Player.from_json(p).user_id == user_id
                       for p in json.loads(row["players"])):
                    found.append(int(row["game_id"]))
            if len(rows) < limit:
                break
            last = int(rows[-1]["game_id"])
        return found[:limit]
