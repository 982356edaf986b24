"""The fence, on both engines: an update handled a second time (by another worker) raises
UpdateTakenError in its first effect transaction and leaves nothing applied; the first
handling marks it done in the same transaction as its effect, once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from test_games import ANN, people_storage, service_for, started_game

from bot.gamemessages import Messages
from bot.models import Game, Outgoing, Player, Status
from bot.storage import StaleMoveError, Storage, UpdateTakenError, handling

TABLES = ("games", "outbox", "chats", "users", "hand_results", "match_results", "fleet_updates")
Effect = Callable[[Storage, Game], Awaitable[object]]


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    """A database of either engine whose people opened their private chats with the bot."""
    async with people_storage(database) as store:
        yield store


async def received(storage: Storage, update_id: int, done: bool = False) -> None:
    """The update as a receiver stored it (``done``: a worker has handled it already)."""
    await storage.execute(
        "INSERT INTO fleet_updates (update_id, shard, route_key, body, received_at, done_at)"
        " VALUES (?, 0, -100, '{}', 1.0, ?)", (update_id, 2.0 if done else None))


async def snapshot(storage: Storage) -> dict[str, list[tuple[object, ...]]]:
    return {table: [tuple(row[i] for i in range(len(row))) for row in await storage.fetch_all(
        f"SELECT * FROM {table} ORDER BY 1")] for table in TABLES}


async def done_at(storage: Storage, update_id: int) -> float | None:
    row = await storage.fetch_one("SELECT done_at FROM fleet_updates WHERE update_id=?",
                                  (update_id,))
    assert row is not None
    return None if row[0] is None else float(row[0])


def lobby(chat_id: int) -> Game:
    return Game(0, chat_id, Status.LOBBY, "gaple", {}, ANN.user_id, [Player(1, "Ann")], None,
                0, "en", Messages())


async def commit_move(storage: Storage, game: Game) -> None:
    await storage.commit_move(game, game.move_no, game.move_no + 1, None, [],
                              [Outgoing("moved")], 5.0)


EFFECTS: dict[str, Effect] = {
    "insert_game": lambda s, g: s.insert_game(lobby(-200), 5.0),
    "save_players": lambda s, g: s.save_players(g, [Outgoing("players")], 5.0),
    "save_seats": lambda s, g: s.save_seats(g, [Outgoing("seats")], 5.0),
    "save_status": lambda s, g: s.save_status(g, Status.STOPPED, [Outgoing("stopped")], 5.0,
                                              drop_outbox=True),
    "commit_move": commit_move,
    "save_chat_settings": lambda s, g: s.save_chat_settings(-100, '{"default_game":"pair"}'),
    "migrate_chat": lambda s, g: s.migrate_chat(-100, -1000100),
}


@pytest.mark.parametrize("effect", EFFECTS)
async def test_a_second_handling_of_an_update_applies_nothing(
    storage: Storage, effect: str
) -> None:
    game = await started_game(service_for(storage))
    await received(storage, 7)
    with handling(7) as first:
        await EFFECTS[effect](storage, game)
    assert first.marked and await done_at(storage, 7) is not None
    before = await snapshot(storage)
    with handling(7) as second, pytest.raises(UpdateTakenError, match="update 7"):
        await EFFECTS[effect](storage, game)
    assert not second.marked
    assert await snapshot(storage) == before


async def test_one_handling_marks_its_update_once_and_keeps_going(storage: Storage) -> None:
    game = await started_game(service_for(storage))
    await received(storage, 8)
    with handling(8) as fence:
        await storage.save_players(game, [], 5.0)
        marked_at = await done_at(storage, 8)
        await commit_move(storage, game)  # the same handling's next effect: not refused
        await storage.save_chat_settings(-100, "{}")
    assert fence.marked and await done_at(storage, 8) == marked_at


async def test_an_effect_rolled_back_leaves_its_update_unmarked(storage: Storage) -> None:
    game = await started_game(service_for(storage))
    await received(storage, 9)
    with handling(9) as fence:
        with pytest.raises(StaleMoveError):
            await storage.commit_move(game, game.move_no + 5, game.move_no + 6, None, [], [],
                                      5.0)
        assert not fence.marked and await done_at(storage, 9) is None
        await commit_move(storage, game)  # the handling's real effect marks it
    assert fence.marked and await done_at(storage, 9) is not None


async def test_bookkeeping_and_unfenced_work_are_not_refused(storage: Storage) -> None:
    """Users seen, message ids, timer state and sent items are not effects; and with no
    fence set (the single process, timers) nothing is asked of fleet_updates at all."""
    game = await started_game(service_for(storage))
    await received(storage, 10, done=True)
    with handling(10) as fence:
        await storage.remember_user(ANN.user_id, "Ann", None, "en")
        await storage.save_messages(game)
        await storage.save_timer(game)
        await storage.outbox_done(1)
    assert not fence.marked
    await commit_move(storage, game)  # no fence, no row for it: applied
    await storage.save_chat_settings(-100, "{}")


async def test_two_workers_handling_one_update_at_once_apply_it_once(
    storage: Storage, database: Path | str
) -> None:
    other = Storage(database)  # another worker: its own connection
    await other.open()
    await received(storage, 11)

    async def handle(store: Storage, settings: str) -> str:
        with handling(11):
            try:
                await store.save_chat_settings(-100, settings)
            except UpdateTakenError:
                return "taken"
            return settings

    results = await asyncio.gather(handle(storage, '{"a":1}'), handle(other, '{"b":2}'))
    await other.close()
    assert results.count("taken") == 1
    applied = next(r for r in results if r != "taken")
    assert await storage.chat_settings(-100) == applied
