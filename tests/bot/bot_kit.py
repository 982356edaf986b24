"""Helpers of the bot's end-to-end tests: a group with the real bot running against the fake
Bot API server."""

from __future__ import annotations

import itertools
import logging
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageDraw

import renderers.canvas
from bot.app import build_application, running
from bot.config import BotConfig
from bot.handlers.runtime import KEY, Runtime
from bot.models import Game
from bot.service import GameService
from bot.storage.games import game_from_row
from bot.wording import FSI, PDI
from fakeapi import FakeChat, FakeTelegramServer, FakeTopic, FakeUser, StoredMessage
from fakeapi.players import Table, live_buttons, second_taps

NAMES = ("Ayu", "Budi", "Sergei", "Þóra", "Dewi")
# Every name in a text is isolated (bot.wording.isolated); tests about something else read
# the texts without the isolates, tests about names read them as sent (raw_texts).
_ISOLATES = str.maketrans("", "", FSI + PDI)


def plain(text: str) -> str:
    """``text`` without the isolates around its names: "Ayu laid 3-4", as a reader sees it."""
    return text.translate(_ISOLATES)


@dataclass
class Group:
    """A group chat with people in it and the bot running: what every scenario starts from.
    In a forum, ``topic`` is the topic the scenario plays in (None: General); the texts and
    the lobby are those of that topic only."""

    server: FakeTelegramServer
    chat: FakeChat
    users: list[FakeUser]
    database: Path
    seeds: Callable[[], bytes]
    runtime: Runtime | None = None
    extra: dict[str, object] = field(default_factory=dict)
    topic: FakeTopic | None = None

    @property
    def service(self) -> GameService:
        assert self.runtime is not None
        return self.runtime.service

    def game(self) -> Game:
        """The group's newest game (finished ones included): the bot's own object while
        it is in memory, else as the database has it (finished games leave memory)."""
        thread = self.topic.thread_id if self.topic is not None else None
        game = self._newest(thread)
        if game is None:  # a game whose topic went away ends in General
            game = self._newest(None)
        assert game is not None
        return game

    def _newest(self, thread: int | None) -> Game | None:
        with closing(sqlite3.connect(self.database)) as db:
            db.row_factory = sqlite3.Row
            row = db.execute("SELECT * FROM games WHERE chat_id=? AND thread_id IS ?"
                             " ORDER BY game_id DESC LIMIT 1", (self.chat.id, thread)).fetchone()
        if row is None:
            return None
        return self.service.game(row["game_id"]) or game_from_row(row)

    def hand_results(self) -> list[str]:
        return [t for t in self.texts() if re.match(r"Hand \d+ is over\.", t)]

    def settings(self, **changes: object) -> BotConfig:
        values: dict[str, object] = {
            "token": self.server.token,
            "api_base_url": self.server.api_root,
            "database_path": self.database,
            "group_messages_per_minute": 100_000,
            "messages_per_second": 100_000,
            "private_messages_per_period": 100_000,
        }
        values.update(changes)
        return BotConfig(**values)  # type: ignore[arg-type]

    @asynccontextmanager
    async def bot(self, **settings: object) -> AsyncIterator[Runtime]:
        application = build_application(self.settings(**settings), seed_source=self.seeds)
        async with running(application):
            self.runtime = application.bot_data[KEY]
            self.extra["application"] = application
            yield self.runtime
            await self.runtime.publisher.idle()

    def messages(self) -> list[StoredMessage]:
        """The bot's messages in the group (in its topic, in a forum)."""
        return self.server.topic_messages(self.chat, self.topic)

    def texts(self) -> list[str]:
        """The group's texts as read (names without their isolates: see :func:`plain`)."""
        return [plain(text) for text in self.raw_texts()]

    def raw_texts(self) -> list[str]:
        """The group's texts as sent, the isolates around names included."""
        return [m.text or m.caption or "" for m in self.messages()]

    def send(self, user: FakeUser, text: str) -> StoredMessage:
        """``user`` writes in the group (in its topic, in a forum)."""
        return user.send(self.chat, text, topic=self.topic)

    def said(self, fragment: str) -> bool:
        return any(fragment in text for text in self.texts())

    def lobby(self) -> StoredMessage:
        """The open lobby (found by its Join button's data, whatever the language)."""
        for message in reversed(self.messages()):
            if lobby_button(message, "j") is not None:
                return message
        raise AssertionError("no lobby message")

    async def open_table(self, game: str, players: int = 4) -> None:
        """Everybody opens the private chat, the first opens a table, the others join."""
        for user in self.users[:players]:
            user.send_private("/start")
        self.send(self.users[0], f"/newgame {game}")
        lobby = await self.server.wait_for(lambda: self._lobby_or_none())
        for user in self.users[1:players]:
            record = user.press(lobby, lobby_button(lobby, "j") or "")
            await self.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        await self.server.wait_for(
            lambda: all(u.id in lobby.mentioned_user_ids for u in self.users[:players])
        )

    def lobby_or_text(self) -> str:
        """Every text the bot showed the group, joined (for quick content checks)."""
        return "\n".join(self.texts())

    def _lobby_or_none(self) -> StoredMessage | None:
        try:
            return self.lobby()
        except AssertionError:
            return None

    async def start(self, game: str, players: int = 4) -> Table:
        await self.open_table(game, players)
        lobby = self.lobby()
        record = self.users[0].press(lobby, lobby_button(lobby, "s") or "")
        await self.server.wait_for(lambda: record.answered)
        assert record.answer_text, "the Start tap got no answer"
        return Table(self.server, self.users[:players])

    def match_over(self) -> bool:
        return self.said("The match is over")


