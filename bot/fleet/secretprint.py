"""The fleet's webhook secret, agreed through the database as its ``FLEET_SHARDS`` is.

Telegram keeps one secret for a bot's webhook, the last one registered: a receiver started
with another ``WEBHOOK_SECRET`` than the fleet's would, by its setWebhook, make Telegram send
its secret to every receiver, and all the others would refuse every update (403) while
staying ready. So the first receiver records a fingerprint of its secret in ``fleet_meta``
(the ``webhook_secret`` row; a database without one, an existing fleet's too, adopts the
first receiver's), and a receiver whose secret does not match it is refused at its start,
before it registers anything with Telegram: one line, exit 2 (:func:`refusal`).

``--rotate-webhook-secret`` (``python -m bot.fleet receiver``) changes the fleet's secret on
purpose: that receiver records its own secret's fingerprint, and when it was done and by whom
(``webhook_secret_rotated``: ``<Unix time> <WORKER_NAME>``), then registers its secret as any
receiver does. Receivers still running with the old secret say so in one WARNING
(:class:`SecretWatch`, a look at the row every :data:`WATCH_EVERY` seconds), and are refused,
the rotation named, when started again with it.

The fingerprint is scrypt's, with a random salt of its own (``scrypt$n$r$p$salt$digest``, hex):
never the secret, and one guess costs 16 MiB and tens of milliseconds, so a copy of the
database (a dump, a backup) does not let anyone try guesses at a plain hash's speed. A plain
SHA-256 would do for a long random secret, but an operator's ``WEBHOOK_SECRET`` may be a word,
and whoever knows it can post updates as Telegram. A receiver hashes once a start (the watch
compares the stored text); neither the secret nor its fingerprint is ever logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigError
from ..storage.outages import DATABASE_ERRORS
from .settings import ROTATE_FLAG

log = logging.getLogger(__name__)

#: ``fleet_meta``'s names: the secret's fingerprint, and its last deliberate rotation.
SECRET_PRINT = "webhook_secret"
ROTATED = "webhook_secret_rotated"
#: scrypt's work: 2**14 blocks of 8 (16 MiB), one lane; a 16-byte salt, a 32-byte digest.
SCRYPT = "scrypt"
N_BLOCKS = 2 ** 14
R_BLOCK_SIZE = 8
P_LANES = 1
SALT_BYTES = 16
DIGEST_BYTES = 32
#: Seconds between a running receiver's looks at the fleet's fingerprint.
WATCH_EVERY = 30.0

_READ = "SELECT name, value FROM fleet_meta WHERE name IN ($1, $2)"
_RECORD = "INSERT INTO fleet_meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING"
_SET = ("INSERT INTO fleet_meta (name, value) VALUES ($1, $2)"
        " ON CONFLICT (name) DO UPDATE SET value = excluded.value")


def fingerprint(secret: str, salt: bytes | None = None) -> str:
    """``secret``'s fingerprint, with ``salt`` (a new random one when None)."""
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    digest = hashlib.scrypt(secret.encode(), salt=salt, n=N_BLOCKS, r=R_BLOCK_SIZE,
                            p=P_LANES, dklen=DIGEST_BYTES)
    return f"{SCRYPT}${N_BLOCKS}${R_BLOCK_SIZE}${P_LANES}${salt.hex()}${digest.hex()}"


def matches(secret: str, stored: str) -> bool:
    """Whether ``stored`` is ``secret``'s fingerprint (one this version cannot read is not)."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        wanted = bytes.fromhex(digest)
        mine = hashlib.scrypt(secret.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r),
                              p=int(p), dklen=len(wanted))
    except (ValueError, OverflowError, TypeError):  # (not hex, not numbers, beyond scrypt)
        return False
    return kind == SCRYPT and hmac.compare_digest(mine, wanted)


@dataclass(frozen=True, slots=True)
class Rotation:
    """A deliberate change of the fleet's secret: when (Unix time) and by which receiver."""

    at: float
    by: str

    @classmethod
    def of(cls, rows: Mapping[str, str]) -> Rotation | None:
        at, _, by = rows.get(ROTATED, "").partition(" ")
        try:
            return cls(float(at), by or "?")
        except ValueError:
            return None

    def words(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self.at))
        return f"rotated at {when} by {self.by}"


