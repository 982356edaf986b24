"""Storage, on each engine: migrations run once and in order; transactions are all or
nothing."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.errors import StorageError
from bot.gamemessages import Messages
from bot.i18n import Speech
from bot.models import Game, Outgoing, Player, Status
from bot.service.settings import GroupSettings
from bot.storage import MIGRATIONS, StaleMoveError, Storage
from engine import Match


async def test_a_new_database_gets_the_latest_schema(database: Path | str) -> None:
    if isinstance(database, Path):  # SQLite makes the folder too
        database = database.parent / "sub" / database.name
    storage = Storage(database)
    await storage.open()
    assert await storage.schema_version() == len(MIGRATIONS)
    await storage.close()
    await storage.open()  # opening again migrates nothing and keeps the data
    assert await storage.schema_version() == len(MIGRATIONS)
    await storage.close()


async def test_a_database_newer_than_the_code_is_refused(database: Path | str) -> None:
    storage = Storage(database)
    await storage.open()
    async with storage.transaction() as tx:
        await storage.engine.set_schema_version(tx, len(MIGRATIONS) + 1)
    await storage.close()
    with pytest.raises(StorageError, match="newer than this bot"):
        await storage.open()
    await storage.close()


async def test_a_failed_transaction_leaves_nothing_behind(database: Path | str) -> None:
    storage = Storage(database)
    await storage.open()
    with pytest.raises(RuntimeError):
        async with storage.transaction() as tx:
            await tx.execute(
                "INSERT INTO outbox (game_id, chat_id, text, created_at) VALUES (1, 1, 'x', 0)"
            )
            raise RuntimeError("crash in the middle")
    assert await storage.pending_outbox(1) == []
    await storage.close()


async def test_remembered_users_keep_their_private_chat_flag(database: Path | str) -> None:
    storage = Storage(database)
    await storage.open()
    await storage.remember_user(5, "Ann", "ann", "ru", private_ok=True)
    await storage.remember_user(5, "Ann B", "ann", "ru")  # a group command: flag unchanged
    assert await storage.private_ok(5)
    await storage.set_private_ok(5, False)
    assert not await storage.private_ok(5)
    assert await storage.user_language(5) == Speech("ru")
    await storage.remember_user(6, "Bo", None, None)
    assert await storage.user_languages([6, 5, 7, 5]) == {5: Speech("ru"), 6: Speech(None)}
    assert await storage.user_languages([]) == {}
    await storage.close()


async def test_an_outbox_read_empty_is_read_again_once_something_is_queued(
        database: Path | str) -> None:
    """Most syncs find a game's outbox empty, and SQLite's is then not read again until this
    process queues an announcement for that game: what is queued is always found, in order."""
    storage = Storage(database)
    await storage.open()
    game = Game(0, -100, Status.LOBBY, "gaple", {}, 1, [Player(1, "Ayu")], None, 0, "en",
                Messages())
    game.game_id = await storage.insert_game(game, 0.0)
    other = await storage.insert_game(Game(0, -200, Status.LOBBY, "gaple", {}, 1,
                                           [Player(2, "Bo")], None, 0, "en", Messages()), 0.0)
    assert await storage.pending_outbox(game.game_id) == []
    assert await storage.pending_outbox(other) == []
    await storage.save_players(game, [Outgoing("one"), Outgoing("two")], 1.0)
    assert [i.text for i in await storage.pending_outbox(game.game_id)] == ["one", "two"]
    assert await storage.pending_outbox(other) == []
    for item in await storage.pending_outbox(game.game_id):
        await storage.outbox_done(item.id)
    assert await storage.pending_outbox(game.game_id) == []
    await storage.save_status(game, Status.CANCELLED, [Outgoing("three")], 2.0)
    assert [i.text for i in await storage.pending_outbox(game.game_id)] == ["three"]
    await storage.close()


async def test_a_move_from_a_stale_number_writes_nothing(database: Path | str) -> None:
    """A move is written only over the move it was made from: whether it writes its row alone
    or announcements with it, a stale one raises and leaves the game and the outbox as they
    were."""
    storage = Storage(database)
    await storage.open()
    game = Game(0, -100, Status.PLAYING, "gaple", {}, 1, [Player(n, f"P{n}") for n in range(4)],
                None, 0, "en", Messages())
    game.match = Match("gaple", 4, {})
    game.match.deal_hand(random.Random(1))
    game.game_id = await storage.insert_game(game, 0.0)
    await storage.commit_move(game, 0, 1, None, [], [], 1.0)
    for outgoing in ([], [Outgoing("stale")]):
        with pytest.raises(StaleMoveError):
            await storage.commit_move(game, 0, 2, None, [], outgoing, 2.0)
    stored = await storage.load_game(game.game_id)
    assert stored is not None and stored.move_no == 1
    assert await storage.pending_outbox(game.game_id) == []
    await storage.commit_move(game, 1, 2, None, [], [Outgoing("told")], 3.0)
    assert [i.text for i in await storage.pending_outbox(game.game_id)] == ["told"]
    await storage.close()


async def test_languages_read_are_read_again_once_the_user_is_written(
        database: Path | str) -> None:
    storage = Storage(database)
    await storage.open()
    await storage.remember_user(5, "Ann", "ann", "ru")
    assert await storage.user_languages([5]) == {5: Speech("ru")}
    await storage.remember_user(5, "Ann", "ann", "id")  # her Telegram speaks Indonesian now
    assert await storage.user_languages([5]) == {5: Speech("id")}
    assert await storage.user_languages([5, 8]) == {5: Speech("id")}
    await storage.remember_user(8, "Bo", None, "en")
    assert await storage.user_languages([8, 5]) == {5: Speech("id"), 8: Speech("en")}
    await storage.close()


async def test_a_chosen_language_outlives_telegrams_and_is_read_again_once_chosen(
        database: Path | str) -> None:
    """Every update rewrites a person's Telegram language; the one they chose in private
    /language stays until they choose again (None: automatic)."""
    storage = Storage(database)
    await storage.open()
    await storage.remember_user(5, "Ann", "ann", "en")
    assert await storage.user_language(5) == Speech("en")  # (kept on SQLite)
    await storage.choose_language(5, "is")
    assert await storage.user_language(5) == Speech("en", "is")
    await storage.remember_user(5, "Ann", "ann", "ru")  # an update from a Russian Telegram
    assert await storage.user_languages([5]) == {5: Speech("ru", "is")}
    await storage.choose_language(5, None)
    assert await storage.user_language(5) == Speech("ru")
    await storage.close()


async def test_version_16_keeps_the_users_an_older_bot_remembered(
        database: Path | str) -> None:
    """An older database upgraded keeps its users, their Telegram language and reach, with
    no language chosen."""
    storage = Storage(database)
    await storage.open(schema_version=15)
    await storage.remember_user(5, "Ann", "ann", "en", private_ok=True)
    await storage.close()
    await storage.open()
    assert await storage.schema_version() == len(MIGRATIONS) == 16
    assert await storage.user_language(5) == Speech("en")
    assert await storage.private_ok(5)
    await storage.choose_language(5, "is")
    assert await storage.user_language(5) == Speech("en", "is")
    await storage.close()


async def test_version_4_moves_each_groups_house_rules_under_their_game(
    database: Path | str,
) -> None:
    """A group's choices survive the move to per-game settings: its one target becomes each
    game's, and each option goes to the game it belongs to."""
    storage = Storage(database)
    await storage.open(schema_version=3)
    # Exactly what the bot wrote before version 4 (GroupSettings.to_json of that version).
    await storage.save_chat_settings(1, (
        '{"default_game":"pair","target":150,"turn_seconds":120,"language":"ru","deal":7,'
        '"dead_tiles":false,"blank_double_25":true,"first_lead":"lot","block_count":"all",'
        '"rank_computers":true}'))
    await storage.save_chat_settings(2, '{"default_game":null,"target":null,"turn_seconds":90,'
                                        '"language":null,"deal":6,"dead_tiles":true,'
                                        '"blank_double_25":false,"first_lead":"6-6",'
                                        '"block_count":"opponents","rank_computers":false}')
    await storage.save_chat_settings(3, "not json")
    await storage.close()
    await storage.open()
    assert await storage.schema_version() == len(MIGRATIONS)
    chosen = GroupSettings.from_json(await storage.chat_settings(1))
    assert (chosen.default_game, chosen.turn_seconds, chosen.language, chosen.rank_computers) \
        == ("pair", 120, "ru", True)
    assert chosen.game_options("gaple") == {"target": 150}
    assert chosen.game_options("gaple-dead") == {
        "target": 150, "deal": 7, "dead_tiles": False, "blank_double_25": True}
    assert chosen.game_options("pair") == {"target": 150, "first_lead": "lot",
                                           "block_count": "all"}
    assert GroupSettings.from_json(await storage.chat_settings(2)) == GroupSettings()
    assert GroupSettings.from_json(await storage.chat_settings(3)) == GroupSettings()
    await storage.close()


