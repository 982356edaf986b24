"""The game service: lobbies, seats, moves and their persistence, with no Telegram in sight.

Handlers decode an update and call one method here; it checks, applies, commits (with what
must be announced, in the same transaction), and returns. Sending is the publisher's job.
"""

from __future__ import annotations

import asyncio
import enum
import json
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine import (
    KNOCK,
    Action,
    BadInputError,
    CorruptMatchError,
    DominoError,
    Event,
    HandEnded,
    Match,
    MatchEnded,
    ai,
    match_from_json,
    match_to_json,
    player_view,
    variant,
)
from engine.ai import safest_action

from .errors import UserError
from .i18n import N_
from .storage import Storage, dumps

GAMES = ("gaple", "gaple-dead", "pair")
AWAY_AFTER = 3  # time-outs in a row before a player is considered away
REPLACEMENT_LEVEL = "normal"  # who takes the seat of a player who leaves


class Status(enum.Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    STOPPED = "stopped"
    CANCELLED = "cancelled"

    @property
    def open(self) -> bool:
        return self in (Status.LOBBY, Status.PLAYING)


@dataclass(frozen=True, slots=True)
class Player:
    """A seat's occupant. Computer players have negative ids and a ``level``."""

    user_id: int
    name: str
    level: str | None = None  # "easy" | "normal" | "hard" for a computer player

    @property
    def is_computer(self) -> bool:
        return self.level is not None

    def to_json(self) -> list[object]:
        return [self.user_id, self.name] if self.level is None else [
            self.user_id, self.name, self.level]

    @classmethod
    def from_json(cls, data: list[Any]) -> Player:
        return cls(int(data[0]), str(data[1]), str(data[2]) if len(data) > 2 else None)


# Computer players: recognisable names, one fixed identity per name so the scoreboard can
# follow them from game to game (it hides them from the human ranking unless asked).
COMPUTER_NAMES = {
    "easy": ("Pip", "Dot", "Bit", "Nib"),
    "normal": ("Domi", "Kartu", "Balak", "Sambung"),
    "hard": ("Oracle", "Counter", "Abacus", "Sage"),
}


COMPUTER_LEVELS = tuple(COMPUTER_NAMES)  # the lobby buttons carry an index into this


def computer(level: str, taken: set[int]) -> Player:
    """The first computer player of ``level`` whose identity is not already seated."""
    base = {"easy": 100, "normal": 200, "hard": 300}[level]
    for index, name in enumerate(COMPUTER_NAMES[level]):
        user_id = -(base + index + 1)
        if user_id not in taken:
            return Player(user_id, f"🤖 {name}", level)
    raise UserError(N_("No more computer players of that level are free."))


@dataclass(slots=True)
class HandMessage:
    message_id: int
    key: str  # what it shows: the publisher skips edits that would change nothing


@dataclass(slots=True)
class Messages:
    """The Telegram messages a game owns, kept so a restart can bring them up to date."""

    lobby: int | None = None
    lobby_key: str | None = None
    table: int | None = None
    table_hand: int | None = None  # the hand number the table message shows
    table_key: str | None = None
    hands: dict[int, HandMessage] = field(default_factory=dict)  # by seat
    unreachable: list[int] = field(default_factory=list)  # seats told about in the group

    def to_json(self) -> str:
        return dumps(
            {
                "lobby": self.lobby,
                "lobby_key": self.lobby_key,
                "table": self.table,
                "table_hand": self.table_hand,
                "table_key": self.table_key,
                "hands": {str(s): [m.message_id, m.key] for s, m in self.hands.items()},
                "unreachable": self.unreachable,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Messages:
        data = json.loads(text or "{}")
        return cls(
            data.get("lobby"),
            data.get("lobby_key"),
            data.get("table"),
            data.get("table_hand"),
            data.get("table_key"),
            {int(s): HandMessage(v[0], v[1]) for s, v in data.get("hands", {}).items()},
            list(data.get("unreachable", [])),
        )


@dataclass(slots=True)
class TimerState:
    """Who ran out of time, and whether the half-time warning was given for this turn."""

    timeouts: dict[int, int] = field(default_factory=dict)  # seat -> time-outs in a row
    away: list[int] = field(default_factory=list)  # seats that timed out too often
    warned: bool = False
    auto_moves: list[str] = field(default_factory=list)  # "hand:index" of moves made for them

    def to_json(self) -> str:
        return dumps({"timeouts": {str(k): v for k, v in self.timeouts.items()},
                      "away": self.away, "warned": self.warned, "auto": self.auto_moves[-64:]})

    @classmethod
    def from_json(cls, text: str | None) -> TimerState:
        data = json.loads(text or "{}")
        return cls({int(k): int(v) for k, v in data.get("timeouts", {}).items()},
                   list(data.get("away", [])), bool(data.get("warned", False)),
                   list(data.get("auto", [])))


@dataclass(slots=True)
class Game:
    game_id: int
    chat_id: int
    status: Status
    variant: str
    options: dict[str, Any]
    creator_id: int
    players: list[Player]
    match: Match | None
    move_no: int
    language: str
    messages: Messages
    turn_seconds: int = 0
    deadline: float | None = None
    timer: TimerState = field(default_factory=TimerState)

    def seat_of(self, user_id: int) -> int | None:
        for seat, player in enumerate(self.players):
            if player.user_id == user_id:
                return seat
        return None

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return variant(self.variant).seat_counts


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One announcement for the group: text (HTML) and an optional picture."""

    text: str
    photo: bytes | None = None
    buttons: tuple[tuple[tuple[str, str], ...], ...] = ()  # rows of (label, callback data)


class Composer(Protocol):
    """Turns what happened into announcements (the presentation layer implements it)."""

    def announcements(self, game: Game, events: Sequence[Event]) -> list[Outgoing]: ...

    def away(self, game: Game, seat: int) -> list[Outgoing]: ...

    def replaced(self, game: Game, leaving: Player, newcomer: Player) -> list[Outgoing]: ...

    def stopped(self, game: Game, by: str) -> list[Outgoing]: ...


def move_number(match: Match | None) -> int:
    """Counts every action and every deal: buttons carry it, so a stale button is spotted."""
    if match is None:
        return 0
    return sum(len(hand.moves) for hand in match.hands) + len(match.hands)


class GameService:
    """Every change to a game goes through here, one transaction per accepted request."""

    def __init__(
        self,
        storage: Storage,
        composer: Composer,
        seed_source: Callable[[], int] = lambda: secrets.randbits(64),
        clock: Callable[[], float] = time.time,
        on_change: Callable[[Game], None] | None = None,
    ) -> None:
        self.on_change = on_change
        self.storage = storage
        self.composer = composer
        self.seed_source = seed_source
        self.clock = clock
        self._by_id: dict[int, Game] = {}
        self._open_by_chat: dict[int, int] = {}

    # --- loading -----------------------------------------------------------------------
    async def load_open_games(self) -> list[Game]:
        rows = await self.storage.fetch_all(
            "SELECT * FROM games WHERE status IN ('lobby', 'playing') ORDER BY game_id"
        )
        games = [self._from_row(row) for row in rows]
        for game in games:
            self._remember(game)
        return games

    async def reload(self, game_id: int) -> Game | None:
        """Read a game again from the database, into the same object when memory has one.

        Keeping the object means a tap or timer already holding it (waiting for the game's
        lock) sees the committed state, never a move that failed half-way.
        """
        row = await self.storage.fetch_one("SELECT * FROM games WHERE game_id=?", (game_id,))
        for chat, gid in list(self._open_by_chat.items()):
            if gid == game_id:
                del self._open_by_chat[chat]
        if row is None:
            self._by_id.pop(game_id, None)
            return None
        fresh = self._from_row(row)
        game = self._by_id.get(game_id)
        if game is None:
            game = fresh
        else:
            for name in Game.__slots__:
                setattr(game, name, getattr(fresh, name))
        self._remember(game)
        return game

    def _changed(self, game: Game) -> None:
        """Tell the bot (publisher, timers) that a game changed; it has been committed."""
        if self.on_change is not None:
            self.on_change(game)

    def _remember(self, game: Game) -> None:
        self._by_id[game.game_id] = game
        if game.status.open:
            self._open_by_chat[game.chat_id] = game.game_id
        elif self._open_by_chat.get(game.chat_id) == game.game_id:
            del self._open_by_chat[game.chat_id]

    def _from_row(self, row: Any) -> Game:
        match = None
        if row["match"]:
            try:
                match = match_from_json(row["match"])
            except CorruptMatchError:
                match = None  # kept out of play; the stored text stays for inspection
        players = [Player.from_json(p) for p in json.loads(row["players"])]
        return Game(
            row["game_id"], row["chat_id"], Status(row["status"]), row["variant"],
            json.loads(row["options"]), row["creator_id"], players, match, row["move_no"],
            row["language"], Messages.from_json(row["messages"]), row["turn_seconds"],
            row["deadline"], TimerState.from_json(row["timer"]),
        )

    def game(self, game_id: int) -> Game | None:
        return self._by_id.get(game_id)

    def open_game_in(self, chat_id: int) -> Game | None:
        game_id = self._open_by_chat.get(chat_id)
        return self._by_id.get(game_id) if game_id is not None else None

    def last_game_in(self, chat_id: int) -> Game | None:
        """The newest game of a chat that this run has seen, open or not."""
        games = [g for g in self._by_id.values() if g.chat_id == chat_id]
        return max(games, key=lambda g: g.game_id) if games else None

    def open_games(self) -> list[Game]:
        return [g for g in self._by_id.values() if g.status.open]

    def games_of_user(self, user_id: int) -> list[Game]:
        return [g for g in self.open_games() if g.seat_of(user_id) is not None]

    # --- lobby -------------------------------------------------------------------------
    async def create(
        self, chat_id: int, creator: Player, game_name: str, language: str,
        options: dict[str, Any] | None = None, turn_seconds: int = 0,
    ) -> Game:
        if self.open_game_in(chat_id) is not None:
            raise UserError(N_("A game is already running in this chat."))
        if game_name not in GAMES:
            raise UserError(N_("I don't know the game {game}."), game=game_name)
        options = dict(options or {})
        variant(game_name).options(options, variant(game_name).seat_counts[0])
        now = self.clock()
        async with self.storage.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO games (chat_id, status, variant, options, creator_id, players,"
                " language, turn_seconds, created_at, updated_at)"
                " VALUES (?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?)",
                (chat_id, game_name, dumps(options), creator.user_id,
                 dumps([[creator.user_id, creator.name]]), language, turn_seconds, now, now),
            )
            game_id = cursor.lastrowid
        assert game_id is not None
        game = Game(game_id, chat_id, Status.LOBBY, game_name, options, creator.user_id,
                    [creator], None, 0, language, Messages(), turn_seconds)
        self._remember(game)
        self._changed(game)
        return game

    def _lobby(self, game: Game) -> None:
        if game.status is not Status.LOBBY:
            raise UserError(N_("This game has already started."))

    async def join(self, game: Game, player: Player) -> None:
        self._lobby(game)
        if game.seat_of(player.user_id) is not None:
            raise UserError(N_("You are already in this game."))
        if len(game.players) >= max(game.seat_counts):
            raise UserError(N_("This game is full."))
        game.players.append(player)
        await self._save_players(game)

    async def add_computer(self, game: Game, user_id: int, level: str) -> Player:
        """The creator seats a computer player of ``level``."""
        self._lobby(game)
        if user_id != game.creator_id:
            raise UserError(N_("Only the player who created the game can add computer players."))
        if len(game.players) >= max(game.seat_counts):
            raise UserError(N_("This game is full."))
        player = computer(level, {p.user_id for p in game.players})
        game.players.append(player)
        await self._save_players(game)
        return player

    async def remove_computer(self, game: Game, user_id: int) -> None:
        """The creator takes the last computer player off the table."""
        self._lobby(game)
        if user_id != game.creator_id:
            raise UserError(N_("Only the player who created the game can add computer players."))
        for seat in range(len(game.players) - 1, -1, -1):
            if game.players[seat].is_computer:
                del game.players[seat]
                await self._save_players(game)
                return
        raise UserError(N_("There is no computer player at this table."))

    async def leave(self, game: Game, user_id: int) -> None:
        self._lobby(game)
        seat = game.seat_of(user_id)
        if seat is None:
            raise UserError(N_("You are not in this game."))
        if user_id == game.creator_id:
            raise UserError(N_("You created this game: cancel it instead."))
        del game.players[seat]
        await self._save_players(game)

    async def _save_players(self, game: Game) -> None:
        async with self.storage.transaction() as db:
            await db.execute(
                "UPDATE games SET players=?, updated_at=? WHERE game_id=?",
                (dumps([p.to_json() for p in game.players]), self.clock(), game.game_id),
            )
        self._changed(game)

    async def cancel(self, game: Game, user_id: int, is_admin: bool) -> None:
        self._lobby(game)
        if user_id != game.creator_id and not is_admin:
            raise UserError(N_("Only the player who created the game can cancel it."))
        await self._set_status(game, Status.CANCELLED)

    async def start(self, game: Game, user_id: int) -> list[Event]:
        self._lobby(game)
        if user_id != game.creator_id:
            raise UserError(N_("Only the player who created the game can start it."))
        if len(game.players) not in game.seat_counts:
            low, high = min(game.seat_counts), max(game.seat_counts)
            if low == high:
                raise UserError(N_("The game needs {count} players."), count=low)
            raise UserError(N_("The game needs {low} to {high} players."), low=low, high=high)
        try:
            match = Match(game.variant, len(game.players), game.options)
        except BadInputError:
            raise UserError(N_("These options do not fit a table of {count} players."),
                            count=len(game.players)) from None
        game.match = match
        events, outgoing = self._settle(game, match.deal_hand(random.Random(self.seed_source())))
        game.status = Status.PLAYING
        try:
            await self._commit(game, events, outgoing, previous_move_no=0)
        except BaseException:
            await self.reload(game.game_id)
            raise
        return events

    # --- play --------------------------------------------------------------------------
    async def act(self, game: Game, user_id: int, move_no: int, action: Action) -> list[Event]:
        """Apply a player's action from a button that was made at ``move_no``.

        Raises :class:`UserError` for a stale button, a seat that is not theirs, or a move
        the rules refuse; nothing changes then.
        """
        match = game.match
        if game.status is not Status.PLAYING or match is None:
            raise UserError(N_("This game is over."))
        seat = game.seat_of(user_id)
        if seat is None:
            raise UserError(N_("You are not playing in this game."))
        if move_no != game.move_no:
            raise UserError(N_("That button is out of date."))
        if match.to_move != seat:
            raise UserError(N_("It is not your turn."))
        return await self._play(game, seat, action, timed_out=False)

    async def expire(self, game: Game, move_no: int) -> list[Event]:
        """The turn made at ``move_no`` ran out of time: play the safe move for that seat.

        Does nothing (returns no events) if the turn is already over or not yet due.
        """
        match = game.match
        if (game.status is not Status.PLAYING or match is None or game.move_no != move_no
                or game.deadline is None or self.clock() < game.deadline - 0.5):
            return []
        seat = match.to_move
        assert seat is not None
        return await self._play(game, seat, safest_action(player_view(match, seat)),
                                timed_out=True)

    async def warn(self, game: Game, move_no: int) -> bool:
        """Mark the half-time warning of the turn made at ``move_no`` (once)."""
        if game.status is not Status.PLAYING or game.move_no != move_no or game.timer.warned:
            return False
        game.timer.warned = True
        async with self.storage.transaction() as db:
            await db.execute("UPDATE games SET timer=? WHERE game_id=?",
                             (game.timer.to_json(), game.game_id))
        self._changed(game)
        return True

    async def _play(self, game: Game, seat: int, action: Action, timed_out: bool) -> list[Event]:
        match = game.match
        assert match is not None
        previous = game.move_no
        where = f"{match.hand.number}:{len(match.hand.moves)}"
        try:
            events = match.apply(seat, action)
        except DominoError as exc:
            raise UserError(rule_message(exc)) from None
        try:
            events, outgoing = self._settle(game, events)
            outgoing = self._track_time(game, seat, where, timed_out) + outgoing
            humans = [s for s, p in enumerate(game.players) if not p.is_computer]
            if timed_out and not match.over and all(s in game.timer.away for s in humans):
                # Nobody is left at the table: the match ends with no result.
                game.status = Status.STOPPED
                outgoing += self.composer.stopped(game, "")
            await self._commit(game, events, outgoing, previous)
        except BaseException:
            await self.reload(game.game_id)  # memory ran ahead of the database: drop it
            raise
        return events

    def _track_time(self, game: Game, seat: int, where: str, timed_out: bool) -> list[Outgoing]:
        """Count time-outs in a row; the third marks the seat away and says so."""
        timer = game.timer
        if not timed_out:
            timer.timeouts.pop(seat, None)
            if seat in timer.away:
                timer.away.remove(seat)
            return []
        timer.auto_moves.append(where)
        timer.timeouts[seat] = timer.timeouts.get(seat, 0) + 1
        if timer.timeouts[seat] < AWAY_AFTER or seat in timer.away:
            return []
        timer.away.append(seat)
        return self.composer.away(game, seat)

    def _settle(self, game: Game, events: list[Event]) -> tuple[list[Event], list[Outgoing]]:
        """Announce, knock for stuck players, deal the next hand: until a human must act.

        Announcements are composed as each hand ends, before the next deal replaces it.
        """
        match = game.match
        assert match is not None
        events = list(events)
        outgoing = self.composer.announcements(game, events)
        while not match.over:
            if match.hand.over:
                new = match.deal_hand(random.Random(self.seed_source()))
            else:
                new = self._auto_moves(match)
                if not new:
                    break
            events += new
            outgoing += self.composer.announcements(game, new)
        return events, outgoing

    @staticmethod
    def _auto_moves(match: Match) -> list[Event]:
        events: list[Event] = []
        while not match.hand.over and match.legal_actions() == (KNOCK,):
            seat = match.to_move
            assert seat is not None
            events += match.apply(seat, KNOCK)
        return events

    async def stop(self, game: Game, user_id: int, is_admin: bool, by: str = "") -> None:
        """End the game with no result; ``by`` (HTML) is announced as who stopped it."""
        if not game.status.open:
            raise UserError(N_("This game is over."))
        if user_id != game.creator_id and not is_admin:
            raise UserError(N_("Only the game's creator or a group admin can stop it."))
        await self._set_status(game, Status.STOPPED, self.composer.stopped(game, by))

    async def abandon(self, game: Game) -> None:
        """The bot can no longer reach the group: no result, and nothing left to send."""
        await self._set_status(game, Status.STOPPED)
        async with self.storage.transaction() as db:
            await db.execute("DELETE FROM outbox WHERE game_id=?", (game.game_id,))

    async def quit(self, game: Game, user_id: int) -> Player:
        """A seated player leaves a running game; a computer player takes the seat so the
        match can finish. Returns the newcomer."""
        seat = game.seat_of(user_id)
        if game.status is not Status.PLAYING or seat is None:
            raise UserError(N_("You are not playing in this game."))
        return await self.replace(game, seat, REPLACEMENT_LEVEL)

    async def replace(self, game: Game, seat: int, level: str) -> Player:
        """Hand ``seat`` to a computer player of ``level`` and say so in the group."""
        if game.status is not Status.PLAYING or not 0 <= seat < len(game.players):
            raise UserError(N_("This game is over."))
        leaving = game.players[seat]
        if leaving.is_computer:
            raise UserError(N_("A computer player already plays that seat."))
        newcomer = computer(level, {p.user_id for p in game.players})
        game.players[seat] = newcomer
        game.timer.timeouts.pop(seat, None)
        if seat in game.timer.away:
            game.timer.away.remove(seat)
        outgoing = self.composer.replaced(game, leaving, newcomer)
        async with self.storage.transaction() as db:
            await db.execute(
                "UPDATE games SET players=?, timer=?, deadline=?, updated_at=? WHERE game_id=?",
                (dumps([p.to_json() for p in game.players]), game.timer.to_json(),
                 self._deadline(game), self.clock(), game.game_id),
            )
            await self._queue(db, game, outgoing)
        game.deadline = self._deadline(game)
        self._changed(game)
        return newcomer

    async def computer_move(self, game: Game, move_no: int) -> list[Event]:
        """Let the computer player whose turn it is (at ``move_no``) move; else nothing."""
        match = game.match
        if game.status is not Status.PLAYING or match is None or game.move_no != move_no:
            return []
        seat = match.to_move
        if seat is None or not game.players[seat].is_computer:
            return []
        level = game.players[seat].level
        assert level is not None
        view = player_view(match, seat)  # the computer sees what a human in its seat would
        rng = random.Random(f"{game.game_id}:{move_no}")
        action = await asyncio.to_thread(ai.player(level).choose, view, rng)
        return await self._play(game, seat, action, timed_out=False)

    def _deadline(self, game: Game) -> float | None:
        """A human seat to move gets the group's turn time; computers need no clock."""
        match = game.match
        if (game.status is not Status.PLAYING or game.turn_seconds <= 0 or match is None
                or match.to_move is None or game.players[match.to_move].is_computer):
            return None
        return self.clock() + game.turn_seconds

    async def _set_status(
        self, game: Game, status: Status, outgoing: list[Outgoing] | None = None
    ) -> None:
        async with self.storage.transaction() as db:
            await db.execute(
                "UPDATE games SET status=?, updated_at=?, deadline=NULL WHERE game_id=?",
                (status.value, self.clock(), game.game_id),
            )
            await self._queue(db, game, outgoing or [])
        game.status = status
        game.deadline = None
        self._remember(game)
        self._changed(game)

    async def _commit(
        self, game: Game, events: list[Event], outgoing: list[Outgoing], previous_move_no: int
    ) -> None:
        """Write the match, its results and its announcements in one transaction."""
        match = game.match
        assert match is not None
        if match.over and game.status is Status.PLAYING:
            game.status = Status.FINISHED
        new_move_no = move_number(match)
        now = self.clock()
        deadline = self._deadline(game)
        game.timer.warned = False
        async with self.storage.transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET match=?, move_no=?, status=?, updated_at=?, deadline=?, timer=?"
                " WHERE game_id=? AND move_no=?",
                (match_to_json(match), new_move_no, game.status.value, now, deadline,
                 game.timer.to_json(), game.game_id, previous_move_no),
            )
            if cursor.rowcount != 1:
                raise UserError(N_("That button is out of date."))
            await self._queue(db, game, outgoing)
            await self._record_results(db, game, events, now)
        game.move_no = new_move_no
        game.deadline = deadline
        self._remember(game)
        self._changed(game)

    async def _queue(self, db: Any, game: Game, outgoing: list[Outgoing]) -> None:
        for item in outgoing:
            await db.execute(
                "INSERT INTO outbox (game_id, chat_id, text, photo, buttons, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game.game_id, game.chat_id, item.text, item.photo,
                 dumps(item.buttons) if item.buttons else None, self.clock()),
            )

    async def _record_results(
        self, db: Any, game: Game, events: list[Event], now: float
    ) -> None:
        match = game.match
        assert match is not None
        players = dumps([p.to_json() for p in game.players])
        for event in events:
            if isinstance(event, HandEnded):
                await db.execute(
                    "INSERT OR REPLACE INTO hand_results (game_id, hand_number, chat_id, variant,"
                    " players, winner_side, totals, points, finished_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (game.game_id, event.hand_number, game.chat_id, game.variant, players,
                     event.winner, dumps(event.totals), dumps(event.points), now),
                )
            elif isinstance(event, MatchEnded):
                await db.execute(
                    "INSERT OR REPLACE INTO match_results (game_id, chat_id, variant, players,"
                    " sides, winner_side, scores, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (game.game_id, game.chat_id, game.variant, players, dumps(match.sides),
                     event.winner, dumps(event.scores), now),
                )

    async def save_messages(self, game: Game) -> None:
        async with self.storage.transaction() as db:
            await db.execute(
                "UPDATE games SET messages=? WHERE game_id=?",
                (game.messages.to_json(), game.game_id),
            )

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        await self.storage.migrate_chat(old_chat_id, new_chat_id)
        if old_chat_id in self._open_by_chat:
            self._open_by_chat[new_chat_id] = self._open_by_chat.pop(old_chat_id)
        for game in list(self._by_id.values()):
            if game.chat_id == old_chat_id:
                game.chat_id = new_chat_id
                self._changed(game)


RULE_MESSAGES: dict[str, str] = {
    "NotYourTurnError": N_("It is not your turn."),
    "HandOverError": N_("This hand is over."),
    "TileNotInHandError": N_("You don't hold that tile."),
    "TileDoesNotFitError": N_("That tile does not fit there."),
    "WrongLeadError": N_("This hand must be led with another tile."),
    "MustPlayError": N_("You must play when you can."),
    "WrongStuckActionError": N_("When you cannot lay a tile, use the buttons I sent you."),
    "EndRequiredError": N_("That tile fits both ends: choose one."),
}


def rule_message(error: DominoError) -> str:
    """The catalogue message for an engine error (engine messages are English only)."""
    for cls in type(error).__mro__:
        if cls.__name__ in RULE_MESSAGES:
            return RULE_MESSAGES[cls.__name__]
    if isinstance(error, BadInputError):
        return N_("That button is out of date.")
    return N_("That move is not allowed.")
