"""The fleet's own settings, from the environment (the bot's are :class:`bot.config.BotConfig`).

- ``DATABASE_URL``: the PostgreSQL server every receiver and worker shares (required here).
- ``FLEET_SHARDS`` (64): how many shards the chats are split into; the same on every process
  (the first worker writes it into ``fleet_meta``, a later one with another value refuses).
- ``WORKER_NAME`` (hostname-pid): the name a worker's lines and its lock connection carry.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Mapping
from dataclasses import dataclass

from ..config import UNENCODED_PASSWORD, unencoded_password
from ..errors import ConfigError

#: The application_name of every worker's lock connection: live workers are counted by it.
LOCK_APPLICATION = "domino-fleet"
#: Where a worker's Application keeps its fleet settings, then its running FleetWorker.
SETTINGS_KEY = "fleet-settings"
WORKER_KEY = "fleet-worker"
DEFAULT_SHARDS = 64
MAX_SHARDS = 4096


@dataclass(frozen=True, slots=True)
class FleetSettings:
    database_url: str
    shards: int = DEFAULT_SHARDS
    worker_name: str = ""
    tick: float = 0.5  # seconds between two looks at the shards' locks
    poll: float = 1.0  # seconds between two looks at the queue without a notification


def fleet_settings_from_env(env: Mapping[str, str] | None = None) -> FleetSettings:
    """Read the fleet's settings; raise :class:`ConfigError` with a one-line reason."""
    env = os.environ if env is None else env
    url = env.get("DATABASE_URL", "").strip()
    if not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("fleet mode needs DATABASE_URL=postgresql://user:password@host:port/db")
    if unencoded_password(url):
        raise ConfigError(f"DATABASE_URL's {UNENCODED_PASSWORD}")
    text = env.get("FLEET_SHARDS", "").strip() or str(DEFAULT_SHARDS)
    if not text.isdigit() or not 1 <= int(text) <= MAX_SHARDS:
        raise ConfigError(f"FLEET_SHARDS must be a whole number from 1 to {MAX_SHARDS}, "
                          f"not {text!r}")
    name = env.get("WORKER_NAME", "").strip() or f"{socket.gethostname()}-{os.getpid()}"
    return FleetSettings(url, int(text), name[:60])
