"""/notify: who asked to be told in private when a table opens in a group (or one of its
forum topics), and the notices a lobby's opening committed but that are not sent yet.

A notice is queued in the transaction that stores the lobby, so that an opening is told to
every subscriber or to none; it holds only who and which table: its words are made when it
is sent, in the subscriber's language of the moment. The SQL runs on SQLite and PostgreSQL
alike (``?`` placeholders, ``RETURNING``, ``ON CONFLICT``; a topic's key is 0 for a chat
without topics and for the General topic, since a key column cannot be NULL).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..models import Game, dumps
from .core import Connection

#: The tables of /notify (for schema.py's MIGRATIONS). ``notices`` is the private outbox:
#: one row per subscriber to tell of a lobby, deleted once Telegram has taken it.
SUBSCRIPTIONS_MIGRATION = """
CREATE TABLE subscriptions (
    chat_id BIGINT NOT NULL,
    thread_id BIGINT NOT NULL DEFAULT 0,
    user_id BIGINT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (chat_id, thread_id, user_id)
);
CREATE INDEX subscriptions_user ON subscriptions(user_id);
CREATE TABLE notices (
    game_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
"""


@dataclass(frozen=True, slots=True)
class Notice:
    """A subscriber to tell that the lobby ``game_id`` opened."""

    game_id: int
    user_id: int


def _topic(thread_id: int | None) -> int:
    return thread_id or 0


class SubscriptionRows(Connection):
    async def toggle_subscription(
        self, chat_id: int, thread_id: int | None, user_id: int, now: float
    ) -> bool:
        """Subscribe the user to the topic's new tables, or unsubscribe them if they were:
        whether they are subscribed now."""
        key = (chat_id, _topic(thread_id), user_id)
        async with self.transaction() as db:
            cursor = await db.execute(
                "DELETE FROM subscriptions WHERE chat_id=? AND thread_id=? AND user_id=?", key)
            if cursor.rowcount > 0:
                return False
            await db.execute(
                "INSERT INTO subscriptions (chat_id, thread_id, user_id, created_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (chat_id, thread_id, user_id) DO NOTHING",
                (*key, now))
        return True

    async def subscribed(self, chat_id: int, thread_id: int | None, user_id: int) -> bool:
        row = await self.fetch_one(
            "SELECT 1 FROM subscriptions WHERE chat_id=? AND thread_id=? AND user_id=?",
            (chat_id, _topic(thread_id), user_id))
        return row is not None

    async def drop_subscriber(self, user_id: int) -> None:
        """The user blocked the bot: no group's tables are told to them any more."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM subscriptions WHERE user_id=?", (user_id,))
            await db.execute("DELETE FROM notices WHERE user_id=?", (user_id,))

    async def insert_lobby(self, game: Game, now: float) -> int:
        """Store a new lobby with a notice for each subscriber of its topic the bot can
        reach in private (its creator aside), in one transaction; returns its id."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO games (chat_id, thread_id, status, variant, options, creator_id,"
                " players, pending, language, turn_seconds, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING game_id",
                (game.chat_id, game.thread_id, game.status.value, game.game_name,
                 dumps(game.options), game.creator_id,
                 dumps([p.to_json() for p in game.players]), dumps(game.pending),
                 game.language, game.turn_seconds, now, now),
            )
            row = await cursor.fetchone()
            await cursor.close()
            assert row is not None
            game_id = int(row[0])
            await db.execute(
                "INSERT INTO notices (game_id, user_id, created_at)"
                " SELECT ?, s.user_id, ? FROM subscriptions s"
                " JOIN users u ON u.user_id = s.user_id"
                " WHERE s.chat_id=? AND s.thread_id=? AND s.user_id<>? AND u.private_ok=1",
                (game_id, now, game.chat_id, _topic(game.thread_id), game.creator_id),
            )
        return game_id

    async def pending_notices(self) -> list[Notice]:
        """The notices not sent yet, oldest lobby first."""
        rows = await self.fetch_all(
            "SELECT game_id, user_id FROM notices ORDER BY game_id, created_at, user_id")
        return [Notice(int(r["game_id"]), int(r["user_id"])) for r in rows]

    async def notices_done(self, notices: Sequence[Notice]) -> None:
        """Sent (or not to be sent: the lobby has closed, the user cannot be reached)."""
        async with self.transaction() as db:
            for notice in notices:
                await db.execute("DELETE FROM notices WHERE game_id=? AND user_id=?",
                                 (notice.game_id, notice.user_id))

    async def move_subscriptions(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its subscribers follow it."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO subscriptions (chat_id, thread_id, user_id, created_at)"
                " SELECT ?, thread_id, user_id, created_at FROM subscriptions WHERE chat_id=?"
                " ON CONFLICT (chat_id, thread_id, user_id) DO NOTHING",
                (new_chat_id, old_chat_id))
            await db.execute("DELETE FROM subscriptions WHERE chat_id=?", (old_chat_id,))
