"""What the bot knows of a game, with no Telegram and no SQL in sight: the values the game
service changes, the storage layer saves, and the presentation reads. The record of the
Telegram messages each game owns is :mod:`bot.gamemessages`.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

from engine import Event, KeptHands, Match, variant

from .gamemessages import Messages
from .storedjson import dumps

AWAY_AFTER = 3  # time-outs in a row before a player is considered away
#: An away player's turn, at most: the safe move made for them comes soon, not after the whole
#: turn's time at each of their turns (player QA: ten minutes of waiting a hand), and a
#: player who comes back still has the moment to tap a tile.
AWAY_TURN_SECONDS = 15
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


def is_computer_id(user_id: int) -> bool:
    """Whether ``user_id`` is a computer player's: theirs are negative (Telegram's users'
    are positive), so a stored result, which keeps only ids and names, still tells."""
    return user_id < 0


@dataclass(frozen=True, slots=True)
class Player:
    """A seat's occupant. Computer players have negative ids and a ``level``."""

    user_id: int
    name: str
    level: str | None = None  # "easy" | "normal" | "hard" | "expert" for a computer player

    @property
    def is_computer(self) -> bool:
        return is_computer_id(self.user_id)

    def to_json(self) -> list[object]:
        return [self.user_id, self.name] if self.level is None else [
            self.user_id, self.name, self.level]

    @classmethod
    def from_json(cls, data: list[Any]) -> Player:
        return cls(int(data[0]), str(data[1]), str(data[2]) if len(data) > 2 else None)


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


@dataclass(frozen=True, slots=True)
class SeatChange:
    """A seat changed hands: ``left`` sat there until ``moves`` moves of hand ``hand`` were
    made. History keeps who made each move. ``away``: ``left`` did not leave, the creator or
    an admin handed the seat on while they were away; they are told so, and invited back. A
    ``left`` who is a computer gave the seat back to the person it stood in for, who took it
    back during the match (:mod:`bot.service.returns`)."""

    seat: int
    hand: int
    moves: int
    left: Player
    away: bool = False

    def to_json(self) -> list[object]:
        data = [self.seat, self.hand, self.moves, self.left.to_json()]
        return [*data, 1] if self.away else data  # (changes stored before it have four)

    @classmethod
    def from_json(cls, data: list[Any]) -> SeatChange:
        return cls(int(data[0]), int(data[1]), int(data[2]), Player.from_json(data[3]),
                   len(data) > 4 and bool(data[4]))


@dataclass(slots=True)
class Game:
    game_id: int
    chat_id: int
    status: Status
    game_name: str  # the game played: a name in bot.gamebook.GAMES (stored as "variant")
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
    seat_changes: list[SeatChange] = field(default_factory=list)  # in the order they happened
    pending: list[int] = field(default_factory=list)  # a rematch's players yet to confirm
    thread_id: int | None = None  # its forum topic; None: no topics, or the General topic
    # In a lobby, the user ids of the people seated whom the bot cannot write to in private
    # (they never opened the chat, or blocked the bot): not stored, the service reads it
    # from the users.
    unreachable_ids: list[int] = field(default_factory=list)
    # The JSON of the match's finished hands, kept for its next writes (not stored).
    kept_hands: KeptHands = field(default_factory=KeptHands, compare=False, repr=False)

    def seat_of(self, user_id: int) -> int | None:
        for seat, player in enumerate(self.players):
            if player.user_id == user_id:
                return seat
        return None

    def turn_time(self, seat: int) -> int:
        """The seconds ``seat`` has for a turn (0: no clock): the table's turn time, an away
        player's at most :data:`AWAY_TURN_SECONDS`."""
        if seat in self.timer.away:
            return min(self.turn_seconds, AWAY_TURN_SECONDS)
        return self.turn_seconds

    def creator_at_table(self) -> bool:
        """Whether the creator still plays here and is not away: who speaks for the table
        when a seat of someone away may be handed to a computer (else any player still at
        it may)."""
        seat = self.seat_of(self.creator_id)
        return seat is not None and seat not in self.timer.away

    def played_by(self, user_id: int) -> bool:
        """Whether ``user_id`` sat at this table, now or before their seat changed hands."""
        return self.seat_of(user_id) is not None or any(
            change.left.user_id == user_id for change in self.seat_changes)

    def last_changes(self) -> dict[int, SeatChange]:
        """Each changed seat's last change, by seat: who sits there now and how they came to
        (a player back from being away, then gone with /leave, is gone)."""
        return {change.seat: change for change in self.seat_changes}

    def last_change_of(self, user_id: int) -> SeatChange | None:
        """The last change that took a seat from ``user_id`` (None: none did): whether they
        left it (/leave) or had it handed on while away, as it stands now."""
        return next((c for c in reversed(self.seat_changes) if c.left.user_id == user_id),
                    None)

    @property
    def finished_hands(self) -> list[int]:
        """The numbers (from 0) of the match's finished hands, in play order."""
        match = self.match
        return [] if match is None else [number for number, hand in enumerate(match.hands)
                                         if hand.over]

    @property
    def unreachable_players(self) -> list[Player]:
        """The people seated whom the bot cannot reach in private (``unreachable_ids``)."""
        return [p for p in self.players if p.user_id in self.unreachable_ids]

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def player_at(self, seat: int, hand: int, move: int) -> Player:
        """Who sat in ``seat`` when move ``move`` of hand ``hand`` was made."""
        for change in self.seat_changes:
            if change.seat == seat and (hand, move) < (change.hand, change.moves):
                return change.left
        return self.players[seat]

    @property
    def seat_counts(self) -> tuple[int, ...]:
        """The table sizes this game is played by with its options (QA: a deal of 7 at
        gaple-dead let a fifth player sit, and Start then refused the options)."""
        return _seat_counts(self.game_name, tuple(sorted(self.options.items())))

    @property
    def partnerships(self) -> tuple[tuple[int, ...], ...]:
        """The seats that play together at this table, once it has a size the game is played
        by and the game is played in partnerships; else nothing."""
        seats = len(self.players)
        if seats not in self.seat_counts:
            return ()
        sides = variant(self.game_name).sides(seats)
        return sides if any(len(side) > 1 for side in sides) else ()


