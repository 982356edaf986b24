"""Which bot a database belongs to: one bot a database, whoever runs it (a single bot on SQLite
or PostgreSQL, a fleet's workers and receivers).

A database holds one bot's games, and only that bot can play them: another bot's token
cannot edit their messages, answer their taps, or write in groups it was never added to. A
second bot started on the same database by mistake (a fleet's ``.env`` copied for a new bot,
its DATABASE_URL left as it was) would take the first one's games, fail every call with
"Chat not found" or "Query is too old", and stop them as gone; a worker would join the
first bot's fleet and take its shards. So the first bot that starts on a database records its
id in it (``fleet_meta``'s ``bot_id`` row: migration 8, on both engines; an existing
database without it adopts the first bot that starts), and a start with another bot's token
is refused in one line (a :class:`~bot.errors.ConfigError`: exit 2, as a wrong FLEET_SHARDS).

The id is the token's part before the colon: Telegram's id of the bot, the same after the
token is revoked for a new one. The secret after the colon is never read, stored or shown.
The owner's username (``bot_username``) is kept beside it, only for the refusal's words.
Handing a database to another bot on purpose means deleting the two rows first, and a fleet's
webhook secret's (:mod:`bot.fleet.secretprint`; docs/OPERATIONS.md).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from ..errors import ConfigError
from .core import Connection

log = logging.getLogger(__name__)

#: ``fleet_meta``'s names: the owning bot's numeric id, and its username (no ``@``).
BOT_ID = "bot_id"
BOT_USERNAME = "bot_username"

_RECORD = "INSERT INTO fleet_meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING"
_READ = "SELECT name, value FROM fleet_meta WHERE name IN (?, ?)"
_NAME = ("INSERT INTO fleet_meta (name, value) VALUES (?, ?)"
         " ON CONFLICT (name) DO UPDATE SET value = excluded.value")


def bot_id_of(token: str) -> str:
    """The bot's numeric id: what comes before the token's colon (never the secret)."""
    return token.partition(":")[0].strip()


def refusal(where: str, owner: str, owner_name: str | None, this: str) -> ConfigError:
    """The one line that refuses a start with another bot's token."""
    named = f" (@{owner_name})" if owner_name else ""
    return ConfigError(f"the database {where} belongs to bot {owner}{named}, not this one "
                       f"({this}): give each bot its own database")


def judge(rows: Mapping[str, str], where: str, bot_id: str) -> None:
    """Raise :func:`refusal` when ``rows`` (``fleet_meta``'s, by name) name another bot."""
    owner = rows.get(BOT_ID)
    if owner is not None and owner != bot_id:
        raise refusal(where, owner, rows.get(BOT_USERNAME), bot_id)


async def agree_bot(storage: Connection, bot_id: str, username: str | None = None) -> None:
    """At a start, once the database is migrated: record this bot as its owner if none is
    recorded yet (an INFO line says so), else refuse another bot's start
    (:class:`ConfigError`). The owner's ``username`` is written when it changed. (The record
    is a DEBUG line: the start-up's INFO lines stay those an operator knows.)"""
    recorded = await storage.execute(_RECORD, (BOT_ID, bot_id))
    rows = _by_name(await storage.fetch_all(_READ, (BOT_ID, BOT_USERNAME)))
    judge(rows, storage.engine.name, bot_id)
    if username and rows.get(BOT_USERNAME) != username:
        await storage.execute(_NAME, (BOT_USERNAME, username))
    if recorded:
        log.debug("the database %s is recorded as bot %s's%s: another bot started on it is "
                 "refused", storage.engine.name, bot_id, f" (@{username})" if username else "")


async def agree_bot_on(db: Any, where: str, bot_id: str) -> None:
    """:func:`agree_bot` on an asyncpg pool or connection (a fleet receiver's): ``where`` is
    the database's name for the refusal (``PostgresEngine(url).name``)."""
    from .postgres import numbered  # (asyncpg only where PostgreSQL is used)

    await db.execute(numbered(_RECORD), BOT_ID, bot_id)
    judge(_by_name(await db.fetch(numbered(_READ), BOT_ID, BOT_USERNAME)), where, bot_id)


async def owner_on(db: Any) -> dict[str, str]:
    """``fleet_meta``'s owner rows on an asyncpg connection, read only (empty before the
    database has its tables: a new one, not migrated yet)."""
    import asyncpg  # type: ignore[import-untyped]

    from .postgres import numbered

    try:
        return _by_name(await db.fetch(numbered(_READ), BOT_ID, BOT_USERNAME))
    except asyncpg.UndefinedTableError:
        return {}


def _by_name(rows: Any) -> dict[str, str]:
    return {str(row["name"]): str(row["value"]) for row in rows}


async def refuse_if_other(engine: Any, bot_id: str) -> None:
    """Before this bot could claim the PostgreSQL database (``engine``, refused: another bot
    or a fleet holds it): raise :func:`refusal` if it belongs to another bot, which is then
    the cause to tell (not "stop that first": stopping the other bot would not help). A
    database that cannot say (gone meanwhile) raises nothing: the claim's refusal stands."""
    import contextlib

    from ..errors import StorageError

    rows: dict[str, str] = {}
    with contextlib.suppress(StorageError, OSError):
        conn = await engine.connect()
        try:
            rows = await owner_on(conn)
        finally:
            await conn.close()
    judge(rows, engine.name, bot_id)
