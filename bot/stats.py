"""Scoreboards and players' figures, recomputed from the recorded results whenever asked.

Only finished matches count. A stopped or cancelled game has no match result, and its hands are
left out too, like the hands of a match still being played: a board never counts half a match,
and stopping a match one is losing keeps no hands won in it.

Ratings come from openskill's Bradley-Terry model (full pairing): every finished match of the
board's scope, in the order the matches finished, ranks its sides by the result (pairs are
teams; a drawn match ties its leaders, and the others lost). Plackett-Luce, openskill's default,
rates a tie for first no higher than the runner-up, which a drawn gaple-dead match would show;
comparing every pair of sides does not. Players are ordered by the conservative estimate
mu - 3 sigma, so a newcomer with one lucky win does not top a group's regulars; it is shown as
``RATING_BASE + RATING_SCALE * (mu - 3 sigma)`` (an unrated player would show 1000).

Computer players have negative user ids. They are rated like anyone (they are real opponents)
but left off a board unless the group asks for them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

from openskill.models import BradleyTerryFull, BradleyTerryFullRating

from engine import MatchEnded, variant
from renderers.scoreboard import ScoreboardLabels, ScoreboardRow, render_scoreboard

from .errors import UserError
from .gamebook import GAMES, find_game
from .i18n import N_, Translator
from .models import Game, Player
from .storage import ResultFilter, Storage
from .wording import esc, quote, title

RATING_BASE = 1000
RATING_SCALE = 20
TEXT_ROWS = 10  # players listed in a scoreboard message
PICTURE_ROWS = 15  # players drawn on a scoreboard picture

_MODEL = BradleyTerryFull()


def is_computer(user_id: int) -> bool:
    return user_id < 0


def penalty_points(game: str | None) -> bool:
    """In this game, a player's points count against them (the lowest total wins)."""
    return game is not None and variant(game).lowest_total_wins


# --- the records, as stored ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A row of ``match_results``: a match that reached its end."""

    game_id: int
    chat_id: int
    game: str
    players: tuple[tuple[int, str], ...]  # (user_id, name) by seat
    sides: tuple[tuple[int, ...], ...]  # seats by side
    winner: int | None  # winning side; None for a drawn match
    scores: tuple[int, ...]  # by side
    finished_at: float

    def side_of(self, seat: int) -> int:
        return next(index for index, seats in enumerate(self.sides) if seat in seats)

    def ranks(self) -> list[float]:
        """Each side's place (1 = best): the winner first, the others by score, equal = tied."""
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


def match_record(row: Any) -> MatchRecord:
    return MatchRecord(
        int(row["game_id"]), int(row["chat_id"]), str(row["variant"]),
        tuple((p.user_id, p.name) for p in map(Player.from_json, json.loads(row["players"]))),
        tuple(tuple(int(seat) for seat in side) for side in json.loads(row["sides"])),
        row["winner_side"], tuple(int(s) for s in json.loads(row["scores"])),
        float(row["finished_at"]),
    )


def hand_record(row: Any) -> HandRecord:
    return HandRecord(
        int(row["game_id"]), row["winner_side"], tuple(int(p) for p in json.loads(row["points"]))
    )


# --- figures -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Standing:
    """One player's figures over a set of matches."""

    user_id: int
    name: str
    rating: int  # shown: RATING_BASE + RATING_SCALE * skill, rounded
    skill: float  # openskill's ordinal, mu - 3 sigma: what the order follows
    mu: float
    sigma: float
    played: int
    won: int
    drawn: int
    hands_played: int
    hands_won: int
    points: int | None  # None when the matches are of several games (they do not add up)
    streak: int  # n > 0: the last n matches won; n < 0: the last -n lost; 0: the last drawn

    @property
    def lost(self) -> int:
        return self.played - self.won - self.drawn

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def is_computer(self) -> bool:
        return is_computer(self.user_id)


