"""Scoreboards and players' figures, as /scoreboard and /stats ask for them.

Only finished matches count. A stopped or cancelled game has no match result, and its hands are
left out too, like the hands of a match still being played: a board never counts half a match,
and stopping a match one is losing keeps no hands won in it. One exception: a person who left a
running match (a computer took the seat) lost it, as /leave warned, however it ends; a match
stopped after that is recorded for its leavers' losses alone (``MatchRecord.stopped``): a loss
in each leaver's record (played and lost, on the board and in /stats), but no match the group
played (``Scoreboard.matches`` leaves it out, ``Scoreboard.stopped`` counts it) and nothing for
the people still seated.

Computer players are rated like anyone (they are real opponents) but left off a board unless
the group asks for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from functools import cache

from engine import MatchEnded, variant

from ..errors import UserError
from ..gamebook import GAMES, name_key, read_game
from ..i18n import LANGUAGES, N_, translator
from ..models import Game, MatchRatings
from ..storage import (
    HandRecord,
    MatchRecord,
    ResultFilter,
    Storage,
    leavers_of,
    penalty_points,
)
from ..wording import quote
from .ratings import Standing, fresh_rating, standings


@dataclass(frozen=True, slots=True)
class Scoreboard:
    chat_id: int
    game: str | None  # None: every game together
    since: float | None  # only matches finished at or after this moment
    until: float | None  # ... and before this one
    matches: int  # played to their end
    standings: tuple[Standing, ...]  # best first
    # The game whose points the standings show: the board's own, or on a board of every game
    # the one game all its matches were of (None: no points are shown).
    points_game: str | None = None
    # Matches stopped after people left them: no match the group played, but a loss in each
    # leaver's record, which their figures count.
    stopped: int = 0

    @property
    def penalty_points(self) -> bool:
        """Whether the points shown count against their owner (fewer is better)."""
        return penalty_points(self.points_game)


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


async def _records(storage: Storage, which: ResultFilter
                   ) -> tuple[list[MatchRecord], list[HandRecord]]:
    """Finished matches of ``which`` and their hands."""
    return await storage.finished_matches(which), await storage.hands_of_finished_matches(which)


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
    games = {m.game for m in matches}
    points_game = game if game is not None else next(iter(games)) if len(games) == 1 else None
    stopped = sum(m.stopped for m in matches)
    return Scoreboard(chat_id, game, since, until, len(matches) - stopped, board, points_game,
                      stopped)


async def rating_changes(storage: Storage, game: Game, ended: MatchEnded | None, now: float
                         ) -> MatchRatings:
    """How the match that just ended moves each seat's rating on the group's board of its game
    (None for a computer player, who is kept off the board), and each leaver's, before it is
    recorded. ``ended`` None: the match is being stopped, and only its leavers' ratings move
    (every seat's is None; nothing at all when nobody left)."""
    leavers = leavers_of(game.players, game.seat_changes)
    seated: tuple[int | None, ...] = tuple(None for _ in game.players)
    if ended is None:
        if not leavers or game.match is None:
            return MatchRatings(seated)
        ended = MatchEnded(None, game.match.scores)  # as the stop records it
        stopped = True
    else:
        stopped = False
    matches, hands = await _records(storage, ResultFilter(game.chat_id, game.game_name))
    record = MatchRecord(
        game.game_id, game.chat_id, game.game_name,
        tuple((p.user_id, p.name) for p in game.players),
        variant(game.game_name).sides(len(game.players)), ended.winner, ended.scores, now,
        leavers, stopped)
    fresh = fresh_rating()
    before = {s.user_id: s.rating for s in standings(matches, hands)}
    after = {s.user_id: s.rating for s in standings([*matches, record], hands)}

    def change(user_id: int) -> int:
        return after[user_id] - before.get(user_id, fresh)
    if not stopped:
        seated = tuple(None if p.is_computer else change(p.user_id) for p in game.players)
    # Each leaver as their last change left them: one back from being away who then left
    # with /leave left the match (bot.service.returns).
    away = {uid for uid, _name, _seat in leavers
            if (last := game.last_change_of(uid)) is not None and last.away}
    return MatchRatings(
        seated, tuple((name, change(uid)) for uid, name, _seat in leavers if uid not in away),
        tuple((name, change(uid)) for uid, name, _seat in leavers if uid in away),
        tuple((seat, name, change(uid)) for uid, name, seat in leavers))


async def player_stats(storage: Storage, user_id: int, name: str = "") -> PlayerStats:
    """One player's figures per game over every group; each rating is over every match of that
    game in every group, so opponents met elsewhere count too. ``name`` is the fallback for a
    player the database does not know."""
    mine = await storage.matches_played_by(user_id)
    names = await storage.user_names([user_id])
    if user_id in names:
        name = names[user_id]
    elif mine:
        name = mine[-1].name
    games = []
    order = {game: index for index, game in enumerate(GAMES)}
    for game in sorted({r.game for r in mine}, key=lambda g: (order.get(g, 99), g)):
        matches, hands = await _records(storage, ResultFilter(game=game))
        found = next(s for s in standings(matches, hands) if s.user_id == user_id)
        groups = len({r.chat_id for r in mine if r.game == game})
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
    """``/scoreboard [game] [week|month|all]`` in any order, each at most once; a game by
    any of its names (several words too), a period in English or in any of the bot's
    languages; anything else is a :class:`UserError`."""
    game: str | None = None
    period: str | None = None
    periods = _period_words()
    at = 0
    while at < len(words):
        if (found := read_game(words[at:])) is not None:
            name, length = found
            if game is not None:
                raise UserError(N_("{word} is a second game: name one game at most."),
                                word=quote(" ".join(words[at:at + length])))
            game, at = name, at + length
            continue
        word = words[at]
        if (said := periods.get(name_key(word))) is None:
            raise UserError(
                N_("I don't know the filter {word}. Name a game: {games}; or a period: week, "
                   "month or all."),
                word=quote(word),  # (the games: the handler names them in the chat's language)
            )
        if period is not None:
            raise UserError(N_("{word} is a second period: give one of week, month or all."),
                            word=quote(word))
        period, at = said, at + 1
    return BoardQuery(game, period or "all")


#: The periods /scoreboard takes, each also in the bot's languages ("неделя", "bulan").
PERIODS = {
    # TRANSLATORS: a word typed after /scoreboard: this week's matches only
    "week": N_("week"),
    # TRANSLATORS: a word typed after /scoreboard: this month's matches only
    "month": N_("month"),
    # TRANSLATORS: a word typed after /scoreboard: every match ever played in the group
    "all": N_("all"),
}


@cache
def _period_words() -> dict[str, str]:
    """Each period by every word that names it, made comparable as games' names are."""
    return {name_key(said): period for period, word in PERIODS.items()
            for said in (word, *(translator(language)(word) for language in LANGUAGES))}


def week_start(now: float, tz: tzinfo = UTC) -> float:
    """Monday, midnight (in ``tz``), of the week that ``now`` falls in."""
    moment = datetime.fromtimestamp(now, tz)
    monday = moment - timedelta(days=moment.weekday())
    return monday.replace(hour=0, minute=0, second=0, microsecond=0).timestamp()


def month_start(now: float, tz: tzinfo = UTC) -> float:
    """The first moment of the calendar month (in ``tz``) that ``now`` falls in."""
    moment = datetime.fromtimestamp(now, tz)
    return moment.replace(day=1, hour=0, minute=0, second=0, microsecond=0).timestamp()


