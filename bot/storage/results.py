"""Finished results, as the scoreboards read them: matches that reached their end, and their
hands, as records. They come back in the order the matches finished."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine import variant

from ..models import Player, SeatChange
from .core import Connection, marks

#: The finished matches a person may have sat in, the first finished first: found by their
#: seats' rows (:func:`~.schema.sat_at`), not by reading every result's players.
MATCHES_OF_PLAYER = ("SELECT m.game_id, m.variant, m.chat_id, m.players, m.leavers, m.stopped"
                     " FROM seats s"
                     " JOIN match_results m ON m.game_id = s.game_id WHERE s.user_id = ?"
                     " ORDER BY m.finished_at, m.game_id")


def penalty_points(game: str | None) -> bool:
    """In this game, a player's points count against them (the lowest total wins)."""
    return game is not None and variant(game).lowest_total_wins


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A row of ``match_results``: a match that reached its end, or one stopped after people
    left it (``stopped``), kept for their losses alone."""

    game_id: int
    chat_id: int
    game: str
    players: tuple[tuple[int, str], ...]  # (user_id, name) by seat
    sides: tuple[tuple[int, ...], ...]  # seats by side
    winner: int | None  # winning side; None for a drawn match
    scores: tuple[int, ...]  # by side
    finished_at: float
    # (user_id, name, seat) of each person who left the match before its end (a computer took
    # the seat): it counts as a match they lost, so leaving cannot dodge a loss.
    leavers: tuple[tuple[int, str, int], ...] = ()
    # Stopped before its end: nobody won it and the people seated at the stop get nothing
    # (no match, no hands); only its leavers' losses count.
    stopped: bool = False

    def side_of(self, seat: int) -> int:
        return next(index for index, seats in enumerate(self.sides) if seat in seats)

    def ranks(self) -> list[float]:
        """Each side's place (1 = best): the winner first, the others by score, equal = tied;
        in a stopped match every side shares the first (nobody won it)."""
        if self.stopped:
            return [1.0] * len(self.sides)
        lower = penalty_points(self.game)
        keys = [
            (self.winner is not None and side != self.winner, score if lower else -score)
            for side, score in enumerate(self.scores)
        ]
        order = sorted(set(keys))
        return [float(order.index(key) + 1) for key in keys]

    def outcomes(self) -> list[int]:
        """By side: +1 won, -1 lost, 0 drawn (a drawn match's tied leaders; the rest lost)."""
        if self.winner is not None:
            return [1 if side == self.winner else -1 for side in range(len(self.sides))]
        return [0 if rank == 1 else -1 for rank in self.ranks()]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A row of ``hand_results``: one hand of a match, its winning side and points by side."""

    game_id: int
    winner: int | None
    points: tuple[int, ...]


def leavers_of(players: Iterable[Player], changes: Iterable[SeatChange]
               ) -> tuple[tuple[int, str, int], ...]:
    """The people who left a match for good, with the seat they left: a seat's earlier human
    occupant who is not seated at its end (a computer that handed its seat on is nobody's
    loss), each once."""
    seated = {p.user_id for p in players}
    found: dict[int, tuple[int, str, int]] = {}
    for change in changes:
        left = change.left
        if not left.is_computer and left.user_id not in seated:
            found.setdefault(left.user_id, (left.user_id, left.name, change.seat))
    return tuple(found.values())


def _leavers(text: str) -> tuple[tuple[int, str, int], ...]:
    return tuple((int(uid), str(name), int(seat)) for uid, name, seat in json.loads(text))


def _match_record(row: Any) -> MatchRecord:
    players = tuple(map(Player.from_json, json.loads(row["players"])))
    return MatchRecord(
        int(row["game_id"]), int(row["chat_id"]), str(row["variant"]),
        tuple((p.user_id, p.name) for p in players),
        tuple(tuple(int(seat) for seat in side) for side in json.loads(row["sides"])),
        row["winner_side"], tuple(int(s) for s in json.loads(row["scores"])),
        float(row["finished_at"]), _leavers(row["leavers"]), bool(row["stopped"]),
    )


def _hand_record(row: Any) -> HandRecord:
    return HandRecord(
        int(row["game_id"]), row["winner_side"], tuple(int(p) for p in json.loads(row["points"]))
    )


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A finished match one player sat in: its game, its group, and their name then."""

    game: str
    chat_id: int
    name: str



@dataclass(frozen=True, slots=True)
class ResultFilter:
    """Which finished matches: of one group and/or one game, finished in [since, until)."""

    chat_id: int | None = None
    game: str | None = None
    since: float | None = None
    until: float | None = None

    def where(self) -> tuple[str, list[object]]:
        conditions: list[str] = ["1=1"]
        params: list[object] = []
        for condition, value in (("m.chat_id = ?", self.chat_id), ("m.variant = ?", self.game),
                                 ("m.finished_at >= ?", self.since),
                                 ("m.finished_at < ?", self.until)):
            if value is not None:
                conditions.append(condition)
                params.append(value)
        return " AND ".join(conditions), params


class ResultRows(Connection):
    async def finished_matches(self, which: ResultFilter) -> list[MatchRecord]:
        where, params = which.where()
        rows = await self.fetch_all(
            f"SELECT m.* FROM match_results m WHERE {where} ORDER BY m.finished_at, m.game_id",
            params,
        )
        return [_match_record(row) for row in rows]

    async def hands_of_finished_matches(self, which: ResultFilter) -> list[HandRecord]:
        where, params = which.where()
        rows = await self.fetch_all(
            "SELECT h.game_id, h.winner_side, h.points FROM hand_results h"
            f" JOIN match_results m ON m.game_id = h.game_id WHERE {where} AND m.stopped = 0"
            " ORDER BY h.game_id, h.hand_number",
            params,
        )
        return [_hand_record(row) for row in rows]

    async def matches_played_by(self, user_id: int) -> list[SeatRecord]:
        """Every finished match ``user_id`` sat in (once a seat), or left before it was stopped,
        the last one the newest."""
        # The person's seats' rows find the matches (sat_at); the results' own players and
        # leavers decide (a stopped match's seated players were in no match that counts).
        rows = await self.fetch_all(MATCHES_OF_PLAYER, (int(user_id),))
        found = []
        for row in rows:
            seated = [] if row["stopped"] else json.loads(row["players"])
            sat = [str(seat[1]) for seat in seated
                   if type(seat[0]) is int and seat[0] == user_id]
            sat += [name for uid, name, _seat in _leavers(row["leavers"]) if uid == user_id]
            found += [SeatRecord(str(row["variant"]), int(row["chat_id"]), sat[0])] if sat else []
        return found

    async def user_names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The names the bot last saw for these users (those it knows)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        rows = await self.fetch_all(
            f"SELECT user_id, name FROM users WHERE user_id IN ({marks(len(wanted))})",
            wanted,
        )
        return {int(r["user_id"]): str(r["name"]) for r in rows}