def complaints(caplog: pytest.LogCaptureFixture, level: int = logging.ERROR) -> list[str]:
    """The log lines at ``level`` or above, with their exception's words."""
    return [f"{r.name}: {r.getMessage()} {r.exc_info[1] if r.exc_info else ''}"
            for r in caplog.records if r.levelno >= level]


def drawn_words(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """From now on, every string the pictures draw (their words), in order."""
    drawn: list[str] = []
    original = renderers.canvas.letter

    def recording(draw: ImageDraw.ImageDraw, xy: Any, words: str, *args: Any,
                  **kwargs: Any) -> Any:
        drawn.append(words)
        return original(draw, xy, words, *args, **kwargs)

    monkeypatch.setattr(renderers.canvas, "letter", recording)
    return drawn


def counting_seeds(start: int = 7000) -> Callable[[], bytes]:
    """Deal seeds 32 bytes long (as the bot's own are), each the next number from ``start``:
    the same deals on every run."""
    counter = itertools.count(start)
    return lambda: next(counter).to_bytes(32, "big")


def die_after_commit(runtime: Runtime) -> None:
    """From now on the bot commits but never sends: as if it died right after each commit."""

    async def nothing(game_id: int) -> None:
        return None

    runtime.publisher.group.sync = nothing  # type: ignore[method-assign]
    runtime.publisher.hands.sync = nothing  # type: ignore[method-assign]


def lobby_button(message: StoredMessage, kind: str) -> str | None:
    """The callback data of the lobby button of ``kind`` (j: join, s: start, ...)."""
    for row in message.buttons:
        for button in row:
            if button.callback_data and button.callback_data.startswith(kind + ":"):
                return button.callback_data
    return None


async def tap_played(group: Group, user: FakeUser, message: StoredMessage, record: Any,
                     before: int, shown: list[str], what: str) -> None:
    """Whether a tile tap (``record``, on ``message`` showing ``shown``) is answered without
    a refusal and played, the end picked where the tile fits both: the game's move number
    passes ``before`` (``what``: the tap, in the failure's words)."""
    game = group.game()
    await group.server.wait_for(lambda: record.answered, message="the tap was not answered")
    assert not record.answer_text, record.answer_text
    await group.server.wait_for(lambda: message.deleted or live_buttons(message) != shown)
    follow = second_taps(live_buttons(message))
    if follow:  # the tile fits both ends: which one
        record = user.press(message, follow[0])
        await group.server.wait_for(lambda: record.answered)
        assert not record.answer_text, record.answer_text
    await group.server.wait_for(lambda: game.move_no > before, message=f"{what} was not played")
    await group.server.wait_idle()
