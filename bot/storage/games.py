"""Games: their rows, and the one transaction that commits an accepted move with everything
it must announce and every result it finished.

The service hands over :class:`~bot.models.Game` values; these methods write exactly what
changed, and read rows back into the same values. Nothing outside this package writes SQL.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from engine import (
    CorruptMatchError,
    Event,
    HandEnded,
    MatchEnded,
    match_from_json,
    match_to_json,
    variant,
)

from ..errors import BotError
from ..gamemessages import Messages
from ..models import Game, Outgoing, Player, SeatChange, Status, TimerState
from ..storedjson import dumps
from .core import Connection
from .fencing import current, fence
from .results import leavers_of
from .schema import sat_at
from .subscriptions import queue_notices
from .tx import Tx

#: The hands a person may have sat at, the newest first, a page at a time: found by their
#: seats' rows (:func:`~.schema.sat_at`), not by reading every result's players.
HANDS_OF_PLAYER = ("SELECT h.game_id, h.players FROM seats s"
                   " JOIN hand_results h ON h.game_id = s.game_id WHERE s.user_id = ?"
                   " ORDER BY s.game_id DESC, h.hand_number DESC LIMIT ? OFFSET ?")
# (ordered by the seats' key, the same games: SQLite then reads them in order, not sorting
# every hand a person ever played first)


class StaleMoveError(BotError):
    """The game's move number in the database is not the one the change was made from (not
    a :class:`StorageError`: the database answered, another change came first)."""


def game_from_row(row: Any) -> Game:
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
        seat_changes=[SeatChange.from_json(c) for c in json.loads(row["seat_changes"])],
        pending=[int(uid) for uid in json.loads(row["pending"])],
        thread_id=row["thread_id"],
    )


def _players(game: Game) -> str:
    return dumps([p.to_json() for p in game.players])


def _seats_of(game: Game, game_id: int) -> list[tuple[int, int]]:
    """Whoever sits at ``game`` now, and whoever sat in a seat before it changed hands."""
    people = [p.user_id for p in game.players]
    people += [change.left.user_id for change in game.seat_changes]
    return [(person, game_id) for person in people]


#: The games closed (finished, stopped, or cancelled before they started) since a time, by
#: the index games_closed_at (an ORDER BY would have SQLite read every game ever played).
#: Seconds back a start (or a fleet worker taking shards) looks for games closed (finished,
#: stopped or cancelled) to sync: their tables' closing edits, which a SIGKILL may have cut
#: off (older ones are left as they are).
RECENTLY_CLOSED = 3600.0
CLOSED_SINCE = ("SELECT game_id FROM games WHERE status IN ('finished', 'stopped', 'cancelled')"
                " AND updated_at >= ?")


class GameRows(Connection):
    async def open_games(self) -> list[Game]:
        rows = await self.fetch_all(
            "SELECT * FROM games WHERE status IN ('lobby', 'playing') ORDER BY game_id"
        )
        return [game_from_row(row) for row in rows]

    async def closed_since(self, since: float) -> list[int]:
        """The games finished, stopped or cancelled since ``since`` (a time.time()): a
        restart syncs them, so that a table whose closing edit a SIGKILL cut off says it is
        over, and a rematch's invitations say it was closed."""
        rows = await self.fetch_all(CLOSED_SINCE, (since,))
        return sorted(int(row["game_id"]) for row in rows)

    async def load_game(self, game_id: int) -> Game | None:
        row = await self.fetch_one("SELECT * FROM games WHERE game_id=?", (game_id,))
        return None if row is None else game_from_row(row)

    async def last_game_id(self, chat_id: int, thread_id: int | None) -> int | None:
        """The newest game of a chat's topic (thread None: the chat, or its General topic)."""
        row = await self.fetch_one(  # as the one-open-game index compares topics (no 0 topic)
            "SELECT MAX(game_id) FROM games"
            " WHERE chat_id=? AND coalesce(thread_id, 0) = coalesce(CAST(? AS BIGINT), 0)",
            (chat_id, thread_id))
        return None if row is None or row[0] is None else int(row[0])

    async def last_game_ids(self, chat_id: int) -> list[int]:
        """The newest game of each of a chat's topics (General's, or the chat's, among them),
        oldest first."""
        rows = await self.fetch_all(
            "SELECT MAX(game_id) FROM games WHERE chat_id=? GROUP BY coalesce(thread_id, 0)"
            " ORDER BY 1", (chat_id,))
        return [int(row[0]) for row in rows]

    async def games_since(self, chat_id: int, thread_id: int | None, game_id: int,
                          limit: int = 2) -> list[int]:
        """The games opened in ``game_id``'s topic (as :meth:`last_game_id`) after it and not
        cancelled (a table nobody played), oldest first, at most ``limit``: whether its
        result's "Play again" is still the latest."""
        rows = await self.fetch_all(
            "SELECT game_id FROM games WHERE chat_id=?"
            " AND coalesce(thread_id, 0) = coalesce(CAST(? AS BIGINT), 0) AND game_id > ?"
            " AND status <> ? ORDER BY game_id LIMIT ?",
            (chat_id, thread_id, game_id, Status.CANCELLED.value, limit))
        return [int(row["game_id"]) for row in rows]

    async def last_played_game_id(self, chat_id: int, thread_id: int | None) -> int | None:
        """The newest game of a chat's topic (as :meth:`last_game_id`) with a finished hand:
        the one under way, or the last one (a lobby opened since has nothing to show)."""
        row = await self.fetch_one(
            "SELECT MAX(h.game_id) FROM hand_results h JOIN games g ON g.game_id = h.game_id"
            " WHERE g.chat_id=? AND coalesce(g.thread_id, 0) = coalesce(CAST(? AS BIGINT), 0)",
            (chat_id, thread_id))
        return None if row is None or row[0] is None else int(row[0])

    async def recent_games_of(self, user_id: int, limit: int) -> list[int]:
        """The games ``user_id`` played a hand of (sat at the table when it ended), newest
        first, at most ``limit``."""
        # The person's seats' rows find the games (sat_at); the results' own players decide
        # whether they sat at the table when a hand ended.
        found: list[int] = []
        page, offset = max(8 * limit, 64), 0
        while len(found) < limit:
            rows = await self.fetch_all(HANDS_OF_PLAYER, (int(user_id), page, offset))
            for row in rows:
                game_id = int(row["game_id"])
                if game_id not in found and any(
                        type(seat[0]) is int and seat[0] == user_id
                        for seat in json.loads(row["players"])):
                    found.append(game_id)
                    if len(found) == limit:
                        break
            if len(rows) < page:
                break
            offset += page
        return found

    async def insert_game(self, game: Game, now: float, notify: bool = False) -> int:
        """Store a new lobby; returns its id. With ``notify``, a /notify notice for each
        subscriber of its topic in the same transaction (told of every opening or none); a
        rematch's players asked to confirm are told in any case."""
        async def write(tx: Tx) -> int:
            await fence(tx)
            row = await tx.fetch_one(
                "INSERT INTO games (chat_id, thread_id, status, variant, options, creator_id,"
                " players, pending, language, turn_seconds, messages, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING game_id",
                (game.chat_id, game.thread_id, game.status.value, game.game_name,
                 dumps(game.options), game.creator_id, _players(game), dumps(game.pending),
                 # (a rematch's knows its players' last hands: see Messages.again_hands)
                 game.language, game.turn_seconds, game.messages.to_json(), now, now),
            )
            assert row is not None
            await sat_at(tx, _seats_of(game, int(row[0])))
            if notify or game.pending:
                await queue_notices(tx, int(row[0]), game, now, subscribers=notify)
            return int(row[0])
        return await self.write(write)

    async def save_players(self, game: Game, outgoing: Sequence[Outgoing], now: float) -> None:
        async def write(tx: Tx) -> None:
            await fence(tx)
            await tx.execute(
                "UPDATE games SET players=?, pending=?, updated_at=? WHERE game_id=?",
                (_players(game), dumps(game.pending), now, game.game_id))
            await sat_at(tx, _seats_of(game, game.game_id))
            await self._queue(tx, game, outgoing, now)
        await self.write(write)

    async def save_timer(self, game: Game) -> None:
        await self.execute("UPDATE games SET timer=? WHERE game_id=?",
                           (game.timer.to_json(), game.game_id))

    async def save_turn_clock(self, game: Game) -> None:
        """The turn's clock started afresh: its deadline and timer state (its warning)."""
        await self.execute("UPDATE games SET deadline=?, timer=? WHERE game_id=?",
                           (game.deadline, game.timer.to_json(), game.game_id))

    async def save_language(self, game: Game) -> None:
        await self.execute("UPDATE games SET language=? WHERE game_id=?",
                           (game.language, game.game_id))

    async def save_messages(self, game: Game) -> None:
        await self.execute("UPDATE games SET messages=? WHERE game_id=?",
                           (game.messages.to_json(), game.game_id))

    async def save_seats(self, game: Game, outgoing: Sequence[Outgoing], now: float) -> None:
        """A seat changed hands mid-game: players, timer and deadline, and its announcement."""
        async def write(tx: Tx) -> None:
            await fence(tx)
            await tx.execute(
                "UPDATE games SET players=?, seat_changes=?, timer=?, deadline=?, updated_at=?"
                " WHERE game_id=?",
                (_players(game), dumps([c.to_json() for c in game.seat_changes]),
                 game.timer.to_json(), game.deadline, now, game.game_id),
            )
            await sat_at(tx, _seats_of(game, game.game_id))
            await self._queue(tx, game, outgoing, now)
        await self.write(write)

    async def save_status(
        self, game: Game, status: Status, outgoing: Sequence[Outgoing], now: float,
        drop_outbox: bool = False,
    ) -> None:
        """The game ended or was closed: its new status, no deadline, and what to announce
        (or, with ``drop_outbox``, nothing more to send at all before ``outgoing``); its
        thread too, which a game whose topic is gone leaves for the General topic. Its
        /notify notices not sent yet are dropped; a stopped match's leavers keep their losses
        (:meth:`_record_stopped`)."""
        async def write(tx: Tx) -> None:
            await fence(tx)
            await tx.execute(
                "UPDATE games SET status=?, thread_id=?, messages=?, updated_at=?,"
                " deadline=NULL WHERE game_id=?",
                (status.value, game.thread_id, game.messages.to_json(), now, game.game_id),
            )
            if drop_outbox:
                await tx.execute("DELETE FROM outbox WHERE game_id=?", (game.game_id,))
            # a closed lobby has nothing to join: its /notify notices not sent yet go too
            await tx.execute("DELETE FROM notices WHERE game_id=?", (game.game_id,))
            if status is Status.STOPPED:
                await self._record_stopped(tx, game, now)
            await self._queue(tx, game, outgoing, now)
        await self.write(write)

    async def commit_move(
        self, game: Game, previous_move_no: int, move_no: int, deadline: float | None,
        events: Sequence[Event], outgoing: Sequence[Outgoing], now: float,
        drop_outbox: bool = False,
    ) -> None:
        """Write the match (now at ``move_no``, its turn due at ``deadline``), its results and
        its announcements in one transaction, only if the stored game is still at
        ``previous_move_no``: else :class:`StaleMoveError`. ``drop_outbox``: what the game
        had still to send goes, in the same transaction (a lobby's calls, at its start)."""
        match = game.match
        assert match is not None
        update = ("UPDATE games SET match=?, move_no=?, status=?, updated_at=?, deadline=?,"
                  " timer=? WHERE game_id=? AND move_no=?")
        values = (match_to_json(match, kept=game.kept_hands), move_no, game.status.value, now,
                  deadline, game.timer.to_json(), game.game_id, previous_move_no)  # before BEGIN
        if self.dialect == "sqlite" and not outgoing and not drop_outbox \
                and current.get() is None and game.status is not Status.STOPPED \
                and not any(isinstance(e, HandEnded | MatchEnded) for e in events):
            # Most moves write the one row: on SQLite that statement is a transaction of its
            # own (one hop to its thread, not three); a stale move changes nothing.
            if await self.execute(update, values) != 1:
                raise StaleMoveError
            return

        async def write(tx: Tx) -> None:
            await fence(tx)
            changed = await tx.execute(update, values)
            if changed != 1:
                raise StaleMoveError
            if drop_outbox:
                await tx.execute("DELETE FROM outbox WHERE game_id=?", (game.game_id,))
            await self._queue(tx, game, outgoing, now)
            await self._record_results(tx, game, events, now)
            if game.status is Status.STOPPED:  # (nobody left at the table: see Play._play)
                await self._record_stopped(tx, game, now)
        await self.write(write)

    async def _queue(self, tx: Tx, game: Game, outgoing: Sequence[Outgoing], now: float) -> None:
        if outgoing:  # (before the INSERT: the outbox is read only after this transaction)
            self.outbox_empty.discard(game.game_id)
        for item in outgoing:
            if item.drawing is not None:  # the service draws pictures before committing
                raise ValueError("an announcement's picture is still to be drawn")
            await tx.execute(
                "INSERT INTO outbox (game_id, chat_id, text, photo, buttons, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game.game_id, game.chat_id, item.text, item.photo,
                 dumps(item.buttons) if item.buttons else None, now),
            )

    async def record_results(self, game: Game, events: Sequence[Event], now: float) -> None:
        """Record the hands and the match that ``events`` finished, on their own (a move's
        commit records them inside its own transaction)."""
        async def write(tx: Tx) -> None:
            await self._record_results(tx, game, events, now)
        await self.write(write)

    async def seat(self, games: Sequence[Game]) -> None:
        """Write who sits at ``games`` (loaded, or taken over): a process of an older version
        running beside this one during a fleet's rolling upgrade wrote their players but no
        seats, and their people would not be found by them."""
        async def write(tx: Tx) -> None:
            await sat_at(tx, (seat for game in games for seat in _seats_of(game, game.game_id)))
        if games:
            await self.write(write)

    @staticmethod
    async def _record_results(tx: Tx, game: Game, events: Sequence[Event], now: float) -> None:
        sides = variant(game.game_name).sides(len(game.players))
        players = _players(game)
        if any(isinstance(event, HandEnded | MatchEnded) for event in events):
            # (a result's people are found by their seats: see seat)
            await sat_at(tx, _seats_of(game, game.game_id))
        for event in events:
            if isinstance(event, HandEnded):
                await tx.execute(
                    "INSERT INTO hand_results (game_id, hand_number, chat_id, variant,"
                    " players, winner_side, totals, points, finished_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, hand_number)"
                    " DO UPDATE SET chat_id=excluded.chat_id, variant=excluded.variant,"
                    " players=excluded.players, winner_side=excluded.winner_side,"
                    " totals=excluded.totals, points=excluded.points,"
                    " finished_at=excluded.finished_at",
                    (game.game_id, event.hand_number, game.chat_id, game.game_name, players,
                     event.winner, dumps(event.totals), dumps(event.points), now),
                )
            elif isinstance(event, MatchEnded):
                await tx.execute(
                    "INSERT INTO match_results (game_id, chat_id, variant, players,"
                    " sides, winner_side, scores, finished_at, leavers)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (game_id) DO UPDATE SET chat_id=excluded.chat_id,"
                    " variant=excluded.variant, players=excluded.players, sides=excluded.sides,"
                    " winner_side=excluded.winner_side, scores=excluded.scores,"
                    " finished_at=excluded.finished_at, leavers=excluded.leavers,"
                    " stopped=excluded.stopped",
                    (game.game_id, game.chat_id, game.game_name, players, dumps(sides),
                     event.winner, dumps(event.scores), now,
                     dumps(leavers_of(game.players, game.seat_changes))),
                )

    @staticmethod
    async def _record_stopped(tx: Tx, game: Game, now: float) -> None:
        """A match stopped after people left it: the loss /leave promised each of them is kept,
        as a finished match keeps it, in a result marked ``stopped``: nobody won it, and the
        people still seated get nothing from it (:class:`~.results.MatchRecord`). A match
        nobody left is no result at all, as before; a finished one keeps its own."""
        leavers = leavers_of(game.players, game.seat_changes)
        if game.match is None or not leavers:
            return
        await sat_at(tx, _seats_of(game, game.game_id))  # (its people are found by their seats)
        await tx.execute(
            "INSERT INTO match_results (game_id, chat_id, variant, players, sides, winner_side,"
            " scores, finished_at, leavers, stopped) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, 1)"
            " ON CONFLICT (game_id) DO NOTHING",
            (game.game_id, game.chat_id, game.game_name, _players(game),
             dumps(variant(game.game_name).sides(len(game.players))), dumps(game.match.scores),
             now, dumps(leavers)),
        )
