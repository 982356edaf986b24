"""The fleet's SQL (PostgreSQL only): the update queue, the fleet's settings, the flood waits
every worker honours, the shards' advisory locks, and the notifications that wake workers.

The tables are migration 8's (``fleet_updates``, ``fleet_meta``, ``fleet_flood``). Queries
take an asyncpg pool or connection: the queue and the flood waits go through the storage's
pool, the advisory locks through a worker's own lock connection (a session lock lives and
dies with its connection: PostgreSQL frees a killed worker's shards when its socket closes).
Except the reads of what a shard or a chat holds (:func:`open_games_of` and the others at the
end), which read the game tables through :class:`~bot.storage.Storage` and run on SQLite too.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias

import asyncpg  # type: ignore[import-untyped]

from ..errors import ConfigError
from ..models import Game, SeatChange
from .games import CLOSED_SINCE, game_from_row
from .postgres import numbered

UPDATES_CHANNEL = "fleet_updates"  # payload: the shard of the update inserted
FLOOD_CHANNEL = "fleet_flood"  # payload: "<chat>:<until, epoch seconds>"
#: A worker let go of games of a chat in another's shard (a group became a supergroup):
#: payload, the chat; its shard's owner reads them.
GAMES_CHANNEL = "fleet_games"
#: asyncpg's connection or pool: both run queries (asyncpg has no type hints).
Executor: TypeAlias = Any


@dataclass(frozen=True, slots=True)
class QueuedUpdate:
    update_id: int
    shard: int
    route_key: int
    body: str

    def data(self) -> dict[str, Any]:
        value = json.loads(self.body)
        assert isinstance(value, dict)
        return value


# --- the queue -------------------------------------------------------------------------------
async def insert_update(pool: asyncpg.Pool, update_id: int, shard: int, route_key: int,
                        body: str, now: float) -> bool:
    """Store an update once (a second delivery of the same update_id changes nothing) and
    wake the shard's worker when the transaction commits; True when it was new."""
    async with pool.acquire() as conn, conn.transaction():
        status = await conn.execute(
            "INSERT INTO fleet_updates (update_id, shard, route_key, body, received_at)"
            " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (update_id) DO NOTHING",
            update_id, shard, route_key, body, now)
        inserted = bool(status.endswith(" 1"))
        if inserted:
            await conn.execute("SELECT pg_notify($1, $2)", UPDATES_CHANNEL, str(shard))
    return inserted


async def waiting_updates(db: Executor, shards: Collection[int], limit: int = 1000
                          ) -> list[QueuedUpdate]:
    """The updates of ``shards`` not yet handled, oldest first."""
    rows = await db.fetch(
        "SELECT update_id, shard, route_key, body FROM fleet_updates"
        " WHERE shard = ANY($1::int[]) AND done_at IS NULL ORDER BY update_id LIMIT $2",
        list(shards), limit)
    return [QueuedUpdate(r["update_id"], r["shard"], r["route_key"], r["body"]) for r in rows]


async def mark_done(db: Executor, update_id: int, now: float) -> bool:
    """Mark an update handled; False when it already was (by another worker's effect)."""
    status = await db.execute(
        "UPDATE fleet_updates SET done_at=$1 WHERE update_id=$2 AND done_at IS NULL",
        now, update_id)
    return bool(status.endswith(" 1"))


async def mark_own(db: Executor, update_id: int, stamp: float) -> bool:
    """Mark an update handled with ``stamp`` (a handling's own, :mod:`~bot.storage.fencing`);
    True when it is now marked with it, False when another handling had marked it."""
    status = await db.execute(
        "UPDATE fleet_updates SET done_at=$1 WHERE update_id=$2"
        " AND (done_at IS NULL OR done_at=$1)", stamp, update_id)
    return bool(status.endswith(" 1"))


async def forget_done(db: Executor, shards: Collection[int], before: float) -> int:
    """Drop the handled updates of ``shards`` done before ``before`` (kept until then so a
    late second delivery of one is still recognised)."""
    status = await db.execute(
        "DELETE FROM fleet_updates WHERE shard = ANY($1::int[]) AND done_at < $2",
        list(shards), before)
    return int(status.split()[-1])


async def chat_of_game(db: Executor, game_id: int) -> int | None:
    """The chat of a game (the receivers route a private tap on its buttons by it)."""
    value = await db.fetchval("SELECT chat_id FROM games WHERE game_id=$1", game_id)
    return None if value is None else int(value)


async def chat_of_player(db: Executor, user_id: int) -> int | None:
    """The chat of the newest open game ``user_id`` sits in, else of the newest match under
    way whose seat was handed on from them while they were away (:func:`chats_of_player`):
    the receivers route the rest of their private chat by it, so that the worker holding
    that match offers the way back to their seat (/start, /hand, a text)."""
    chats = await chats_of_player(db, user_id)
    return chats[0] if chats else None


