"""The storage queries of replays, on each engine: the games a user played, newest first, and
the newest game of a place with a finished hand."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.gamemessages import Messages
from bot.models import Game, Player, SeatChange, Status
from bot.storage import Storage
from bot.storedjson import dumps


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    """The database on each engine, closed whatever the test did (a storage left open keeps
    the run from ending)."""
    store = Storage(database)
    await store.open()
    try:
        yield store
    finally:
        await store.close()


async def _game(storage: Storage, chat_id: int, seats: list[Player],
                thread_id: int | None = None) -> int:
    return await storage.insert_game(Game(
        0, chat_id, Status.FINISHED, "gaple", {}, seats[0].user_id, seats, None, 0, "en",
        Messages(), thread_id=thread_id), 0.0)


async def _hand(storage: Storage, game_id: int, number: int, chat_id: int,
                seats: list[Player]) -> None:
    await storage.execute(
        "INSERT INTO hand_results (game_id, hand_number, chat_id, variant, players,"
        " winner_side, totals, points, finished_at) VALUES (?, ?, ?, 'gaple', ?, 0, '[]',"
        " '[]', 0)", (game_id, number, chat_id, dumps([p.to_json() for p in seats])))


async def test_the_games_a_user_played_come_newest_first(storage: Storage) -> None:
    ayu, budi, other = Player(12, "Ayu"), Player(7, "Budi"), Player(123, "[12, not Ayu")
    played = []
    for number in range(5):
        seats = [ayu, budi] if number != 2 else [budi, other]  # game 2: a near-miss id only
        game_id = await _game(storage, -100 - number, seats)
        for hand in range(3):
            await _hand(storage, game_id, hand, -100 - number, seats)
        if number != 2:
            played.append(game_id)
    await _game(storage, -100, [ayu, budi])  # no hand finished: not played yet
    assert await storage.recent_games_of(12, 10) == played[::-1]
    assert await storage.recent_games_of(12, 2) == played[::-1][:2]
    assert await storage.recent_games_of(7, 10) == sorted([*played, played[1] + 1])[::-1]
    assert await storage.recent_games_of(99, 10) == []
    assert await storage.recent_games_of(12, 0) == []


async def test_many_hands_of_a_game_left_early_do_not_hide_a_users_older_ones(
        storage: Storage) -> None:
    """The lookup pages through the rows until it has enough games of the user: Ayu sat at
    a game she left before its first hand ended, whose 80 hands (more than a page) come
    before her older game's and are none of hers."""
    ayu, rest = Player(5, "Ayu"), [Player(50 + n, f"p{n}") for n in range(3)]
    old = await _game(storage, -1, [ayu, rest[0]])
    await _hand(storage, old, 0, -1, [ayu, rest[0]])
    left = Game(0, -2, Status.PLAYING, "gaple", {}, 5, [ayu, rest[1]], None, 0, "en",
                Messages())
    left.game_id = await storage.insert_game(left, 0.0)
    left.seat_changes.append(SeatChange(0, 0, 0, ayu))
    left.players[0] = rest[2]
    await storage.save_seats(left, [], 0.0)
    for hand in range(80):
        await _hand(storage, left.game_id, hand, -2, left.players)
    assert await storage.recent_games_of(5, 3) == [old]
    assert await storage.recent_games_of(52, 3) == [left.game_id]


async def test_the_last_played_game_of_a_place_skips_a_lobby_opened_since(
        storage: Storage) -> None:
    seats = [Player(1, "Ayu"), Player(2, "Budi")]
    first = await _game(storage, -100, seats)
    await _hand(storage, first, 0, -100, seats)
    in_topic = await _game(storage, -100, seats, thread_id=7)
    await _hand(storage, in_topic, 0, -100, seats)
    await _game(storage, -100, seats)  # a rematch's lobby: nothing finished yet
    assert await storage.last_played_game_id(-100, None) == first
    assert await storage.last_played_game_id(-100, 7) == in_topic
    assert await storage.last_played_game_id(-100, 8) is None
    assert await storage.last_played_game_id(-200, None) is None