@dataclass(slots=True)
class _Tally:
    name: str
    rating: BradleyTerryFullRating = field(default_factory=_MODEL.rating)
    played: int = 0
    won: int = 0
    drawn: int = 0
    hands_played: int = 0
    hands_won: int = 0
    points: int = 0
    streak: int = 0

    def record(self, outcome: int) -> None:
        """One more finished match: +1 won, -1 lost, 0 drawn (a draw ends any streak)."""
        self.played += 1
        self.won += outcome > 0
        self.drawn += outcome == 0
        same_way = self.streak * outcome > 0
        self.streak = self.streak + outcome if same_way else outcome

    def standing(self, user_id: int, name: str, with_points: bool) -> Standing:
        skill = self.rating.ordinal()
        return Standing(
            user_id, name, round(RATING_BASE + RATING_SCALE * skill), skill, self.rating.mu,
            self.rating.sigma, self.played, self.won, self.drawn, self.hands_played,
            self.hands_won, self.points if with_points else None, self.streak,
        )


def standings(matches: Iterable[MatchRecord], hands: Iterable[HandRecord], *,
              names: Mapping[int, str] | None = None) -> tuple[Standing, ...]:
    """Everyone's figures over ``matches`` (hands of other games are ignored), best first.

    ``names`` overrides the names the matches recorded (say, with the current ones).
    """
    ordered = sorted(matches, key=lambda m: (m.finished_at, m.game_id))
    by_game: dict[int, list[HandRecord]] = {}
    for hand in hands:
        by_game.setdefault(hand.game_id, []).append(hand)
    tallies: dict[int, _Tally] = {}
    for match in ordered:
        seats = [tallies.setdefault(uid, _Tally(name)) for uid, name in match.players]
        for tally, (_, name) in zip(seats, match.players, strict=True):
            tally.name = name  # the latest name wins
        teams = [[seats[seat].rating for seat in side] for side in match.sides]
        rated = _MODEL.rate(teams, ranks=match.ranks())
        for side_seats, team in zip(match.sides, rated, strict=True):
            for seat, rating in zip(side_seats, team, strict=True):
                seats[seat].rating = rating
        outcomes = match.outcomes()
        for seat, tally in enumerate(seats):
            side = match.side_of(seat)
            tally.record(outcomes[side])
            for hand in by_game.get(match.game_id, ()):
                tally.hands_played += 1
                tally.hands_won += hand.winner == side
                tally.points += hand.points[side]
    with_points = len({m.game for m in ordered}) <= 1
    result = [
        tally.standing(uid, (names or {}).get(uid, tally.name), with_points)
        for uid, tally in tallies.items()
    ]
    return tuple(sorted(result, key=lambda s: (-s.skill, -s.won, s.name.casefold(), s.user_id)))


@dataclass(frozen=True, slots=True)
class Scoreboard:
    chat_id: int
    game: str | None  # None: every game together
    since: float | None  # only matches finished at or after this moment
    until: float | None  # ... and before this one
    matches: int
    standings: tuple[Standing, ...]  # best first

    @property
    def penalty_points(self) -> bool:
        return penalty_points(self.game)


@dataclass(frozen=True, slots=True)
class GameStats:
    game: str
    groups: int  # how many groups the player finished a match of this game in
    standing: Standing  # over every group's matches of the game, rating included


@dataclass(frozen=True, slots=True)
class PlayerStats:
    user_id: int
    name: str
    games: tuple[GameStats, ...]  # in the order of bot.gamebook.GAMES; empty if none finished


# --- reading the database ------------------------------------------------------------------
async def _records(storage: Storage, which: ResultFilter
                   ) -> tuple[list[MatchRecord], list[HandRecord]]:
    """Finished matches of ``which`` and their hands."""
    matches = await storage.finished_matches(which)
    hands = await storage.hands_of_finished_matches(which)
    return [match_record(r) for r in matches], [hand_record(r) for r in hands]


async def scoreboard(storage: Storage, chat_id: int, game: str | None = None,
                     since: float | None = None, until: float | None = None, *,
                     include_computers: bool = False) -> Scoreboard:
    """The group's players ranked over its finished matches of ``game`` (None: all games)
    finished in [since, until). Ratings too start afresh at ``since``."""
    matches, hands = await _records(storage, ResultFilter(chat_id, game, since, until))
    names = await storage.user_names(uid for m in matches for uid, _ in m.players)
    board = standings(matches, hands, names=names)
    if not include_computers:
        board = tuple(s for s in board if not s.is_computer)
    return Scoreboard(chat_id, game, since, until, len(matches), board)


