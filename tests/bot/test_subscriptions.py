"""/notify's storage, on each engine: a subscription toggles (fenced like every effect),
a lobby's notices are committed with it or not at all, a blocked subscriber leaves every
list, a closed lobby drops its notices, and a group's subscribers follow it to its
supergroup."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.gamemessages import Messages
from bot.models import Game, Player, Status
from bot.storage import Notice, Storage, UpdateTakenError, handling
from bot.storage.schema import MIGRATIONS, postgres_ddl

CHAT, FORUM_TOPIC = -100, 7
AYU, BUDI, SERGEI, DEWI = 1, 2, 3, 4


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    store = Storage(database)
    await store.open()
    for user_id, reachable in ((AYU, True), (BUDI, True), (SERGEI, True), (DEWI, False)):
        await store.remember_user(user_id, f"P{user_id}", None, "en", private_ok=reachable)
    yield store
    await store.close()


def lobby(thread_id: int | None = None, chat_id: int = CHAT) -> Game:
    return Game(0, chat_id, Status.LOBBY, "gaple", {}, AYU, [Player(AYU, "Ayu")], None, 0,
                "en", Messages(), thread_id=thread_id)


async def subscribe(storage: Storage, *users: int, thread_id: int | None = None,
                    chat_id: int = CHAT) -> None:
    for user_id in users:
        assert await storage.toggle_subscription(chat_id, thread_id, user_id, 1.0)


async def count(storage: Storage, table: str) -> int:
    row = await storage.fetch_one(f"SELECT COUNT(*) FROM {table}")
    assert row is not None
    return int(row[0])


def test_the_tables_are_in_postgresql_words() -> None:
    ddl = postgres_ddl(str(MIGRATIONS[8]))
    assert "user_id BIGINT NOT NULL" in ddl and "created_at DOUBLE PRECISION" in ddl
    assert "INTEGER" not in ddl and "REAL" not in ddl


async def test_a_subscription_toggles_per_topic(storage: Storage) -> None:
    assert await storage.toggle_subscription(CHAT, None, BUDI, 1.0)
    assert await storage.subscribed(CHAT, None, BUDI)
    assert not await storage.subscribed(CHAT, FORUM_TOPIC, BUDI)
    assert await storage.toggle_subscription(CHAT, FORUM_TOPIC, BUDI, 1.0)
    assert not await storage.toggle_subscription(CHAT, None, BUDI, 2.0)  # off again
    assert not await storage.subscribed(CHAT, None, BUDI)
    assert await storage.subscribed(CHAT, FORUM_TOPIC, BUDI)


async def test_a_toggle_is_fenced(storage: Storage) -> None:
    """A /notify that another worker handled already toggles nothing back."""
    await storage.execute(
        "INSERT INTO fleet_updates (update_id, shard, route_key, body, received_at, done_at)"
        " VALUES (7, 0, ?, '{}', 1.0, 2.0)", (CHAT,))
    with handling(7), pytest.raises(UpdateTakenError):
        await storage.toggle_subscription(CHAT, None, BUDI, 1.0)
    assert not await storage.subscribed(CHAT, None, BUDI)


async def test_a_lobby_commits_a_notice_for_each_reachable_subscriber(
        storage: Storage) -> None:
    """Not its opener, not one the bot cannot write to (``private_ok`` 0), not another
    topic's subscriber; and only when asked (a rematch's table is its players')."""
    await subscribe(storage, AYU, BUDI, SERGEI, DEWI)
    await subscribe(storage, BUDI, thread_id=FORUM_TOPIC)
    rematch = lobby()
    rematch.game_id = await storage.insert_game(rematch, 1.0)
    assert await storage.pending_notices(rematch.game_id) == []
    await storage.save_status(rematch, Status.CANCELLED, [], 2.0)
    game_id = await storage.insert_game(lobby(), 3.0, notify=True)
    assert await storage.pending_notices(game_id) == [Notice(game_id, BUDI),
                                                      Notice(game_id, SERGEI)]
    await storage.notices_done([Notice(game_id, BUDI)])
    assert await storage.pending_notices(game_id) == [Notice(game_id, SERGEI)]


async def test_a_rematchs_players_asked_to_confirm_are_told_subscribers_or_not(
        storage: Storage) -> None:
    """Each player the rematch waits for whom the bot can reach in private, and no
    subscriber (a rematch's table is its players')."""
    await subscribe(storage, SERGEI)
    rematch = lobby()
    rematch.players += [Player(BUDI, "Budi"), Player(DEWI, "Dewi")]
    rematch.pending = [BUDI, DEWI]
    rematch.game_id = await storage.insert_game(rematch, 1.0)
    assert await storage.pending_notices(rematch.game_id) == [Notice(rematch.game_id, BUDI)]
    # Asked, and a subscriber too, were a table to tell both: one notice
    await storage.save_status(rematch, Status.CANCELLED, [], 2.0)
    await subscribe(storage, BUDI)
    game_id = await storage.insert_game(rematch, 3.0, notify=True)
    assert await storage.pending_notices(game_id) == [Notice(game_id, BUDI),
                                                      Notice(game_id, SERGEI)]


async def test_notices_are_committed_with_the_lobby_or_not_at_all(storage: Storage) -> None:
    """A second open table in the topic is refused by the database: no notice of it stays."""
    await subscribe(storage, BUDI)
    first = await storage.insert_game(lobby(), 1.0, notify=True)
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        await storage.insert_game(lobby(), 2.0, notify=True)
    assert await count(storage, "notices") == 1
    assert await storage.pending_notices(first) == [Notice(first, BUDI)]


async def test_a_closed_lobby_drops_its_notices(storage: Storage) -> None:
    await subscribe(storage, BUDI, SERGEI)
    game = lobby()
    game.game_id = await storage.insert_game(game, 1.0, notify=True)
    await storage.save_status(game, Status.CANCELLED, [], 2.0)
    assert await count(storage, "notices") == 0


async def test_a_subscriber_who_blocked_the_bot_leaves_every_list(storage: Storage) -> None:
    await subscribe(storage, BUDI, SERGEI)
    await subscribe(storage, BUDI, thread_id=FORUM_TOPIC)
    await subscribe(storage, BUDI, chat_id=-200)
    game_id = await storage.insert_game(lobby(), 1.0, notify=True)
    await storage.drop_subscriber(BUDI)
    assert await storage.pending_notices(game_id) == [Notice(game_id, SERGEI)]
    assert await count(storage, "subscriptions") == 1
    assert await storage.subscribed(CHAT, None, SERGEI)


async def test_subscribers_follow_their_group_to_its_supergroup(storage: Storage) -> None:
    """Each keeps their topic; one already subscribed in the new chat is not doubled."""
    new = -1000100
    await subscribe(storage, BUDI, SERGEI)
    await subscribe(storage, SERGEI, thread_id=FORUM_TOPIC)
    await subscribe(storage, BUDI, chat_id=new)
    await subscribe(storage, SERGEI, chat_id=-200)  # another group stays
    await storage.move_subscriptions(CHAT, new)
    rows = await storage.fetch_all(
        "SELECT chat_id, thread_id, user_id FROM subscriptions ORDER BY chat_id, thread_id,"
        " user_id")
    assert [tuple(row) for row in rows] == [
        (new, 0, BUDI), (new, 0, SERGEI), (new, FORUM_TOPIC, SERGEI), (-200, 0, SERGEI)]
    game_id = await storage.insert_game(lobby(chat_id=new), 1.0, notify=True)
    assert {n.user_id for n in await storage.pending_notices(game_id)} == {BUDI, SERGEI}
