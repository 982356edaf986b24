"""The games in memory: the open ones (lobbies, matches under way) and the finished ones the
publisher is still bringing up to date.

A finished game leaves when it is done (:meth:`GameMemory.release`) and is read back from the
database when someone asks for it (:meth:`GameMemory.find`). In fleet mode a worker holds the
games of the shards it owns: it loads them when it takes a shard and evicts them when it gives
the shard back (:mod:`bot.fleet`).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterable
from contextlib import asynccontextmanager

from engine import SEED_BYTES

from ..models import Composer, Drawing, Game, Status
from ..storage import Storage
from ..storage.fleet import (
    closed_games_of,
    games_left_by_player,
    open_games_in,
    open_games_of,
    open_games_of_player,
    outbox_games_of,
)
from ..storage.games import RECENTLY_CLOSED


class GameMemory:
    """The state every part of the service shares: storage, clock, and the games held."""

    def __init__(
        self,
        storage: Storage,
        composer: Composer,
        seed_source: Callable[[], bytes] = lambda: secrets.token_bytes(SEED_BYTES),
        clock: Callable[[], float] = time.time,
        on_change: Callable[[Game], None] | None = None,
        draw: Callable[[Drawing], Awaitable[bytes]] | None = None,
    ) -> None:
        self.on_change = on_change
        #: An open game memory lacked, read into it by any path but :meth:`load_open_games`
        #: (whose caller runs what it loads): a tap naming it, a command, a table opened
        #: where it is. It must run now (timers, computer turns, syncs), not at its next
        #: move: a fleet worker adopts it. Unset: :attr:`on_change` is told.
        self.on_load: Callable[[Game], None] | None = None
        self.on_move: Callable[[Game], None] | None = None  # each move committed (metrics)
        #: Each move accepted, as its commit begins (memory has it, the database not yet;
        #: the caller holds the game's lock): the publisher begins drawing its table.
        self.on_moving: Callable[[Game], None] | None = None
        # Pictures of announcements are drawn by ``draw`` (off the event loop) before they are
        # committed with their move; without it, here and now.
        self.draw = draw
        self.storage = storage
        self.composer = composer
        self.seed_source = seed_source
        self.clock = clock
        self._by_id: dict[int, Game] = {}
        # One open game per place: a chat, or a topic of a forum (thread None: General)
        self._open_by_place: dict[tuple[int, int | None], int] = {}

    async def load_open_games(self, shards: Collection[int] | None = None,
                              shard_count: int = 1) -> list[Game]:
        """Read the open games into memory: every one (one process), or those whose chat
        falls in ``shards`` of ``shard_count`` (a fleet worker taking shards). A game memory
        already holds keeps its object, with the committed state."""
        games = (await self.storage.open_games() if shards is None
                 else await open_games_of(self.storage, shards, shard_count))
        loaded = []
        for fresh in games:
            game = self._by_id.get(fresh.game_id)
            if game is None:
                game = fresh
            else:
                for name in Game.__slots__:
                    setattr(game, name, getattr(fresh, name))
            await self._check_reach(game)
            self._remember(game)
            loaded.append(game)
        await self.storage.seat(loaded)
        return loaded

    async def outbox_games(self, shards: Collection[int] | None = None,
                           shard_count: int = 1) -> list[int]:
        """The games with announcements still to send (of ``shards``, when given)."""
        if shards is None:
            return await self.storage.games_with_outbox()
        return await outbox_games_of(self.storage, shards, shard_count)

    async def closed_lately(self, shards: Collection[int] | None = None,
                            shard_count: int = 1) -> list[int]:
        """The games closed in the last hour (of ``shards``, when given): a start syncs
        them, as a worker taking shards does, for a closing edit a SIGKILL cut off."""
        since = self.clock() - RECENTLY_CLOSED
        if shards is None:
            return await self.storage.closed_since(since)
        return await closed_games_of(self.storage, shards, shard_count, since)

    async def played_games(self, user_id: int, limit: int) -> list[Game]:
        """The games ``user_id`` played a hand of, newest first (those still stored): what
        /verify and the private /replay offer."""
        found = [await self.find(game_id)
                 for game_id in await self.storage.recent_games_of(user_id, limit)]
        return [game for game in found if game is not None]

    def games_in(self, shards: Collection[int], shard_count: int) -> list[Game]:
        """The games in memory (open, or finished and still published) of ``shards``."""
        wanted = frozenset(shards)
        # (Python's % is never negative: the shard as bot.fleet.routing.shard_of reckons it)
        return [g for g in self._by_id.values() if g.chat_id % shard_count in wanted]

    def evict(self, shards: Collection[int], shard_count: int) -> list[Game]:
        """Forget the games whose chat falls in ``shards`` (a worker gave them back: their
        next owner reads them from the database); the games forgotten."""
        gone = self.games_in(shards, shard_count)
        self.forget(g.game_id for g in gone)
        return gone

    def forget(self, game_ids: Iterable[int]) -> None:
        """Forget these games (a fleet worker let them go: their chat's shard's owner reads
        them from the database)."""
        for game_id in game_ids:
            self._by_id.pop(game_id, None)
        for place, gid in list(self._open_by_place.items()):
            if gid not in self._by_id:
                del self._open_by_place[place]

    @asynccontextmanager
    async def undone_on_failure(self, game: Game, **messages: object) -> AsyncIterator[None]:
        """A change made to the game in memory, then committed: should the commit (or a read
        on the way) fail, the game is read again from the database, which has it as it was,
        so that memory never runs ahead of what is stored. The caller holds the game's lock.

        Its messages stay memory's on a reload (:meth:`reload`): those the change sets
        (``messages``: fields of :class:`~bot.gamemessages.Messages` and their new values, set
        here) are read back with the rest, each unless the publisher changed it meanwhile
        (it posts without the game's lock: what it posted is what Telegram shows). When even
        the reload fails, they are put back as they were here."""
        async with self._messages_set(game, messages, reload=True):
            yield

    @asynccontextmanager
    async def messages_undone_on_failure(self, game: Game,
                                         **messages: object) -> AsyncIterator[None]:
        """As :meth:`undone_on_failure` for a write of the game's messages alone, by a caller
        without the game's lock: the messages set are put back as they were, and nothing else
        is read again (a reload would take the game from under a move on its way)."""
        async with self._messages_set(game, messages, reload=False):
            yield

    @asynccontextmanager
    async def _messages_set(self, game: Game, messages: dict[str, object],
                            reload: bool) -> AsyncIterator[None]:
        before = {name: getattr(game.messages, name) for name in messages}
        for name, value in messages.items():
            setattr(game.messages, name, value)
        try:
            yield
        except BaseException:
            ours = [name for name, value in messages.items()
                    if getattr(game.messages, name) == value]  # (not the publisher's since)
            try:
                if reload and await self.reload(game.game_id, stored=ours) is game:
                    ours = []  # (as stored: else this object is no longer memory's)
            finally:
                for name in ours:
                    setattr(game.messages, name, before[name])
            raise

    async def reload(self, game_id: int, whole: bool = False,
                     stored: Collection[str] = ()) -> Game | None:
        """Read a game again from the database, into the same object when memory has one.

        Keeping the object means a tap or timer already holding it (waiting for the game's
        lock) sees the committed state, never a move that failed half-way. Its messages stay
        memory's (never behind what Telegram shows), but for the fields named in ``stored``
        (a change that failed had set them), unless ``whole``: a copy read before the game
        came to this process (a fleet worker adopting it) names its old chat's.
        """
        fresh = await self.storage.load_game(game_id)
        for place, gid in list(self._open_by_place.items()):
            if gid == game_id:
                del self._open_by_place[place]
        if fresh is None:
            self._by_id.pop(game_id, None)
            return None
        game = self._by_id.get(game_id)
        if game is None:
            game = fresh
        else:
            for name in Game.__slots__:
                if whole or name != "messages":  # (what Telegram shows: see above)
                    setattr(game, name, getattr(fresh, name))
            for name in () if whole else stored:
                setattr(game.messages, name, getattr(fresh.messages, name))
        await self._check_reach(game)
        self._remember(game)
        if game is fresh:
            self._came(game)
        return game

    async def read_open_game(self, chat_id: int, thread_id: int | None) -> Game | None:
        """The open game of a chat's topic as the database has it (None: none), read into
        memory, and run when memory lacked it (:attr:`on_load`)."""
        for fresh in await open_games_in(self.storage, chat_id):
            if (fresh.thread_id or 0) == (thread_id or 0):  # (as the one-open-game index)
                game = await self.reload(fresh.game_id)
                return game if game is not None and game.status.open else None
        return None

    async def find(self, game_id: int) -> Game | None:
        """Any game by its id: from memory, else read from the database (a finished game a
        button still names: "Play again", a stray tap). What is read so stays out of
        memory unless it is open."""
        game = self._by_id.get(game_id)
        if game is not None:
            return game
        game = await self.storage.load_game(game_id)
        if game is None:
            return None
        if game.status.open:
            await self._check_reach(game)
        held = self._by_id.get(game_id)
        if held is not None:  # another reader read it meanwhile
            return held
        if game.status.open:  # (one a fleet worker was not told of, or a reload dropped)
            self._remember(game)
            self._came(game)
        return game

    async def hold(self, game_id: int) -> Game | None:
        """The game, kept in memory (read back if it had left) until :meth:`release`: one
        object for everybody who brings its messages up to date."""
        game = await self.find(game_id)
        if game is not None and game_id not in self._by_id:
            self._by_id[game_id] = game
        return game

    def release(self, game_id: int) -> None:
        """Nobody works on the game any more: a finished one leaves memory (open ones stay)."""
        game = self._by_id.get(game_id)
        if game is not None and not game.status.open:
            del self._by_id[game_id]

    def _came(self, game: Game) -> None:
        """An open game memory lacked was read into it: the bot runs it (:attr:`on_load`)."""
        if game.status.open:
            told = self.on_load or self.on_change
            if told is not None:
                told(game)

    def _changed(self, game: Game) -> None:
        """Tell the bot (publisher, timers) that a game changed; it has been committed."""
        if self.on_change is not None:
            self.on_change(game)

    def _remember(self, game: Game) -> None:
        self._by_id[game.game_id] = game
        for place, gid in list(self._open_by_place.items()):
            if gid == game.game_id:
                del self._open_by_place[place]  # closed, or moved out of its topic
        if game.status.open:
            self._open_by_place[game.chat_id, game.thread_id] = game.game_id

    def game(self, game_id: int) -> Game | None:
        """A game in memory: an open one, or a finished one still being published."""
        return self._by_id.get(game_id)

    def open_game_in(self, chat_id: int, thread_id: int | None = None) -> Game | None:
        """The open game of a chat, or of one topic of a forum (None: its General topic)."""
        game_id = self._open_by_place.get((chat_id, thread_id))
        return self._by_id.get(game_id) if game_id is not None else None

    def open_games_in(self, chat_id: int) -> list[Game]:
        """Every open game of a chat, whatever its topic."""
        return [g for g in self.open_games() if g.chat_id == chat_id]

    def computers_elsewhere(self, game: Game) -> set[int]:
        """The computer players seated at the group's other open tables (its other topics'):
        a computer joining ``game`` is given another name while one is free, so two tables of
        one group have no two "🤖 Rio" (player QA). Memory holds every open game of a chat
        (a fleet worker owns the chat's shard whole): no database round trip."""
        return {p.user_id for other in self.open_games_in(game.chat_id)
                if other.game_id != game.game_id for p in other.players if p.is_computer}

    async def games_waiting_in(self, chat_id: int) -> list[int]:
        """The games of a chat with something to bring up to date there: every open one, the
        finished ones with announcements still to send, and its last game if it stopped as
        the bot was removed."""
        waiting = [g.game_id for g in self.open_games_in(chat_id)]
        for game_id in await self.outbox_games():
            game = await self.find(game_id) if game_id not in waiting else None
            if game is not None and game.chat_id == chat_id:
                waiting.append(game_id)
        for game_id in await self.storage.last_game_ids(chat_id):  # (one a topic)
            last = await self.find(game_id) if game_id not in waiting else None
            if last is not None and last.messages.bot_removed:
                # stopped as the bot was removed, its table left saying whose turn it was
                # (the edit was refused): the bot back, the table says how it ended (QA)
                waiting.append(game_id)
        return waiting

    async def last_game_in(self, chat_id: int, thread_id: int | None = None) -> Game | None:
        """The newest game of a chat (or topic), open or not."""
        game_id = await self.storage.last_game_id(chat_id, thread_id)
        return None if game_id is None else await self.find(game_id)

    def open_games(self) -> list[Game]:
        return [g for g in self._by_id.values() if g.status.open]

    def games_of_user(self, user_id: int) -> list[Game]:
        return [g for g in self.open_games() if g.seat_of(user_id) is not None]

    def games_left_by(self, user_id: int) -> list[Game]:
        """The matches under way that ``user_id`` played until a computer took their seat."""
        return _left_by(self.open_games(), user_id)

    async def read_games_left_by(self, user_id: int) -> list[Game]:
        """The matches under way ``user_id`` played until a computer took their seat:
        memory's (:meth:`games_left_by`), else, as :meth:`read_games_of_user` does on a fleet
        worker, those the database holds (handed on while they were away, or left with
        /leave), each read into memory and run."""
        games = self.games_left_by(user_id)
        if games or self.on_load is None:  # (one process: memory holds every open game)
            return games
        found = [await self.find(game_id)
                 for game_id in await games_left_by_player(self.storage, user_id)]
        return _left_by(filter(None, found), user_id)

    async def read_games_of_user(self, user_id: int) -> list[Game]:
        """The open games ``user_id`` sits in: memory's (:meth:`games_of_user`). When memory
        has none and may lack some (a fleet worker, :attr:`on_load` set: one whose shards a
        group's game moved into, a supergroup upgrade, before its sweep adopted it), the
        database's, each read into memory and run as a tap naming it would be
        (:meth:`find`). The database is asked only then: one query over the open games."""
        games = self.games_of_user(user_id)
        if games or self.on_load is None:  # (one process: memory holds every open game)
            return games
        found = [await self.find(game_id)
                 for game_id in await open_games_of_player(self.storage, user_id)]
        return [g for g in found
                if g is not None and g.status.open and g.seat_of(user_id) is not None]

    async def _check_reach(self, game: Game) -> None:
        """Read which of a lobby's people the bot cannot write to in private."""
        if game.status is Status.LOBBY:
            game.unreachable_ids = [p.user_id for p in game.players if not p.is_computer
                                and not await self.storage.private_ok(p.user_id)]


def _left_by(games: Iterable[Game], user_id: int) -> list[Game]:
    """Of ``games``, the matches under way that ``user_id`` played until a computer took
    their seat."""
    return [g for g in games if g.status is Status.PLAYING
            and g.seat_of(user_id) is None and g.played_by(user_id)]
