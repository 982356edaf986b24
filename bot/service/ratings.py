"""Ratings and figures, recomputed from the recorded results whenever asked.

Ratings come from openskill's Bradley-Terry model (full pairing): every finished match of the
board's scope, in the order the matches finished, ranks its sides by the result (pairs are
teams; a drawn match ties its leaders, and the others lost). Plackett-Luce, openskill's default,
rates a tie for first no higher than the runner-up, which a drawn gaple-dead match would show;
comparing every pair of sides does not. Players are ordered by the conservative estimate
mu - 3 sigma, so a newcomer with one lucky win does not top a group's regulars; it is shown as
``RATING_BASE + RATING_SCALE * (mu - 3 sigma)`` (an unrated player would show 1000).
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


def places(standings: Sequence[Standing]) -> list[int]:
    """Each player's place: players with the same rating share one (1, 2, 2, 4)."""
    return [1 + sum(other.rating > s.rating for other in standings) for s in standings]


def fresh_rating() -> int:
    """The rating a player's first match starts from."""
    return _Tally("").standing(0, "", False).rating
