"""The mark a backup copy carries, so the bot knows at its start that it runs on a restored
backup.

A backup is older than what the chats show: the messages the restored games know may have
been deleted since (a hand message replaced by a later turn's), and the newest ones are
unknown to them. A bot started on a restored copy cannot tell that from the rows alone, so
the backup writes a mark into its copy (never into the live database, :func:`mark_copy`);
the bot takes it at start-up (:func:`take_mark`) and sends every open game's messages anew.
A restore made without the mark (a copy made some other way) is caught later, tap by tap: a
tap on a hand message newer than the one its game knows gets that hand sent again.

The mark is a row of ``fleet_meta`` (migration 8: the table exists on SQLite too). The copy
to PostgreSQL leaves it behind (:mod:`.copy`: a copy is not a restore of its target), and a
fleet, which sends nothing anew, has its first worker remove one it finds
(:meth:`bot.fleet.worker.FleetWorker.start`): else a single bot started on the fleet's
database later would tell every group of an open game that its moves were undone.
"""

from __future__ import annotations

import sqlite3
import time

from .core import Connection

#: ``fleet_meta``'s name of the mark; its value is when the backup was made (Unix time).
RESTORED = "restored_backup"


def mark_copy(copy: sqlite3.Connection, made_at: float | None = None) -> bool:
    """Mark a backup's copy (an open connection to the copy, never to the live database):
    a bot started on it will send its games' messages anew. False when the copy's schema is
    older than the mark's table (migration 8): a bot of today migrates it, unmarked."""
    try:
        copy.execute("INSERT OR REPLACE INTO fleet_meta (name, value) VALUES (?, ?)",
                     (RESTORED, repr(time.time() if made_at is None else made_at)))
    except sqlite3.OperationalError as error:
        if "no such table" not in str(error):
            raise
        return False
    copy.commit()
    return True


#: How many game ids a start on a restored backup skips: the backup holds the counter of its
#: day, so the games started after it would give their ids to the next ones, and their old
#: buttons ("Play again", "Check the deal") would act on those (operator QA). More than any
#: bot starts between a backup and its restore.
SKIPPED_IDS = 1_000_000

_SKIP_IDS = {
    "sqlite": "UPDATE sqlite_sequence SET seq = seq + ? WHERE name = 'games'",
    "postgresql": "SELECT setval(pg_get_serial_sequence('games', 'game_id'), "
                  "nextval(pg_get_serial_sequence('games', 'game_id')) + ?)",
}


async def take_mark(storage: Connection) -> float | None:
    """When the backup this database was restored from was made, if it carries the mark,
    which is taken away (the next start is an ordinary one), the next game's id then
    :data:`SKIPPED_IDS` past the backup's; else None."""
    row = await storage.fetch_one("SELECT value FROM fleet_meta WHERE name=?", (RESTORED,))
    if row is None:
        return None
    await storage.execute(_SKIP_IDS[storage.dialect], (SKIPPED_IDS,))  # (first: a stop between
    await storage.execute("DELETE FROM fleet_meta WHERE name=?", (RESTORED,))  # skips again)
    try:
        return float(row["value"])
    except ValueError:
        return 0.0