#: The open games a person sits in, the newest first, found by their seats' rows (the
#: ``seats`` table, by person: :func:`~.schema.sat_at`), then :func:`_seated` reads their
#: players to be sure (a lobby's leaver keeps a row); the receivers ask it for each private
#: message, a worker before a person's hands and for a private /hand memory lacks. A seat
#: changed hands keeps its person's row too (:func:`_handed_while_away` reads those).
PLAYER_OPEN_GAMES = ("SELECT g.game_id, g.chat_id, g.status, g.players, g.seat_changes"
                     " FROM seats s"
                     " JOIN games g ON g.game_id = s.game_id WHERE s.user_id = ?"
                     " AND g.status IN ('lobby', 'playing') ORDER BY g.game_id DESC")


def _seated(rows: Sequence[Any], user_id: int) -> list[Any]:
    return [row for row in rows
            if any(seat[0] == user_id for seat in json.loads(row["players"]))]


def _left(rows: Sequence[Any], user_id: int) -> list[tuple[Any, SeatChange]]:
    """The matches under way whose seat was handed on from ``user_id`` (while they were away,
    or as they left with /leave) and who sit there no more, each with that last change of
    theirs (:meth:`~bot.models.Game.last_change_of`)."""
    found = []
    for row in rows:
        if row["status"] != "playing" or _seated([row], user_id):
            continue
        mine = [change for change in map(SeatChange.from_json, json.loads(row["seat_changes"]))
                if change.left.user_id == user_id]
        if mine:
            found.append((row, mine[-1]))
    return found


def _handed_while_away(rows: Sequence[Any], user_id: int) -> list[Any]:
    """Of :func:`_left`'s matches, those handed on while they were away: they may take the
    seat back (:func:`bot.service.returns.may_take_back`)."""
    return [row for row, change in _left(rows, user_id) if change.away]


async def chats_of_player(db: Executor, user_id: int) -> list[int]:
    """The chats of the open games ``user_id`` sits in, the newest game's first; then those
    of the matches under way whose seat was handed on from them while they were away (the
    worker holding such a match offers the way back, and may write to them)."""
    rows = await db.fetch(numbered(PLAYER_OPEN_GAMES), int(user_id))
    return [int(row["chat_id"])
            for row in [*_seated(rows, user_id), *_handed_while_away(rows, user_id)]]


# --- the fleet's settings --------------------------------------------------------------------
async def agree_shards(db: Executor, shards: int) -> None:
    """The first process (a worker, or a receiver) writes the shard count; any process with
    another count refuses to start."""
    await db.execute("INSERT INTO fleet_meta (name, value) VALUES ('shards', $1)"
                     " ON CONFLICT (name) DO NOTHING", str(shards))
    stored = await db.fetchval("SELECT value FROM fleet_meta WHERE name='shards'")
    if int(stored) != shards:
        raise ConfigError(f"FLEET_SHARDS is {shards} here but {stored} in the database: "
                          "every process of a fleet must use the same number")


# --- flood waits ---------------------------------------------------------------------------
async def flood_wait(db: Executor, chat_id: int, until: float) -> None:
    """Telegram made ``chat_id`` wait until ``until`` (epoch seconds): every worker hears."""
    await db.execute(
        "INSERT INTO fleet_flood (chat_id, until) VALUES ($1, $2) ON CONFLICT (chat_id)"
        " DO UPDATE SET until=GREATEST(fleet_flood.until, excluded.until)", chat_id, until)
    await db.execute("SELECT pg_notify($1, $2)", FLOOD_CHANNEL, f"{chat_id}:{until!r}")


async def games_moved(db: Executor, chat_id: int) -> None:
    """Tell the owner of ``chat_id``'s shard to read that chat's games."""
    await db.execute("SELECT pg_notify($1, $2)", GAMES_CHANNEL, str(chat_id))


async def flood_waits(db: Executor, now: float) -> dict[int, float]:
    """The flood waits still running (a worker that starts honours them too)."""
    await db.execute("DELETE FROM fleet_flood WHERE until <= $1", now - 60.0)
    rows = await db.fetch("SELECT chat_id, until FROM fleet_flood WHERE until > $1", now)
    return {int(r["chat_id"]): float(r["until"]) for r in rows}


def parse_flood(payload: str) -> tuple[int, float] | None:
    chat, _, until = payload.partition(":")
    try:
        return int(chat), float(until)
    except ValueError:
        return None


# --- the shards' locks ---------------------------------------------------------------------
async def try_lock(conn: asyncpg.Connection, key: int, shard: int) -> bool:
    """Take the shard's session lock if nobody holds it."""
    return bool(await conn.fetchval("SELECT pg_try_advisory_lock($1::int, $2::int)", key, shard))


async def unlock(conn: asyncpg.Connection, key: int, shard: int) -> None:
    await conn.fetchval("SELECT pg_advisory_unlock($1::int, $2::int)", key, shard)


async def held_shards(conn: asyncpg.Connection, key: int) -> set[int]:
    """The shards this connection holds (what PostgreSQL says, not what we think)."""
    rows = await conn.fetch(
        "SELECT objid FROM pg_locks WHERE locktype='advisory' AND objsubid=2 AND granted"
        " AND classid=$1::int::oid AND pid=pg_backend_pid()", key)
    return {int(r["objid"]) for r in rows}


