"""The games a start syncs for their tables' closing edits (closed in the last hour) are found
by an index of closed games: a start never reads every game ever played, and no index is
written at each move of an open game."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from bot.storage import Storage
from bot.storage.games import CLOSED_SINCE


async def test_the_games_closed_lately_are_looked_up_by_the_index(tmp_path: Path) -> None:
    storage = Storage(tmp_path / "bot.sqlite3")
    await storage.open()
    await storage.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "bot.sqlite3")) as db:
        plan = [row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {CLOSED_SINCE}", [0.0])]
    assert any("USING INDEX games_closed_at" in step for step in plan), plan
    assert not any(step.startswith("SCAN") for step in plan), plan
