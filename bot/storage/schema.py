"""The database schema, as the migrations that build it: each runs once, in order.

A migration is SQL, or a function of the open connection where data must be rewritten (SQLite
cannot reshape JSON in SQL alone). ``PRAGMA user_version`` counts the migrations applied.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import aiosqlite

from ..models import dumps, json_object

Migration = str | Callable[[aiosqlite.Connection], Awaitable[None]]

# Version 4 moved a group's house rules under their game. Until then one flat object held a
# target for every game and the options of the three games there were; these are its keys.
_FLAT_GAMES = ("gaple", "gaple-dead", "pair")
_FLAT_OPTIONS = {"deal": ("gaple-dead", 6), "dead_tiles": ("gaple-dead", True),
                 "blank_double_25": ("gaple-dead", False), "first_lead": ("pair", "6-6"),
                 "block_count": ("pair", "opponents")}


def per_game_settings(flat: dict[str, Any]) -> dict[str, Any]:
    """A version-3 settings object in the version-4 shape: ``games`` maps a game to the
    options the group chose for it (only those that differ from the game's own), and a
    target the group had set for every game is now each game's own choice."""
    games: dict[str, dict[str, Any]] = {}
    target = flat.pop("target", None)
    if type(target) is int:
        for game in _FLAT_GAMES:
            games.setdefault(game, {})["target"] = target
    for name, (game, default) in _FLAT_OPTIONS.items():
        value = flat.pop(name, default)
        if type(value) is type(default) and value != default:
            games.setdefault(game, {})[name] = value
    return {**flat, "games": games}


async def _settings_per_game(db: aiosqlite.Connection) -> None:
    # The latest /settings menu of a group: its buttons work on that message only.
    await db.execute("ALTER TABLE chats ADD COLUMN settings_menu INTEGER")
    async with db.execute("SELECT chat_id, settings FROM chats") as cursor:
        rows = list(await cursor.fetchall())
    for chat_id, text in rows:
        await db.execute("UPDATE chats SET settings=? WHERE chat_id=?",
                         (dumps(per_game_settings(json_object(text))), chat_id))

MIGRATIONS: tuple[Migration, ...] = (
    # 1: the first schema
    """
    CREATE TABLE users (
        user_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        username TEXT,
        language TEXT,
        private_ok INTEGER NOT NULL DEFAULT 0,  -- has a private chat with the bot
        updated_at REAL NOT NULL
    );
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        title TEXT,
        language TEXT,
        settings TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE games (
        game_id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby','playing','finished','stopped','cancelled')),
        variant TEXT NOT NULL,
        options TEXT NOT NULL,
        creator_id INTEGER NOT NULL,
        players TEXT NOT NULL,
        match TEXT,
        move_no INTEGER NOT NULL DEFAULT 0,
        language TEXT NOT NULL DEFAULT 'en',
        messages TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_chat ON games(chat_id)
        WHERE status IN ('lobby', 'playing');
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER NOT NULL,
        chat_id INTEGER NOT NULL,
        text TEXT NOT NULL,
        photo BLOB,
        created_at REAL NOT NULL
    );
    CREATE TABLE hand_results (
        game_id INTEGER NOT NULL,
        hand_number INTEGER NOT NULL,
        chat_id INTEGER NOT NULL,
        variant TEXT NOT NULL,
        players TEXT NOT NULL,
        winner_side INTEGER,
        totals TEXT NOT NULL,
        points TEXT NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, hand_number)
    );
    CREATE TABLE match_results (
        game_id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL,
        variant TEXT NOT NULL,
        players TEXT NOT NULL,
        sides TEXT NOT NULL,
        winner_side INTEGER,
        scores TEXT NOT NULL,
        finished_at REAL NOT NULL
    );
    """,
    # 2: turn timers, and the settings a game started with
    """
    ALTER TABLE games ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN deadline REAL;
    ALTER TABLE games ADD COLUMN timer TEXT NOT NULL DEFAULT '{}';
    CREATE INDEX games_deadline ON games(deadline) WHERE deadline IS NOT NULL;
    """,
    # 3: buttons on announcements (offering a computer player for an absent one)
    """
    ALTER TABLE outbox ADD COLUMN buttons TEXT;
    """,
    # 4: a group's house rules per game ({"games": {game: {option: value}}}), and which
    # message is its settings menu
    _settings_per_game,
    # 5: who sat in a seat before it changed hands, so history names who made each move
    """
    ALTER TABLE games ADD COLUMN seat_changes TEXT NOT NULL DEFAULT '[]';
    """,
    # 6: a rematch's lobby: who of the last match's players has not confirmed yet
    """
    ALTER TABLE games ADD COLUMN pending TEXT NOT NULL DEFAULT '[]';
    """,
    # 7: forum topics: a game lives in its topic (NULL: no topics, or the General topic),
    # and each topic may hold one open game (NULLs are distinct in an index: hence 0)
    """
    ALTER TABLE games ADD COLUMN thread_id INTEGER;
    DROP INDEX games_one_open_per_chat;
    CREATE UNIQUE INDEX games_one_open_per_topic ON games(chat_id, coalesce(thread_id, 0))
        WHERE status IN ('lobby', 'playing');
    """,
)
