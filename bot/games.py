"""The game service: lobbies, seats, moves and their persistence, with no Telegram in sight.

Handlers decode an update and call one method here; it checks, applies, commits (with what
must be announced, in the same transaction), and returns. Sending is the publisher's job.
"""

from __future__ import annotations

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
    user_id: int
    name: str


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


class Composer(Protocol):
    """Turns what happened into announcements (the presentation layer implements it)."""

    def announcements(self, game: Game, events: Sequence[Event]) -> list[Outgoing]: ...

    def away(self, game: Game, seat: int) -> list[Outgoing]: ...


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
        """Drop what memory holds for a game and read it again from the database."""
        row = await self.storage.fetch_one("SELECT * FROM games WHERE game_id=?", (game_id,))
        self._by_id.pop(game_id, None)
        for chat, gid in list(self._open_by_chat.items()):
            if gid == game_id:
                del self._open_by_chat[chat]
        if row is None:
            return None
        game = self._from_row(row)
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
        players = [Player(p[0], p[1]) for p in json.loads(row["players"])]
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
                (dumps([[p.user_id, p.name] for p in game.players]), self.clock(), game.game_id),
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
        match = Match(game.variant, len(game.players), game.options)
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

    async def stop(self, game: Game, user_id: int, is_admin: bool) -> None:
        if not game.status.open:
            raise UserError(N_("This game is over."))
        if user_id != game.creator_id and not is_admin:
            raise UserError(N_("Only the game's creator or a group admin can stop it."))
        await self._set_status(game, Status.STOPPED)

    async def quit(self, game: Game, user_id: int) -> None:
        """A seated player leaves a running game: with nobody to take the seat, it ends
        with no result."""
        if game.status is not Status.PLAYING or game.seat_of(user_id) is None:
            raise UserError(N_("You are not playing in this game."))
        await self._set_status(game, Status.STOPPED)

    async def _set_status(self, game: Game, status: Status) -> None:
        async with self.storage.transaction() as db:
            await db.execute(
                "UPDATE games SET status=?, updated_at=?, deadline=NULL WHERE game_id=?",
                (status.value, self.clock(), game.game_id),
            )
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
        if match.over:
            game.status = Status.FINISHED
        new_move_no = move_number(match)
        now = self.clock()
        deadline = None
        if game.status is Status.PLAYING and game.turn_seconds > 0 and match.to_move is not None:
            deadline = now + game.turn_seconds
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
            for item in outgoing:
                await db.execute(
                    "INSERT INTO outbox (game_id, chat_id, text, photo, created_at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game.game_id, game.chat_id, item.text, item.photo, now),
                )
            await self._record_results(db, game, events, now)
        game.move_no = new_move_no
        game.deadline = deadline
        self._remember(game)
        self._changed(game)

    async def _record_results(
        self, db: Any, game: Game, events: list[Event], now: float
    ) -> None:
        match = game.match
        assert match is not None
        players = dumps([[p.user_id, p.name] for p in game.players])
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
