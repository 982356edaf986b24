"""A restored backup's mark left in a fleet's database (a copy to PostgreSQL made before the
copy left it behind) is taken away by the fleet's first worker, on a real PostgreSQL: a single
bot started on the database later does not tell the groups that moves were undone."""

from __future__ import annotations

import asyncio

import asyncpg  # type: ignore[import-untyped]

from bot.storage import Storage
from bot.storage.restores import RESTORED
from testservers.fleet import Fleet


async def marks(url: str) -> list[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT value FROM fleet_meta WHERE name = $1", RESTORED)
    finally:
        await conn.close()
    return [row["value"] for row in rows]


async def test_the_first_worker_takes_a_restored_backups_mark_away(fleet: Fleet) -> None:
    assert fleet.database_url is not None
    storage = Storage(fleet.database_url)  # as an old copy left it: marked
    await storage.open()
    await storage.execute("INSERT INTO fleet_meta (name, value) VALUES (?, ?)",
                          (RESTORED, "1700000000.0"))
    await storage.close()
    await fleet.add_worker("worker-1")
    await fleet.wait_workers(1)
    for _ in range(100):
        if not await marks(fleet.database_url):
            break
        await asyncio.sleep(0.1)
    assert await marks(fleet.database_url) == []
    text = fleet.members["worker-1"].log.read_text()
    assert ("the database carried a restored backup's mark (made 2023-11-14 22:13:20 UTC): "
            "removed; a fleet sends no game's messages anew") in text, text
    assert fleet.log_problems() == []
