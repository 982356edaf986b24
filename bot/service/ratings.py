"""Ratings and figures, recomputed from the recorded results whenever asked.

Ratings come from openskill's Bradley-Terry model (full pairing): every finished match of the
board's scope, in the order the matches finished, ranks its sides by the result (pairs are
teams; a drawn match ties its leaders, and the others lost). Plackett-Luce, openskill's default,
rates a tie for first no higher than the runner-up, which a drawn gaple-dead match would show;
comparing every pair of sides does not. A person who left a match is rated as a loser of it,
whether it finished or was stopped afterwards (:func:`_rate_leavers`), unless they took their
seat back and sat in it at the end (then the seat's result alone); a stopped match moves
nobody else.

The rating shown is :func:`shown_skill` on the display scale, ``RATING_BASE + RATING_SCALE *
skill``: the estimate mu drawn towards the start by what the bot does not know yet. The
conservative ordinal mu - 3 sigma, shown before, swung by +208 / -108 after a group's first
match and rose even for losers, only because sigma shrinks for everyone once they have played;
see :func:`shown_skill` for why the damped estimate does not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import BradleyTerryFull, BradleyTerryFullRating

from ..models import is_computer_id
from ..storage import HandRecord, MatchRecord

RATING_BASE = 1000
RATING_SCALE = 20

_MODEL = BradleyTerryFull()
_START = _MODEL.rating()  # where every player starts: mu 25, sigma 25/3


def shown_skill(mu: float, sigma: float) -> float:
    """The skill a player is shown and ranked by: how far mu is from the start, times the
    share of the start's uncertainty that the matches have removed, 1 - (sigma / sigma0)^2.

    That share is what the model has learnt about the player: 0 before the first match (every
    newcomer shows exactly ``RATING_BASE``), near 1 after many. So a rating cannot swing while
    the bot knows little (a first match of four moves it by about +30 / -10 on the display
    scale, not the ordinal's +208 / -3), a loser never gains merely by being better known, and
    a newcomer's lucky win does not put them above a group's regulars: the same protection
    the conservative mu - 3 sigma gave, without its jumps. Over many matches the shown rating
    comes to mu itself.
    """
    learnt = max(0.0, 1.0 - (sigma / _START.sigma) ** 2)
    return (mu - _START.mu) * learnt


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's figures over a set of matches."""

    user_id: int
    name: str
    rating: int  # shown: RATING_BASE + RATING_SCALE * skill, rounded
    skill: float  # shown_skill(mu, sigma): what the order follows
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
        return is_computer_id(self.user_id)


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
        skill = shown_skill(self.rating.mu, self.rating.sigma)
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
        _rate_leavers(match, tallies)
        if match.stopped:
            continue  # nobody won it: the people seated at the stop get nothing from it
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


def _rate_leavers(match: MatchRecord, tallies: dict[int, _Tally]) -> None:
    """Each leaver of ``match`` is rated as if they had sat on in their seat and their side
    had lost: the same change as a loser of this match, whatever the side did without them;
    in a stopped match, as the one side that lost where all the others drew. The seated
    players' ratings are read as they came to the match, and left alone.

    One rating change a person a match: someone seated at its end (one who took back a seat
    handed on while they were away, :mod:`bot.service.returns`) is rated by the seat's result
    alone, never also as a leaver (:func:`~bot.storage.results.leavers_of` records none such;
    a record that named one anyway is read so too)."""
    seated = {uid for uid, _name in match.players}
    leavers = [leaver for leaver in match.leavers if leaver[0] not in seated]
    if not leavers:
        return

    def rating_of(user_id: int) -> BradleyTerryFullRating:
        return tallies[user_id].rating if user_id in tallies else _MODEL.rating()
    teams = [[rating_of(match.players[seat][0]) for seat in side] for side in match.sides]
    ranks = match.ranks()
    for uid, name, seat in leavers:
        tally = tallies.setdefault(uid, _Tally(name))
        tally.name = name
        side = match.side_of(seat)
        place = match.sides[side].index(seat)
        instead = [[tally.rating if s == seat else r for s, r in zip(seats_of, team,
                                                                        strict=True)]
                   for seats_of, team in zip(match.sides, teams, strict=True)]
        lost = [max(ranks) + 1 if n == side else rank for n, rank in enumerate(ranks)]
        tally.rating = _MODEL.rate(instead, ranks=lost)[side][place]
        tally.record(-1)


def places(standings: Sequence[Standing]) -> list[int]:
    """Each player's place: players with the same rating share one (1, 2, 2, 4)."""
    return [1 + sum(other.rating > s.rating for other in standings) for s in standings]


def fresh_rating() -> int:
    """The rating a player's first match starts from."""
    return _Tally("").standing(0, "", False).rating