def refusal(where: str, rotation: Rotation | None) -> ConfigError:
    """The one line that refuses a receiver whose secret is not the fleet's."""
    why = (f"the fleet's was {rotation.words()} (the database {where} records the new one)"
           if rotation is not None else f"the database {where} records another one")
    return ConfigError(
        f"WEBHOOK_SECRET is not the fleet's: {why}: start this receiver with the fleet's "
        f"WEBHOOK_SECRET, or rotate it deliberately ({ROTATE_FLAG}, then restart every other "
        "receiver with the new one)")


async def _rows(db: Any) -> dict[str, str]:
    rows = await db.fetch(_READ, SECRET_PRINT, ROTATED)
    return {str(row["name"]): str(row["value"]) for row in rows}


async def agree_secret(pool: Any, where: str, secret: str, rotate: bool = False,
                       name: str = "") -> str:
    """At a receiver's start, on its asyncpg ``pool``, once its ``FLEET_SHARDS`` agreed:
    record ``secret``'s fingerprint when the database has none, pass when it is the one
    recorded, else raise :func:`refusal` (``where``: the database's name for it), or, with
    ``rotate``, record it as the fleet's new one (``name``: the receiver's, for the record).
    Returns the fingerprint agreed, as stored."""
    rows = await _rows(pool)
    stored = rows.get(SECRET_PRINT)
    if stored is not None and await asyncio.to_thread(matches, secret, stored):
        if rotate:
            log.info("%s: this WEBHOOK_SECRET is the fleet's already, nothing to rotate",
                     ROTATE_FLAG)
        return stored
    if stored is not None and not rotate:
        raise refusal(where, Rotation.of(rows))
    mine = await asyncio.to_thread(fingerprint, secret)
    async with pool.acquire() as conn, conn.transaction():
        if stored is None:  # the first receiver (another may be recording at once)
            recorded = (await conn.execute(_RECORD, SECRET_PRINT, mine)).endswith(" 1")
        else:
            await conn.execute(_SET, SECRET_PRINT, mine)
            await conn.execute(_SET, ROTATED, f"{time.time():.0f} {name or '?'}")
            recorded = True
    if not recorded:  # another receiver's came first: judged as recorded
        return await agree_secret(pool, where, secret, rotate, name)
    if rotate:
        log.info("WEBHOOK_SECRET rotated: the database %s records this receiver's as the "
                 "fleet's; restart every other receiver with it (until then they refuse "
                 "Telegram's updates, 403)", where)
    else:
        log.debug("the database %s records this WEBHOOK_SECRET's fingerprint: a receiver "
                  "started with another one is refused", where)
    return mine


class SecretWatch:
    """A running receiver's look at the fleet's fingerprint: one WARNING when it is no longer
    the one this receiver agreed with (rotated: Telegram now sends another secret, which this
    receiver refuses, 403), once a change; the database away is the queue's to tell."""

    def __init__(self, agreed: str) -> None:
        self.agreed = agreed
        self.told: str | None = None

    async def check(self, db: Any) -> None:
        rows = await _rows(db)
        stored = rows.get(SECRET_PRINT, self.agreed)
        if stored == self.agreed:
            self.told = None
        elif stored != self.told:
            self.told = stored
            rotation = Rotation.of(rows)
            log.warning("the fleet's WEBHOOK_SECRET was %s: Telegram now sends the new one, "
                        "which this receiver refuses (403): restart it with the fleet's new "
                        "WEBHOOK_SECRET", "changed" if rotation is None else rotation.words())

    async def run(self, db: Any) -> None:
        """:meth:`check` every :data:`WATCH_EVERY` seconds, until cancelled."""
        while True:
            await asyncio.sleep(WATCH_EVERY)
            with contextlib.suppress(*DATABASE_ERRORS):
                await self.check(db)