async def rating_changes(storage: Storage, game: Game, ended: MatchEnded, now: float
                         ) -> tuple[int | None, ...]:
    """How the match that just ended moves each seat's rating on the group's board of its game
    (None for a computer player, who is kept off the board), before it is recorded."""
    matches, hands = await _records(storage, ResultFilter(chat_id=game.chat_id, game=game.variant))
    record = MatchRecord(
        game.game_id, game.chat_id, game.variant,
        tuple((p.user_id, p.name) for p in game.players),
        variant(game.variant).sides(len(game.players)), ended.winner, ended.scores, now)
    fresh = _Tally("").standing(0, "", False).rating  # a player's first match starts here
    before = {s.user_id: s.rating for s in standings(matches, hands)}
    after = {s.user_id: s.rating for s in standings([*matches, record], hands)}
    return tuple(None if p.is_computer else after[p.user_id] - before.get(p.user_id, fresh)
                 for p in game.players)


async def player_stats(storage: Storage, user_id: int, name: str = "") -> PlayerStats:
    """One player's figures per game over every group; each rating is over every match of that
    game in every group, so opponents met elsewhere count too. ``name`` is the fallback for a
    player the database does not know."""
    mine = await storage.matches_played_by(user_id)
    names = await storage.user_names([user_id])
    if user_id in names:
        name = names[user_id]
    elif mine:
        name = str(json.loads(mine[-1]["seat"])[1])
    games = []
    order = {game: index for index, game in enumerate(GAMES)}
    for game in sorted({str(r["variant"]) for r in mine}, key=lambda g: (order.get(g, 99), g)):
        matches, hands = await _records(storage, ResultFilter(game=game))
        found = next(s for s in standings(matches, hands) if s.user_id == user_id)
        groups = len({r["chat_id"] for r in mine if r["variant"] == game})
        games.append(GameStats(game, groups, found))
    return PlayerStats(user_id, name, tuple(games))


# --- what /scoreboard asks for -------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BoardQuery:
    game: str | None = None
    period: str = "all"  # "all", "month" or "week"

    def since(self, now: float, tz: tzinfo = UTC) -> float | None:
        if self.period == "month":
            return month_start(now, tz)
        if self.period == "week":
            return week_start(now, tz)
        return None


def parse_query(words: Sequence[str]) -> BoardQuery:
    """``/scoreboard [game] [week|month|all]`` in any order, each at most once; anything
    else is a :class:`UserError`."""
    game: str | None = None
    period: str | None = None
    for word in (w.lower() for w in words):
        if (found := find_game(word)) is not None:
            if game is not None:
                raise UserError(N_("{word} is a second game: name one game at most."),
                                word=quote(word))
            game = found
        elif word in PERIODS:
            if period is not None:
                raise UserError(N_("{word} is a second period: give one of week, month or all."),
                                word=quote(word))
            period = word
        else:
            raise UserError(
                N_("I don't know the filter {word}: use a game ({games}), week, month or all."),
                word=quote(word), games=", ".join(GAMES),
            )
    return BoardQuery(game, period or "all")


PERIODS = ("all", "month", "week")


def week_start(now: float, tz: tzinfo = UTC) -> float:
    """Monday, midnight (in ``tz``), of the week that ``now`` falls in."""
    moment = datetime.fromtimestamp(now, tz)
    monday = moment - timedelta(days=moment.weekday())
    return monday.replace(hour=0, minute=0, second=0, microsecond=0).timestamp()


def month_start(now: float, tz: tzinfo = UTC) -> float:
    """The first moment of the calendar month (in ``tz``) that ``now`` falls in."""
    moment = datetime.fromtimestamp(now, tz)
    return moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0).timestamp()


# --- words ---------------------------------------------------------------------------------
def board_heading(t: Translator, board: Scoreboard, tz: tzinfo = UTC) -> tuple[str, str]:
    """The board's title and its details line (period, number of matches), translated; dates
    are the group's (``tz``), as for :func:`month_start`."""
    heading = (
        t("Scoreboard") if board.game is None
        else t("Scoreboard: {game}", game=title(t, board.game))
    )
    if board.since is None:
        period = t("all time")
    else:
        period = t("since {date}", date=datetime.fromtimestamp(board.since, tz).date().isoformat())
    count = t.plural("{count} match", "{count} matches", board.matches)
    return heading, f"{period} · {count}"


