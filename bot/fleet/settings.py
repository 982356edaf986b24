"""The fleet's own settings, from the environment (the bot's are :class:`bot.config.BotConfig`).

- ``DATABASE_URL``: the PostgreSQL server every receiver and worker shares (required here).
- ``FLEET_SHARDS`` (64): how many shards the chats are split into; the same on every process
  (the first process, worker or receiver, writes it into ``fleet_meta``; a later one with
  another value refuses: :func:`bot.storage.fleet.agree_shards`).
- ``WORKER_NAME`` (hostname-pid): the name a worker's start-up line carries, and a worker's
  or a receiver's PostgreSQL connections: each connection's ``application_name`` is
  ``<kind>/<WORKER_NAME>`` (:func:`application_name`), so ``pg_stat_activity`` says which
  process holds which connection (and, joined with ``pg_locks``, which shards).
"""

from __future__ import annotations

import os
import re
import socket
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from ..config import url_problem
from ..errors import ConfigError
from ..settingnames import typo_of

#: The kinds of a fleet process's connections, as ``application_name`` starts: a worker's
#: lock connection (holding its shards; one per live worker), its pool (the bot's storage:
#: ``domino-bot`` alone in the single process) and its LISTEN connection, a receiver's pool.
LOCK_APPLICATION = "domino-fleet"
POOL_APPLICATION = "domino-bot"
LISTEN_APPLICATION = "domino-listen"
RECEIVER_APPLICATION = "domino-receiver"
#: Live workers are counted by this (SQL LIKE) pattern: their lock connections, named
#: ``domino-fleet/<WORKER_NAME>`` (and plain ``domino-fleet``, as workers before names
#: were, so that both are counted during a rolling upgrade).
LIVE_WORKERS = LOCK_APPLICATION + "%"
#: PostgreSQL keeps the first 63 bytes of an application_name (NAMEDATALEN - 1).
MAX_APPLICATION_NAME = 63
#: Where a worker's Application keeps its fleet settings, then its running FleetWorker.
SETTINGS_KEY = "fleet-settings"
WORKER_KEY = "fleet-worker"
#: A receiver's command-line flag: make its WEBHOOK_SECRET the fleet's new one
#: (:mod:`bot.fleet.secretprint`).
ROTATE_FLAG = "--rotate-webhook-secret"
DEFAULT_SHARDS = 64
MAX_SHARDS = 4096


def application_name(kind: str, worker: str) -> str:
    """``kind/worker``, as a connection's ``application_name``: the worker's name with any
    character but ASCII letters, digits and ``._:@-`` made ``_`` (PostgreSQL shows only
    printable ASCII, and a ``/`` or ``%`` would blur the kinds apart), the whole cut to
    :data:`MAX_APPLICATION_NAME` bytes (PostgreSQL would cut it silently)."""
    clean = re.sub(r"[^A-Za-z0-9._:@-]", "_", worker) or "_"
    return f"{kind}/{clean}"[:MAX_APPLICATION_NAME]


@dataclass(frozen=True, slots=True)
class FleetSettings:
    database_url: str
    shards: int = DEFAULT_SHARDS
    worker_name: str = ""
    tick: float = 0.5  # seconds between two looks at the shards' locks
    poll: float = 1.0  # seconds between two looks at the queue without a notification


def fleet_settings_from_env(env: Mapping[str, str] | None = None,
                            dotenv: Collection[str] = ()) -> FleetSettings:
    """Read the fleet's settings; raise :class:`ConfigError` with a one-line reason (naming
    a misspelt DATABASE_URL, set in ``env`` or among ``.env``'s names ``dotenv``)."""
    env = os.environ if env is None else env
    url = env.get("DATABASE_URL", "").strip()
    if not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("fleet mode needs DATABASE_URL=postgresql://user:password@host:port/db"
                          + ("" if url else typo_of("DATABASE_URL", env, dotenv)))
    problem = url_problem(url)
    if problem is not None:
        raise ConfigError(f"DATABASE_URL's {problem}")
    text = env.get("FLEET_SHARDS", "").strip() or str(DEFAULT_SHARDS)
    if not text.isdigit() or not 1 <= int(text) <= MAX_SHARDS:
        raise ConfigError(f"FLEET_SHARDS must be a whole number from 1 to {MAX_SHARDS}, "
                          f"not {text!r}")
    name = env.get("WORKER_NAME", "").strip() or f"{socket.gethostname()}-{os.getpid()}"
    return FleetSettings(url, int(text), name[:60])
