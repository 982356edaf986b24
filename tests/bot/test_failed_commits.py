"""A change that fails to commit leaves memory as the database has it: the game's fields, and
the messages the change had set (a topic gone, the bot removed, a group that became a
supergroup), so that the game plays on as stored and the group's sync still sends its
announcements and draws its table (review)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_games import ANN, BOB, CID, DAN, RecordingComposer, people_storage

from bot.models import Game, MatchRatings, Outgoing, Status
from bot.service import GameService
from bot.service.locks import Locks
from bot.service.settings import GroupSettings
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


# --- two changes to a group's settings at once ---------------------------------------------
async def held_first_write(
    storage: Storage, monkeypatch: pytest.MonkeyPatch, locks: Locks,
    first: Callable[[], Coroutine[Any, Any, object]],
    second: Callable[[], Coroutine[Any, Any, object]],
) -> None:
    """Run ``first`` and ``second`` side by side, ``first``'s settings write held until
    ``second`` has gone as far as it can: waiting for the chat's lock, or (without it) past
    its own read of the settings."""
    release, held = asyncio.Event(), asyncio.Event()
    writes, reads, asked = 0, 0, 0
    real_write, real_read = storage.save_chat_settings, storage.chat_settings

    async def write(chat_id: int, settings: str) -> None:
        nonlocal writes
        writes += 1
        if writes == 1:
            held.set()
            await release.wait()
        await real_write(chat_id, settings)

    async def read(chat_id: int) -> str | None:
        nonlocal reads
        reads += 1
        return await real_read(chat_id)

    real_chat = locks.chat

    def chat(chat_id: int) -> Any:
        nonlocal asked
        asked += 1
        return real_chat(chat_id)
    monkeypatch.setattr(storage, "save_chat_settings", write)
    monkeypatch.setattr(storage, "chat_settings", read)
    monkeypatch.setattr(locks, "chat", chat)
    one = asyncio.create_task(first())
    await asyncio.wait_for(held.wait(), 10)
    read_before = reads
    two = asyncio.create_task(second())
    async with asyncio.timeout(10):
        while asked < 2 and reads == read_before and not two.done():
            await asyncio.sleep(0.01)
        if asked >= 2:  # waiting for the lock: let it queue
            for _ in range(10):
                await asyncio.sleep(0)
        else:  # no lock: the second read the settings before the first wrote them
            while not two.done() and writes < 2:
                await asyncio.sleep(0.01)
    release.set()
    await asyncio.wait_for(asyncio.gather(one, two), 10)


async def test_two_settings_changed_at_once_are_both_kept(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    service, locks = service_for(storage), Locks()
    await service.save_group_settings(-100, GroupSettings(language="en"))

    async def turn_time() -> object:
        return await service.change_group_settings(
            -100, lambda s: replace(s, turn_seconds=60), locks)

    async def ranked() -> object:
        return await service.change_group_settings(
            -100, lambda s: replace(s, rank_computers=True), locks)
    await held_first_write(storage, monkeypatch, locks, turn_time, ranked)
    settings = await service.group_settings(-100)
    assert (settings.turn_seconds, settings.rank_computers) == (60, True)


async def test_a_change_while_the_bots_adder_gives_the_language_is_kept(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot, added to a group, writes its adder's language as the group's (as the
    membership handler calls it) while an admin picks a turn time in /settings; the group's
    first table then speaks it, whoever opens it."""
    service, locks = service_for(storage), Locks()

    async def added() -> object:
        return await service.bot_added(-100, "ru", locks)

    async def turn_time() -> object:
        return await service.change_group_settings(
            -100, lambda s: replace(s, turn_seconds=60), locks)
    await held_first_write(storage, monkeypatch, locks, added, turn_time)
    settings = await service.group_settings(-100)
    assert (settings.auto_language, settings.turn_seconds) == ("ru", 60)
    async with locks.chat(-100):
        game = await service.open_table(-100, "Group", ANN, "en", "pair", {})
    assert game.language == "ru"


async def test_a_new_language_is_spoken_by_the_open_tables(storage: Storage) -> None:
    service, locks = service_for(storage), Locks()
    game = await lobby_in_topic(service)
    settings, spoken = await service.change_group_settings(
        -100, lambda s: replace(s, language="id"), locks)
    assert settings.language == "id" and spoken == [game.game_id] and game.language == "id"
    _, spoken = await service.change_group_settings(  # the same again: nothing to say
        -100, lambda s: replace(s, language="id"), locks)
    assert spoken == []
    with pytest.raises(KeyError):  # a choice no longer offered: nothing saved
        await service.change_group_settings(-100, _no_such_choice, locks)
    assert (await service.group_settings(-100)).language == "id"


def _no_such_choice(settings: GroupSettings) -> GroupSettings:
    raise KeyError("gone")


async def test_a_start_that_fails_before_its_commit_leaves_the_lobby(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deal's announcements cannot be made (a bug in their words): the table is a lobby
    still, with no match (review: memory held a match on a lobby)."""
    service = service_for(storage)
    game = await service.create(-100, ANN, "gaple", "en")
    for player in (BOB, CID, DAN):
        await service.join(game, player)

    def broken(game: Game, events: object) -> list[Outgoing]:
        raise KeyError("seat")
    monkeypatch.setattr(service.composer, "announcements", broken)
    with pytest.raises(KeyError):
        await service.start(game, ANN.user_id)
    assert game.status is Status.LOBBY and game.match is None
    as_stored(game, await storage.load_game(game.game_id))
