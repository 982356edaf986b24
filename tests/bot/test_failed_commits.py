"""A change that fails to commit leaves memory as the database has it: the game's fields, and
the messages the change had set (a topic gone, the bot removed, a group that became a
supergroup), so that the game plays on as stored and the group's sync still sends its
announcements and draws its table (review)."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from test_games import ANN, BOB, RecordingComposer, people_storage

from bot.models import Game, MatchRatings, Outgoing, Status
from bot.service import GameService
from bot.service.locks import Locks
from bot.storage import Storage

TOPIC = 77


class TopicComposer(RecordingComposer):
    def topic_gone(self, game: Game, deleted: bool, ratings: MatchRatings,
                   topic: str | None = None) -> list[Outgoing]:
        return [Outgoing("topic gone")]


def service_for(storage: Storage) -> GameService:
    seeds = itertools.count(50)
    return GameService(storage, TopicComposer(), lambda: next(seeds).to_bytes(32, "big"),
                       clock=lambda: 0.0)


def fail_once(monkeypatch: pytest.MonkeyPatch, target: object, name: str,
              meanwhile: Callable[[], None] = lambda: None) -> None:
    """``target.name`` fails once (a database blip), after ``meanwhile`` ran."""
    real = getattr(target, name)

    async def failing(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(target, name, real)
        meanwhile()
        raise OSError("disk I/O error")
    monkeypatch.setattr(target, name, failing)


async def lobby_in_topic(service: GameService) -> Game:
    """A lobby in topic 77 whose lobby and table messages are posted (and saved)."""
    game = await service.create(-100, ANN, "pair", "en", thread_id=TOPIC)
    await service.join(game, BOB)
    game.messages.lobby, game.messages.table_message = 5, 6
    await service.save_messages(game)
    return game


def as_stored(game: Game, stored: Game | None) -> None:
    assert stored is not None
    assert (game.status, game.thread_id) == (stored.status, stored.thread_id)
    assert game.messages == stored.messages


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    async with people_storage(database) as store:
        yield store


async def test_a_topic_gone_whose_stop_fails_plays_on_in_its_topic(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    service = service_for(storage)
    game = await lobby_in_topic(service)
    fail_once(monkeypatch, storage, "save_status")
    with pytest.raises(OSError):
        await service.topic_gone(game, TOPIC, deleted=True)
    as_stored(game, await storage.load_game(game.game_id))
    assert game.status is Status.LOBBY and game.thread_id == TOPIC
    assert not game.messages.topic_gone  # (else the group's sync skips its outbox for good)
    assert (game.messages.lobby, game.messages.table_message) == (5, 6)
    assert service.open_game_in(-100, TOPIC) is game
    # Told again, the stop commits.
    assert await service.topic_gone(game, TOPIC, deleted=True)
    assert game.messages.topic_gone and game.thread_id is None
    as_stored(game, await storage.load_game(game.game_id))


async def test_a_message_posted_while_the_stop_failed_is_kept(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """The publisher posts without the game's lock: a lobby it posted while the commit was
    on its way is what Telegram shows, and stays memory's."""
    service = service_for(storage)
    game = await lobby_in_topic(service)

    def posted() -> None:
        game.messages.lobby = 9
    fail_once(monkeypatch, storage, "save_status", posted)
    with pytest.raises(OSError):
        await service.topic_gone(game, TOPIC, deleted=False)
    assert (game.messages.lobby, game.messages.table_message) == (9, 6)
    assert not game.messages.topic_gone and game.thread_id == TOPIC


async def test_when_the_reload_fails_too_the_messages_are_put_back(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    service = service_for(storage)
    game = await lobby_in_topic(service)
    real_load = storage.load_game

    async def failing_load(game_id: int) -> Game | None:
        monkeypatch.setattr(storage, "load_game", real_load)
        raise OSError("the database is gone")

    def reload_fails() -> None:
        monkeypatch.setattr(storage, "load_game", failing_load)
    fail_once(monkeypatch, storage, "save_status", reload_fails)
    with pytest.raises(OSError):
        await service.topic_gone(game, TOPIC, deleted=True)
    assert not game.messages.topic_gone
    assert (game.messages.lobby, game.messages.table_message) == (5, 6)


async def test_a_removal_whose_stop_fails_leaves_the_game_as_stored(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    service = service_for(storage)
    game = await lobby_in_topic(service)
    fail_once(monkeypatch, storage, "save_status")
    with pytest.raises(OSError):
        await service.abandon(game)
    assert game.status is Status.LOBBY and not game.messages.bot_removed
    as_stored(game, await storage.load_game(game.game_id))
    await service.abandon(game)
    assert not game.status.open and game.messages.bot_removed
    as_stored(game, await storage.load_game(game.game_id))


async def test_a_new_language_that_fails_to_save_is_not_spoken(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    service = service_for(storage)
    game = await lobby_in_topic(service)
    fail_once(monkeypatch, storage, "save_language")
    with pytest.raises(OSError):
        await service.speak_in(-100, "ru", Locks())
    assert game.language == "en"
    stored = await storage.load_game(game.game_id)
    assert stored is not None and stored.language == "en"


async def test_a_migration_that_fails_keeps_the_old_groups_messages(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    service = service_for(storage)
    game = await lobby_in_topic(service)
    game.messages.questions.append(7)
    await service.save_messages(game)
    fail_once(monkeypatch, storage, "save_messages")
    with pytest.raises(OSError):
        await service.migrate_chat(-100, -1001)
    assert game.chat_id == -100
    assert (game.messages.lobby, game.messages.table_message) == (5, 6)
    assert game.messages.questions == [7]
    as_stored(game, await storage.load_game(game.game_id))