Drawing = Callable[[], bytes]  # a picture to draw: run off the event loop, gives PNG bytes


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One announcement for the group: text (HTML) and an optional picture, given as its
    bytes or, until the service draws it (off the event loop) before committing, as
    ``drawing``."""

    text: str
    photo: bytes | None = None
    buttons: tuple[tuple[tuple[str, str], ...], ...] = ()  # rows of (label, callback data)
    drawing: Drawing | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class MatchRatings:
    """How a match just ended moves ratings on the group's board of its game: each seat's
    (None for a computer, kept off the board), and each leaver's, by name: those who left
    (``leavers``) and those whose seat was handed on while they were away (``away``)."""

    seats: tuple[int | None, ...] = ()
    leavers: tuple[tuple[str, int], ...] = ()
    away: tuple[tuple[str, int], ...] = ()
    #: Each of those (leavers and away) by the seat a computer took from them: (seat, name,
    #: change), for the match's picture, which names them in that seat's row.
    handed_on: tuple[tuple[int, str, int], ...] = ()


class Composer(Protocol):
    """Turns what happened into announcements (the presentation layer implements it)."""

    def announcements(self, game: Game, events: Sequence[Event]) -> list[Outgoing]: ...

    def away(self, game: Game, seat: int) -> list[Outgoing]: ...

    def back(self, game: Game, seat: int) -> list[Outgoing]: ...

    def ready(self, game: Game) -> list[Outgoing]: ...

    def private_chats_needed(self, game: Game) -> list[Outgoing]: ...

    def match_end(self, game: Game, ended: Any, ratings: MatchRatings) -> list[Outgoing]: ...

    def replaced(self, game: Game, leaving: Player, newcomer: Player, away: bool = False
                 ) -> list[Outgoing]: ...

    def returned(self, game: Game, person: Player, computer: Player) -> list[Outgoing]: ...

    def stopped(self, game: Game, by: str, ratings: MatchRatings) -> list[Outgoing]: ...

    def topic_gone(self, game: Game, deleted: bool, ratings: MatchRatings,
                   topic: str | None = None) -> list[Outgoing]: ...


def move_number(match: Match | None) -> int:
    """Counts every action and every deal: buttons carry it, so a stale button is spotted."""
    if match is None:
        return 0
    return sum(len(hand.moves) for hand in match.hands) + len(match.hands)


@cache
def _seat_counts(game_name: str, options: tuple[tuple[str, Any], ...]) -> tuple[int, ...]:
    return variant(game_name).seat_counts_for(dict(options))