async def live_workers(db: Executor, application: str) -> int:
    """How many workers are connected now (each holds one lock connection whose name
    ``application``, a LIKE pattern, matches; none counted: this one, whose connection is
    coming)."""
    return max(1, await connections(db, application))


async def connections(db: Executor, application: str) -> int:
    """How many connections whose application_name matches ``application`` (a LIKE pattern)
    the database has now."""
    value = await db.fetchval(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE $1"
        " AND datname=current_database()", application)
    return int(value)


# --- what a shard holds (both engines, through Storage) ------------------------------------
class Reader(Protocol):
    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]: ...


def _in_shards(column: str, shards: Collection[int], count: int) -> tuple[str, list[int]]:
    marks = ", ".join("?" for _ in shards)
    return f"(({column} % ?) + ?) % ? IN ({marks})", [count, count, count, *shards]


async def open_games_of(storage: Reader, shards: Collection[int], count: int) -> list[Game]:
    """The open games whose chat falls in ``shards`` (of ``count``)."""
    if not shards:
        return []
    where, params = _in_shards("chat_id", shards, count)
    rows = await storage.fetch_all(
        f"SELECT * FROM games WHERE status IN ('lobby', 'playing') AND {where}"
        " ORDER BY game_id", params)
    return [game_from_row(row) for row in rows]


async def closed_games_of(storage: Reader, shards: Collection[int], count: int,
                          since: float) -> list[int]:
    """The games of ``shards`` closed since ``since`` (as :meth:`GameRows.closed_since
    <bot.storage.games.GameRows.closed_since>` finds them for a whole bot)."""
    if not shards:
        return []
    where, params = _in_shards("chat_id", shards, count)
    rows = await storage.fetch_all(f"{CLOSED_SINCE} AND {where} ORDER BY game_id",
                                   [since, *params])
    return [int(row[0]) for row in rows]


async def outbox_games_of(storage: Reader, shards: Collection[int], count: int) -> list[int]:
    """The games of ``shards`` with announcements committed and not yet sent."""
    if not shards:
        return []
    where, params = _in_shards("chat_id", shards, count)
    rows = await storage.fetch_all(
        f"SELECT DISTINCT game_id FROM outbox WHERE {where} ORDER BY game_id", params)
    return [int(row[0]) for row in rows]


async def open_games_in(storage: Reader, chat: int) -> list[Game]:
    """The open games of one chat (the one-open-game index finds them)."""
    rows = await storage.fetch_all(
        "SELECT * FROM games WHERE status IN ('lobby', 'playing') AND chat_id = ?"
        " ORDER BY game_id", [chat])
    return [game_from_row(row) for row in rows]


async def open_games_of_player(storage: Reader, user_id: int) -> list[int]:
    """The ids of the open games ``user_id`` sits in, the newest first (both engines)."""
    rows = await storage.fetch_all(PLAYER_OPEN_GAMES, [int(user_id)])
    return [int(row["game_id"]) for row in _seated(rows, user_id)]


async def games_left_by_player(storage: Reader, user_id: int) -> list[int]:
    """The ids of the matches under way whose seat was handed on from ``user_id`` (while they
    were away, or as they left with /leave) and who sit there no more, the newest first (both
    engines): the matches whose way back a private /start, /hand or text offers them, or
    whose words say why none leads there (review: a fleet worker told one who left with
    /leave "You are not playing a game right now")."""
    rows = await storage.fetch_all(PLAYER_OPEN_GAMES, [int(user_id)])
    return [int(row["game_id"]) for row, _ in _left(rows, user_id)]


async def outbox_games_in(storage: Reader, chat: int) -> list[int]:
    """The games of one chat with announcements committed and not yet sent."""
    rows = await storage.fetch_all(
        "SELECT DISTINCT game_id FROM outbox WHERE chat_id = ? ORDER BY game_id", [chat])
    return [int(row[0]) for row in rows]


async def open_game_chats(storage: Reader, shards: Collection[int], count: int
                          ) -> dict[int, int]:
    """The open games of ``shards`` (of ``count``): their ids and chats only (no match is
    read: cheap enough to ask every few seconds)."""
    if not shards:
        return {}
    where, params = _in_shards("chat_id", shards, count)
    rows = await storage.fetch_all(
        f"SELECT game_id, chat_id FROM games WHERE status IN ('lobby', 'playing') AND {where}",
        params)
    return {int(row[0]): int(row[1]) for row in rows}


async def outbox_game_chats(storage: Reader, shards: Collection[int], count: int
                            ) -> dict[int, int]:
    """The games of ``shards`` with announcements not yet sent: their ids and chats."""
    if not shards:
        return {}
    where, params = _in_shards("chat_id", shards, count)
    rows = await storage.fetch_all(
        f"SELECT DISTINCT game_id, chat_id FROM outbox WHERE {where}", params)
    return {int(row[0]): int(row[1]) for row in rows}
