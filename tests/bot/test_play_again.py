"""Only the latest match of a place plays again: an old result's "Play again" is refused once
a newer game opened there and was not cancelled (but for the table that very button opened),
and one tapped while a game is being played says so, as /newgame does. On each engine."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from test_games import ANN, BOB, CID, DAN, people_storage, service_for, started_game

from bot.errors import SupersededError, UserError
from bot.gamemessages import Messages
from bot.i18n import translator
from bot.models import Game, Player, Status
from bot.service.settings import GroupSettings
from bot.storage import Storage

STALE = ("A newer game has been played here since: use the latest result's 🔁 Play again, "
         "or /newgame.")


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    async with people_storage(database) as store:
        yield store


async def finished(storage: Storage, players: Sequence[Player], thread_id: int | None = None,
                   chat_id: int = -100) -> Game:
    """A match over and stored, as "Play again" reads it."""
    game = Game(0, chat_id, Status.FINISHED, "pair", {}, players[0].user_id, list(players),
                None, 40, "en", Messages(), thread_id=thread_id)
    game.game_id = await storage.insert_game(game, 0.0)
    return game


def said(error: pytest.ExceptionInfo[UserError]) -> str:
    return translator("en")(error.value.message, **error.value.params)


async def test_the_games_opened_in_a_place_since_a_game(storage: Storage) -> None:
    first = await finished(storage, [ANN, BOB])
    in_topic = await finished(storage, [ANN, BOB], thread_id=7)
    elsewhere = await finished(storage, [ANN, BOB], chat_id=-200)
    assert await storage.games_since(-100, None, first.game_id) == []
    second, third = [(await finished(storage, [ANN, CID])).game_id for _ in range(2)]
    await finished(storage, [ANN, CID])
    assert await storage.games_since(-100, None, first.game_id) == [second, third]
    assert await storage.games_since(-100, None, first.game_id, limit=5) == [
        second, third, third + 1]
    assert await storage.games_since(-100, 7, in_topic.game_id) == []
    assert await storage.games_since(-100, 7, first.game_id) == [in_topic.game_id]
    assert await storage.games_since(-200, None, elsewhere.game_id) == []


async def test_an_old_results_play_again_is_refused_after_a_newer_match(
        storage: Storage) -> None:
    """Ann and Bob's match, then Ann and Cid's: Bob's tap on the first result opens nothing,
    and the latest result's opens its table, which Bob's old button does not join either."""
    service = service_for(storage)
    first = await finished(storage, [ANN, BOB])
    latest = await finished(storage, [ANN, CID])
    with pytest.raises(SupersededError) as stale:
        await service.rematch(first, BOB)
    assert said(stale) == STALE
    assert service.open_game_in(-100, None) is None
    table = await service.rematch(latest, ANN)
    await service.rematch(latest, CID)  # the latest's button joins it
    assert table.pending == []
    with pytest.raises(SupersededError):  # the same game and options, opened by Ann
        await service.rematch(first, BOB)
    assert [p.user_id for p in table.players] == [CID.user_id, ANN.user_id]


async def test_a_results_play_again_opens_one_table_only(storage: Storage) -> None:
    """The table a result's button opened takes the others' taps on it while it waits; once
    it is cancelled the button opens a table again (nobody played), once played it is
    stale."""
    service = service_for(storage)
    first = await finished(storage, [ANN, BOB, CID])
    table = await service.rematch(first, ANN)
    assert await service.rematch(first, BOB) is table
    await service.cancel(table, ANN.user_id, False)
    again = await service.rematch(first, CID)
    assert again is not table and again.creator_id == CID.user_id
    await service.rematch(first, ANN)
    await service.rematch(first, BOB)
    await service.add_computer(again, CID.user_id, "normal")
    await service.start(again, CID.user_id)
    with pytest.raises(UserError):  # being played: worded as /newgame words it
        await service.rematch(first, ANN)


async def test_a_strangers_cancelled_table_does_not_make_the_result_stale(
        storage: Storage) -> None:
    """After Ann and Bob's match a stranger opens a table and cancels it: nothing was played,
    so Bob's "Play again" on the result still opens theirs."""
    service = service_for(storage)
    first = await finished(storage, [ANN, BOB])
    stranger = await service.create(-100, DAN, "pair", "en")
    await service.cancel(stranger, DAN.user_id, False)
    assert await storage.games_since(-100, None, first.game_id) == []
    table = await service.rematch(first, BOB)
    assert table.creator_id == BOB.user_id and service.open_game_in(-100, None) is table


async def test_play_again_while_a_game_is_played_says_so_as_newgame_does(
        storage: Storage) -> None:
    service = service_for(storage)
    first = await finished(storage, [ANN, BOB])
    await started_game(service)
    with pytest.raises(UserError) as running:
        await service.rematch(first, BOB)
    assert said(running) == "A game is already running in this chat."
    with pytest.raises(UserError) as newgame:
        await service.create(-100, DAN, "pair", "en")
    assert said(newgame) == said(running)


async def test_freeing_seats_that_fails_to_commit_keeps_the_table_as_stored(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 🪑's write fails: the players it would free are still seated and still awaited in
    memory, as in the database (not dropped from one and kept in the other)."""
    service = service_for(storage)
    table = await service.rematch(await finished(storage, [ANN, BOB, CID]), BOB)

    async def broken(*args: object) -> None:
        raise RuntimeError("the disk is full")
    monkeypatch.setattr(storage, "save_players", broken)
    with pytest.raises(RuntimeError):
        await service.free_unconfirmed(table, BOB.user_id)
    assert service.game(table.game_id) is table
    assert table.names == ["Bob", "Cid", "Ann"]
    assert table.pending == [CID.user_id, ANN.user_id]


async def test_play_again_speaks_the_groups_language_and_takes_its_turn_time_now(
        storage: Storage) -> None:
    """An admin switched the group to Russian and a minute a turn after the match: its Play
    again opens a Russian table with that turn time, as /newgame would, and keeps the match's
    game, house rules and players (not the group's house rules of now)."""
    service = service_for(storage)
    old = await finished(storage, [ANN, BOB])
    old.options, old.turn_seconds = {"target": 100}, 90
    await service.save_group_settings(-100, GroupSettings(
        turn_seconds=60, language="ru", games={"pair": {"target": 150}}))
    table = await service.rematch(old, BOB)
    assert (table.language, table.turn_seconds) == ("ru", 60)
    assert (table.game_name, table.options) == ("pair", {"target": 100})
    assert table.names == ["Bob", "Ann"]
