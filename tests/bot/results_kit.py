"""A known history of recorded results (six matches in two groups, one stopped), recorded as
the bot records them, for the tests of scoreboards, ratings' figures and their messages."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.computers import computer
from bot.gamemessages import Messages
from bot.models import Game, Player, Status
from bot.service.scoreboards import Scoreboard
from bot.storage import Storage
from engine import HandEnded, HandEndReason, MatchEnded, variant

GROUP, OTHER_GROUP = 100, 200
ROBOT = computer("easy", set())  # as the lobby seats one: three stored fields, not two
ANN, BOB, CID, DEE, EVE, COMPUTER = 1, 2, 3, 4, 5, ROBOT.user_id
NAMES = {ANN: "Ann", BOB: "Bob", CID: "Cid", DEE: "Dee", EVE: "Eve", COMPUTER: ROBOT.name}
SINGLES4 = [[0], [1], [2], [3]]
PAIRS = [[0, 2], [1, 3]]


def at(month: int, day: int) -> float:
    return datetime(2024, month, day, 12, tzinfo=UTC).timestamp()


@dataclass(frozen=True)
class Played:
    chat_id: int
    game: str
    seats: tuple[int, ...]  # user ids by seat
    sides: list[list[int]]
    winner: int | None
    scores: list[int]
    finished_at: float
    hands: list[tuple[int | None, list[int]]]  # (winning side, points by side)
    finished: bool = True  # False: stopped, so no match result


HISTORY = (
    Played(GROUP, "gaple", (ANN, BOB, CID, DEE), SINGLES4, 0, [104, 30, 0, 12], at(4, 10),
           [(0, [60, 0, 0, 0]), (1, [0, 30, 0, 0]), (0, [44, 0, 0, 0]), (3, [0, 0, 0, 12])]),
    Played(GROUP, "pair", (ANN, BOB, CID, DEE), PAIRS, 1, [40, 101], at(4, 20),
           [(1, [0, 70]), (0, [40, 0]), (None, [0, 0]), (1, [0, 31])]),
    # A drawn gaple-dead match: Ann and Bob tie for the lowest total; Cid and Eve lost.
    Played(GROUP, "gaple-dead", (ANN, BOB, CID, EVE), SINGLES4, None, [50, 50, 101, 80],
           at(5, 5), [(0, [10, 20, 60, 40]), (1, [40, 30, 41, 40])]),
    # Stopped after one hand: no result, and Cid's hand does not count either.
    Played(GROUP, "gaple", (ANN, BOB, CID, DEE), SINGLES4, None, [0, 0, 50, 0], at(5, 8),
           [(2, [0, 0, 50, 0])], finished=False),
    Played(GROUP, "gaple", (BOB, ANN, COMPUTER, DEE), SINGLES4, 0, [100, 20, 5, 0],
           at(5, 12), [(0, [100, 0, 0, 0]), (1, [0, 20, 0, 0]), (2, [0, 0, 5, 0])]),
    Played(OTHER_GROUP, "pair", (ANN, EVE, DEE, CID), PAIRS, 0, [100, 0], at(5, 15),
           [(0, [100, 0])]),
)


async def record(storage: Storage, played: Played) -> None:
    """Record ``played`` as the bot does when a move finishes hands and a match: the product's
    players, the engine's events, the storage layer's own writes."""
    players = [ROBOT if uid == COMPUTER else Player(uid, NAMES[uid]) for uid in played.seats]
    game = Game(0, played.chat_id, Status.PLAYING, played.game, {}, ANN, players, None, 0, "en",
                Messages())
    game.game_id = await storage.insert_game(game, played.finished_at - 200)
    assert [list(side) for side in variant(played.game).sides(len(players))] == played.sides
    scores = [0] * len(played.sides)
    for number, (winner, points) in enumerate(played.hands):
        scores = [a + b for a, b in zip(scores, points, strict=True)]
        ended = HandEnded(number, HandEndReason.BLOCKED, None, False, winner,
                          (0,) * len(players), tuple(points), tuple(scores))
        await storage.record_results(game, [ended], played.finished_at - 100 + number)
    if played.finished:
        await storage.record_results(
            game, [MatchEnded(played.winner, tuple(played.scores))], played.finished_at)
    await storage.save_status(game, Status.FINISHED if played.finished else Status.STOPPED, [],
                              played.finished_at)


@pytest.fixture(name="storage")
async def storage_with_history(database: Path | str) -> AsyncIterator[Storage]:
    """The fixture ``storage``: a storage holding :data:`HISTORY` (a test module imports it
    to have it)."""
    store = Storage(database)
    await store.open()
    for played in HISTORY:
        await record(store, played)
    yield store
    await store.close()


def figures(board: Scoreboard) -> dict[str, tuple[object, ...]]:
    """name -> (played, won, drawn, hands played, hands won, points, streak)."""
    return {
        s.name: (s.played, s.won, s.drawn, s.hands_played, s.hands_won, s.points, s.streak)
        for s in board.standings
    }
