"""/notify: who asked to be told in private when a table opens in a group (or one of its
forum topics), and the notices a lobby's opening committed but that are not sent yet.

A notice is queued in the transaction that stores the lobby (:meth:`GameRows.insert_game
<bot.storage.games.GameRows.insert_game>` calls :func:`queue_notices`), so that an opening
is told to every subscriber or to none; it holds only who and which table: its words are
made when it is sent, in the subscriber's language of the moment. The tables are migration
9; a topic's key is 0 for a chat without topics and for the General topic, since a key
column cannot be NULL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..models import Game
from .core import Connection
from .fencing import fence
from .tx import Tx


@dataclass(frozen=True, slots=True)
class Notice:
    """A subscriber to tell that the lobby ``game_id`` opened."""

    game_id: int
    user_id: int


def _topic(thread_id: int | None) -> int:
    return thread_id or 0


async def queue_notices(tx: Tx, game_id: int, game: Game, now: float,
                        subscribers: bool = True) -> int:
    """In the transaction that stores the lobby ``game_id``: a notice for each subscriber
    of its topic the bot can reach in private, its creator aside (with ``subscribers``);
    how many. A rematch's players asked to confirm their seats (its ``pending``) are told
    it too: whoever plays from the private chat alone would not see the group's new table
    (player QA)."""
    queued = 0
    if game.pending:
        marks = ", ".join("?" * len(game.pending))
        queued = await tx.execute(
            "INSERT INTO notices (game_id, user_id, created_at)"
            f" SELECT ?, u.user_id, ? FROM users u WHERE u.user_id IN ({marks})"
            " AND u.private_ok=1",
            (game_id, now, *game.pending))
    if not subscribers:
        return queued
    return queued + await tx.execute(
        "INSERT INTO notices (game_id, user_id, created_at)"
        " SELECT ?, s.user_id, ? FROM subscriptions s"
        " JOIN users u ON u.user_id = s.user_id"
        " WHERE s.chat_id=? AND s.thread_id=? AND s.user_id<>? AND u.private_ok=1"
        " ON CONFLICT (game_id, user_id) DO NOTHING",  # (a player asked, and a subscriber)
        (game_id, now, game.chat_id, _topic(game.thread_id), game.creator_id),
    )


class SubscriptionRows(Connection):
    async def toggle_subscription(
        self, chat_id: int, thread_id: int | None, user_id: int, now: float
    ) -> bool:
        """Subscribe the user to the topic's new tables, or unsubscribe them if they were:
        whether they are subscribed now. An effect of the update (fenced): a /notify handled
        twice in the fleet would toggle back."""
        key = (chat_id, _topic(thread_id), user_id)

        async def write(tx: Tx) -> bool:
            await fence(tx)
            if await tx.execute(
                    "DELETE FROM subscriptions WHERE chat_id=? AND thread_id=? AND user_id=?",
                    key):
                return False
            await tx.execute(
                "INSERT INTO subscriptions (chat_id, thread_id, user_id, created_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (chat_id, thread_id, user_id) DO NOTHING",
                (*key, now))
            return True
        return await self.write(write)

    async def subscribed(self, chat_id: int, thread_id: int | None, user_id: int) -> bool:
        row = await self.fetch_one(
            "SELECT 1 FROM subscriptions WHERE chat_id=? AND thread_id=? AND user_id=?",
            (chat_id, _topic(thread_id), user_id))
        return row is not None

    async def drop_subscriber(self, user_id: int) -> None:
        """The user blocked the bot: no group's tables are told to them any more (as their
        private chat's flag, bookkeeping that may be written twice: not fenced)."""
        async def write(tx: Tx) -> None:
            await tx.execute("DELETE FROM subscriptions WHERE user_id=?", (user_id,))
            await tx.execute("DELETE FROM notices WHERE user_id=?", (user_id,))
        await self.write(write)

    async def pending_notices(self, game_id: int) -> list[Notice]:
        """The lobby's notices not sent yet."""
        rows = await self.fetch_all(
            "SELECT user_id FROM notices WHERE game_id=? ORDER BY created_at, user_id",
            (game_id,))
        return [Notice(game_id, int(r["user_id"])) for r in rows]

    async def notices_done(self, notices: Sequence[Notice]) -> None:
        """Sent (or not to be sent: the lobby has closed, the user cannot be reached)."""
        async def write(tx: Tx) -> None:
            for notice in notices:
                await tx.execute("DELETE FROM notices WHERE game_id=? AND user_id=?",
                                 (notice.game_id, notice.user_id))
        if notices:
            await self.write(write)

    async def move_subscriptions(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its subscribers follow it (fenced, as the move of
        its games: the same update's effect)."""
        async def write(tx: Tx) -> None:
            await fence(tx)
            await tx.execute(
                "INSERT INTO subscriptions (chat_id, thread_id, user_id, created_at)"
                " SELECT ?, thread_id, user_id, created_at FROM subscriptions WHERE chat_id=?"
                " ON CONFLICT (chat_id, thread_id, user_id) DO NOTHING",
                (new_chat_id, old_chat_id))
            await tx.execute("DELETE FROM subscriptions WHERE chat_id=?", (old_chat_id,))
        await self.write(write)