async def test_version_7_allows_one_open_game_per_forum_topic(database: Path | str) -> None:
    """The database itself holds one open game per place: per chat, or per topic of a forum
    (its General topic, thread None, being one place too)."""
    storage = Storage(database)
    await storage.open()

    def lobby(chat_id: int, thread_id: int | None) -> Game:
        return Game(0, chat_id, Status.LOBBY, "gaple", {}, 1, [Player(1, "Ayu")], None, 0,
                    "en", Messages(), thread_id=thread_id)

    ids = [await storage.insert_game(lobby(-100, thread), 0.0) for thread in (None, 7, 9)]
    await storage.insert_game(lobby(-200, 7), 0.0)  # another chat's topic 7
    for thread in (None, 7):
        with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
            await storage.insert_game(lobby(-100, thread), 0.0)
    reloaded = {g.game_id: g.thread_id for g in await storage.open_games()}
    assert [reloaded[i] for i in ids] == [None, 7, 9]
    await storage.close()


async def test_version_13_keeps_each_forum_topics_latest_name(database: Path | str) -> None:
    """A topic's name, per chat and topic, replaced when the topic is renamed."""
    storage = Storage(database)
    await storage.open()
    assert await storage.topic_name(-100, 7) is None
    await storage.save_topic_name(-100, 7, "Evening")
    await storage.save_topic_name(-100, 9, "Weekend")
    await storage.save_topic_name(-200, 7, "Другая")
    await storage.save_topic_name(-100, 7, "Evening games")  # renamed
    assert [await storage.topic_name(-100, 7), await storage.topic_name(-100, 9),
            await storage.topic_name(-200, 7)] == ["Evening games", "Weekend", "Другая"]
    await storage.close()


async def test_the_newest_game_of_each_topic(database: Path | str) -> None:
    """A chat's newest game per topic (General's, thread None, among them): what a bot added
    back to the group brings up to date."""
    storage = Storage(database)
    await storage.open()

    def game(chat_id: int, thread_id: int | None, status: Status) -> Game:
        return Game(0, chat_id, status, "gaple", {}, 1, [Player(1, "Ayu")], None, 0, "en",
                    Messages(), thread_id=thread_id)

    placed = [(-100, None), (-100, 7), (-100, None), (-100, 7), (-100, 9), (-200, None)]
    ids = [await storage.insert_game(game(chat, thread, Status.STOPPED), 0.0)
           for chat, thread in placed]
    assert await storage.last_game_ids(-100) == [ids[2], ids[3], ids[4]]
    assert await storage.last_game_ids(-300) == []
    await storage.close()
