"""What the fleet tests share: what they check a match by (each table's match as stored,
against the engine's replay of its stored actions), a wait, the stand-ins the unit tests of a
worker build (a lobby, a worker's game moves), and a fleet run in the test's own process
(:func:`in_process`). The processes and the tables the tests start are in
``testservers.fleet`` and ``testservers.tables`` (shared with ``benchmarks.fleet``)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from types import SimpleNamespace

import asyncpg  # type: ignore[import-untyped]
from telegram.ext import Application

from bot.app import build_application
from bot.config import BotConfig
from bot.fleet.moves import GameMoves
from bot.fleet.receiver import receiving
from bot.fleet.settings import FleetSettings
from bot.gamemessages import Messages
from bot.models import Game, Player, Status
from bot.serving.webserver import HttpSettings, WebServer
from bot.wording import isolated
from engine.record import replay
from fakeapi import FakeChat, FakeTelegramServer
from testservers import free_port


@dataclass(frozen=True)
class Outcome:
    """One table's match as stored, against what the engine makes of its stored actions."""

    chat_id: int
    status: str
    stored_scores: tuple[int, ...] | None
    stored_winner: int | None
    replayed_scores: tuple[int, ...] | None
    replayed_winner: int | None
    hands_stored: int
    hands_replayed: int
    replay_error: str | None
    winner_name: str | None = None  # the replayed winner side's first player, as announced

    def announced_in(self, text: str) -> bool:
        """Whether the group's "The match is over" message names the replayed winner."""
        if self.replayed_winner is None:
            return "It is a draw." in text
        return "🏆 " + isolated(self.winner_name or "") in text

    @property
    def agrees(self) -> bool:
        return (self.status == "finished" and self.replay_error is None
                and self.stored_scores == self.replayed_scores
                and self.stored_winner == self.replayed_winner
                and self.hands_stored == self.hands_replayed)


async def outcomes(database_url: str, chats: Sequence[FakeChat]) -> list[Outcome]:
    """Each chat's one game: its stored result and the engine's replay of its action log."""
    connection = await asyncpg.connect(database_url)
    try:
        found = []
        for chat in chats:
            game = await connection.fetchrow(
                "SELECT game_id, status, match, players FROM games WHERE chat_id=$1", chat.id)
            assert game is not None, f"{chat.name} has no game"
            result = await connection.fetchrow(
                "SELECT winner_side, scores FROM match_results WHERE game_id=$1", game["game_id"])
            hands = await connection.fetchval(
                "SELECT count(*) FROM hand_results WHERE game_id=$1", game["game_id"])
            names = [str(player[1]) for player in json.loads(game["players"])]
            found.append(_outcome(chat.id, game["status"], game["match"], result, hands, names))
        return found
    finally:
        await connection.close()


def _outcome(chat_id: int, status: str, match_json: str | None,
             result: asyncpg.Record | None, hands: int, names: Sequence[str]) -> Outcome:
    replayed = replay(json.loads(match_json)) if match_json else None
    match = replayed.match if replayed else None
    winner = match.winner if match is not None else None
    winner_name = names[match.sides[winner][0]] if match is not None and winner is not None \
        else None
    error = (replayed.error.message if replayed and replayed.error
             else None if match is not None else "no match stored")
    return Outcome(
        chat_id, status,
        tuple(json.loads(result["scores"])) if result else None,
        result["winner_side"] if result else None,
        tuple(match.scores) if match is not None and match.over else None,
        winner, hands, len(match.hands) if match is not None else 0, error, winner_name)


async def until(condition: Callable[[], object], timeout: float = 10.0) -> float:
    """Wait for ``condition()`` to hold; the seconds it took."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < timeout, "timed out"
        await asyncio.sleep(0.02)
    return time.monotonic() - start


def seated(chat_id: int, *users: int, thread: int | None = None) -> Game:
    """A lobby in ``chat_id`` (its topic ``thread``) with ``users`` seated (each named P and
    their id), not stored."""
    players = [Player(user, f"P{user}") for user in users]
    return Game(0, chat_id, Status.LOBBY, "gaple", {}, 1, players, None, 0, "en", Messages(),
                thread_id=thread)


def game_moves(limiter: object, service: object, requested: list[int], shards: int,
               holding: Iterable[int] | None = None,
               resume: Callable[[list[Game]], Awaitable[None]] | None = None) -> GameMoves:
    """A worker's game moves over stand-ins of its runtime: ``limiter`` and ``service``,
    holding ``holding`` of ``shards`` (every one by default); the games whose syncs it
    requests go to ``requested``, those it resumes to ``resume``."""
    async def nothing(games: list[Game]) -> None:
        return None

    moves = GameMoves()
    moves.rt = SimpleNamespace(  # type: ignore[assignment]
        status_lines=SimpleNamespace(loaded=lambda games: None), limiter=limiter,
        service=service, publisher=SimpleNamespace(request=requested.append),
        timers=SimpleNamespace(resume=resume or nothing))
    moves.settings = SimpleNamespace(shards=shards)  # type: ignore[assignment]
    moves.holding = frozenset(range(shards) if holding is None else holding)
    return moves


@dataclass(frozen=True)
class InProcessFleet:
    """A fleet run in the test's own process against the fake Bot API: the bot's settings
    with Telegram's limits lifted (these tests follow the updates and the shards, not the
    limiter), the receiver's webhook on a free port, and the fleet's settings."""

    config: BotConfig
    hook: HttpSettings  # the receiver's
    fleet: FleetSettings

    def worker(self, name: str) -> Application:  # type: ignore[type-arg]
        """Worker ``name``'s application: no webhook (the receiver takes the updates)."""
        plain = HttpSettings(None, self.hook.webhook_secret, "127.0.0.1", None)
        return build_application(self.config, http=plain,
                                 fleet=replace(self.fleet, worker_name=name))

    def receiver(self) -> AbstractAsyncContextManager[WebServer]:
        """The receiver, serving the webhook until the block ends."""
        return receiving(self.config, self.hook, self.fleet)


def in_process(server: FakeTelegramServer, database_url: str, secret: str, shards: int,
               name: str = "a", computer_pause: float = 2.0) -> InProcessFleet:
    """The settings of a fleet of ``shards`` on ``server`` and ``database_url`` (``name``:
    the receiver's worker name, and its first worker's)."""
    config = BotConfig(token=server.token, api_base_url=server.api_root,
                       database_url=database_url, computer_pause=computer_pause,
                       group_messages_per_minute=100_000, messages_per_second=100_000,
                       private_messages_per_period=100_000)
    port = free_port()
    hook = HttpSettings(f"http://127.0.0.1:{port}/hook", secret, "127.0.0.1", port)
    return InProcessFleet(config, hook,
                          FleetSettings(database_url, shards, name, tick=0.2, poll=0.5))
