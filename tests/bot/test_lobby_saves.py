"""A lobby's change that cannot be saved leaves the lobby as stored, in memory too."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from test_games import ANN, BOB, CID, DAN, people_storage, service_for

from bot.gamemessages import Messages
from bot.models import Game, Status
from bot.service import GameService
from bot.storage import Storage

Change = Callable[[GameService, Game], Awaitable[object]]

CHANGES: dict[str, Change] = {
    "join": lambda service, game: service.join(game, DAN),
    "confirm a rematch's seat": lambda service, game: service.join(game, CID),
    "leave": lambda service, game: service.leave(game, BOB.user_id),
    "add a computer": lambda service, game: service.add_computer(game, ANN.user_id, "hard"),
    "free the unconfirmed": lambda service, game: service.free_unconfirmed(game, ANN.user_id),
}


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    async with people_storage(database) as store:
        yield store


async def rematch_lobby(storage: Storage, service: GameService) -> Game:
    """Ann's rematch of a pair match: Bob has confirmed his seat, Cid not yet."""
    old = Game(0, -100, Status.FINISHED, "pair", {}, ANN.user_id, [ANN, BOB, CID], None, 40,
               "en", Messages())
    old.game_id = await storage.insert_game(old, 0.0)
    game = await service.rematch(old, ANN)
    await service.join(game, BOB)
    assert sorted(game.names) == ["Ann", "Bob", "Cid"] and game.pending == [CID.user_id]
    return game


async def fails_then_saves(storage: Storage, monkeypatch: pytest.MonkeyPatch,
                           service: GameService, game: Game, change: Change) -> None:
    """``change`` refused by the database leaves the lobby's seats and who is awaited as the
    database has them, in memory too; made again once the database writes, it is saved."""
    seated, awaited = list(game.players), list(game.pending)

    async def broken(*args: object) -> None:
        raise RuntimeError("the disk is full")
    monkeypatch.setattr(storage, "save_players", broken)
    with pytest.raises(RuntimeError):
        await change(service, game)
    assert service.game(game.game_id) is game
    assert game.players == seated and game.pending == awaited
    monkeypatch.undo()
    await change(service, game)
    assert (game.players, game.pending) != (seated, awaited)
    [stored] = await service_for(storage).load_open_games()
    assert stored.players == game.players and stored.pending == game.pending


@pytest.mark.parametrize("change", CHANGES)
async def test_a_lobby_change_whose_save_fails_is_undone_in_memory(
        storage: Storage, monkeypatch: pytest.MonkeyPatch, change: str) -> None:
    """Without it, the taps' lobby would show a table nobody stored, which a restart (or the
    next save) would turn into another."""
    service = service_for(storage)
    game = await rematch_lobby(storage, service)
    await fails_then_saves(storage, monkeypatch, service, game, CHANGES[change])


async def test_other_pairs_or_a_computer_taken_off_whose_save_fails_are_undone(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    service = service_for(storage)
    game = await service.create(-100, ANN, "pair", "en")
    for player in (BOB, CID):
        await service.join(game, player)
    await service.add_computer(game, ANN.user_id, "easy")
    await fails_then_saves(storage, monkeypatch, service, game,
                           lambda service, game: service.other_pairs(game, ANN.user_id))
    await fails_then_saves(storage, monkeypatch, service, game,
                           lambda service, game: service.remove_computer(game, ANN.user_id))