def _details(t: Translator, s: Standing, penalty: bool) -> list[str]:
    """The figures after the rating and the record, shared by both messages."""
    parts = [t("hands won: {won} of {played}", won=s.hands_won, played=s.hands_played)]
    if s.points is not None:
        words = N_("penalty points: {points}") if penalty else N_("points: {points}")
        parts.append(t(words, points=s.points))
    if s.streak > 1:  # a streak of one is just the last result
        parts.append(t.plural("{count} win in a row", "{count} wins in a row", s.streak))
    elif s.streak < -1:
        parts.append(t.plural("{count} loss in a row", "{count} losses in a row", -s.streak))
    return parts


def _record(t: Translator, s: Standing) -> str:
    record = t("won {won} of {played} ({percent}%)", won=s.won, played=s.played,
               percent=round(100 * s.win_rate))
    return record + ", " + t("drawn {count}", count=s.drawn) if s.drawn else record


def places(standings: Sequence[Standing]) -> list[int]:
    """Each player's place: players with the same rating share one (1, 2, 2, 4)."""
    return [1 + sum(other.rating > s.rating for other in standings) for s in standings]


def scoreboard_text(t: Translator, board: Scoreboard, limit: int = TEXT_ROWS, *,
                    tz: tzinfo = UTC) -> str:
    """The board as an HTML message (the picture's text fallback), best ``limit`` players."""
    heading, details = board_heading(t, board, tz)
    lines = [f"<b>{esc(heading)}</b>", esc(details)]
    if board.penalty_points:
        lines.append(t("Points here are penalties: fewer is better."))
    if not board.standings:
        return "\n".join([*lines, "", t("No finished matches yet.")])
    lines.append("")
    for place, s in zip(places(board.standings), board.standings[:limit], strict=False):
        head = t("{place}. <b>{name}</b>, rating {rating}", place=place, name=esc(s.name),
                 rating=s.rating)
        lines.append(f"{head}: {_record(t, s)}; {'; '.join(_details(t, s, board.penalty_points))}")
    if len(board.standings) > limit:
        lines.append(t("… and {count} more", count=len(board.standings) - limit))
    return "\n".join(lines)


def stats_text(t: Translator, stats: PlayerStats) -> str:
    """One player's figures per game as an HTML message."""
    if not stats.games:
        return t("{name} has not finished a match yet.", name=esc(stats.name))
    lines = [t("<b>{name}</b>: figures across groups", name=esc(stats.name))]
    for game in stats.games:
        s = game.standing
        lines += [
            "",
            t("<b>{game}</b>, rating {rating}", game=esc(title(t, game.game)), rating=s.rating),
            _record(t, s),
            "; ".join(_details(t, s, penalty_points(game.game))),
            t.plural("in {count} group", "in {count} groups", game.groups),
        ]
    return "\n".join(lines)


# --- the picture ---------------------------------------------------------------------------
# Every word drawn on the scoreboard picture, as a msgid (the renderer's English defaults).
SCOREBOARD_WORDS = {
    "place": N_("#"),
    "player": N_("player"),
    "rating": N_("rating"),
    "played": N_("played"),
    "won": N_("won"),
    "win_rate": N_("win rate"),
    "streak": N_("streak"),
    "hands_won": N_("hands"),
    "points": N_("points"),
    "win_streak": N_("W{count}"),
    "loss_streak": N_("L{count}"),
    "percent": N_("{percent}%"),
    "unnamed": N_("Player {number}"),
    "empty": N_("No finished matches yet."),
}


def scoreboard_labels(t: Translator) -> ScoreboardLabels:
    return ScoreboardLabels(**{key: t(msgid) for key, msgid in SCOREBOARD_WORDS.items()})


def scoreboard_picture(t: Translator, board: Scoreboard, *, theme: str = "classic",
                       limit: int = PICTURE_ROWS, tz: tzinfo = UTC) -> bytes:
    """The board as a PNG: the best ``limit`` players."""
    rows = [
        ScoreboardRow(place, s.name, s.rating, s.played, s.won, s.win_rate, s.streak,
                      s.hands_won, s.points)
        for place, s in zip(places(board.standings), board.standings[:limit], strict=False)
    ]
    heading, details = board_heading(t, board, tz)
    return render_scoreboard(rows, title=heading, subtitle=details,
                             labels=scoreboard_labels(t), theme=theme)
