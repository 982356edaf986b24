"""Ratings and figures, recomputed from the recorded results whenever asked.

Ratings come from openskill's Bradley-Terry model (full pairing): every finished match of the
board's scope, in the order the matches finished, ranks its sides by the result (pairs are
teams; a drawn match ties its leaders, and the others lost). Plackett-Luce, openskill's default,
rates a tie for first no higher than the runner-up, which a drawn gaple-dead match would show;
comparing every pair of sides does not. A person who left a match is rated as its last,
whether it finished or was stopped afterwards (:func:`_rate_leavers`), unless they took their
seat back and sat in it at the end (then the seat's result alone); a stopped match moves
nobody else.

The rating shown starts at ``RATING_BASE`` and each rated match adds its change,
:func:`rating_change`: how far it moved the model's estimate mu, ``RATING_SCALE`` points to a
unit of mu, rounded (so the sum of the changes a player was shown is their rating). Mu moves
less as the model grows sure of a player (its sigma shrinks) and as a result grows expected,
so the changes shrink as a rating settles, as Elo-style ratings' do: a first match moves it
most, the same pair beating the same pair again moves it less every time. A winner of two
sides never falls, a loser never rises. Until a player has played ``PROVISIONAL_MATCHES``
rated matches their rating is provisional (:attr:`Standing.provisional`, shown "1158?" as
chess sites show one) and the board lists them after the established players, so one lucky
win does not put a newcomer above regulars with a record.

The rating shown before was mu damped by a share ``played / (played + 3)`` of it: every match
raised the share, so the changes grew over a player's first matches (player QA saw a pair
win five straight for +10, +18, +26, +27, +18), and a newcomer's first win showed a quarter of
what it did to mu. Each win's change as one side keeps beating the same opponents:

==================  =============================================  ================  ===========
match               wins 1 to 10, damped by matches (before)       now, mu itself    10 wins
==================  =============================================  ================  ===========
pairs (2 v 2)       +10 +18 +18 +17 +16 +14 +12 +11 +10 +9         +39 +30 +23 +19   +135 / +176
                                                                   +15 +13 +11 +10
                                                                   +8 +8
two players         +13 +24 +25 +24 +20 +19 +16 +15 +13 +12        +53 +40 +31 +25   +181 / +236
                                                                   +21 +17 +15 +13
                                                                   +11 +10
three, each         +26 +43 +40 +35 +29 +26 +21 +19 +17 +15        +105 +67 +46 +33  +271 / +351
                                                                   +26 +20 +17 +14
                                                                   +12 +11
four, each          +40 +56 +49 +40 +34 +28 +23 +21 +18 +15        +158 +82 +50 +34  +324 / +421
                                                                   +25 +20 +16 +14
                                                                   +12 +10
==================  =============================================  ================  ===========

The losers' changes mirror the winners' in a match of two sides (-10, -18, -18 ... before;
-39, -30, -23 ... now); a loser of three or four each for self went -13, -22, -20 ... or -13,
-19, -16 ... before, now -53, -34, -23 ... or -53, -27, -16 .... Five regulars who have played
30 matches of two (each beating everyone after them): a newcomer who wins a first match of
four over the three best showed 1056 before, third of six behind 1180 and 1086; now 1224?,
beside the best's 1227 but listed sixth, after the five regulars, until five matches tell the
bot more (tests/bot/test_ratings.py has each of these).
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


#: How many rated matches a player's rating stays provisional for: marked, and listed after
#: the established players (FIDE rates a player after five games against rated opponents).
PROVISIONAL_MATCHES = 5


def rating_change(mu_before: float, mu_after: float) -> int:
    """How a rated match that moved the estimate mu from ``mu_before`` to ``mu_after`` moves
    the rating shown: ``RATING_SCALE`` points to a unit of mu, rounded. Rounding each change,
    not the rating, keeps the changes a player sees in order (mu's changes in a streak shrink
    by less than a point late on; differences of rounded ratings went 6, 7) and makes the
    rating their sum. The sum strays from mu on the scale by a few points over hundreds of
    matches (a change under half a point shows 0: 6 to 11 points after 350 matches each among
    eight players, the ends of the board drawn in); the board follows the rating shown."""
    return round(RATING_SCALE * (mu_after - mu_before))


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's figures over a set of matches."""

    user_id: int
    name: str
    rating: int  # shown: RATING_BASE plus each rated match's rating_change
    skill: float  # mu less the start's, unrounded: what breaks a tie of the rating
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

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional: fewer than ``PROVISIONAL_MATCHES`` rated
        matches played (leaving one counts: it is a rated loss)."""
        return self.played < PROVISIONAL_MATCHES

    @property
    def order(self) -> tuple[bool, int]:
        """Where the board puts the player: the established players (by rating) before the
        provisional ones (by rating). Equal orders share a place."""
        return self.provisional, -self.rating


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
    shown: int = RATING_BASE  # the rating shown: the base plus every rating_change so far

    def record(self, outcome: int, rating: BradleyTerryFullRating) -> None:
        """One more rated match, which left the player at ``rating``: ``outcome`` +1 won, -1
        lost, 0 drawn (a draw ends any streak)."""
        self.played += 1
        self.shown += rating_change(self.rating.mu, rating.mu)
        self.rating = rating
        self.won += outcome > 0
        self.drawn += outcome == 0
        same_way = self.streak * outcome > 0
        self.streak = self.streak + outcome if same_way else outcome

    def standing(self, user_id: int, name: str, with_points: bool) -> Standing:
        return Standing(
            user_id, name, self.shown, self.rating.mu - _START.mu, self.rating.mu,
            self.rating.sigma, self.played, self.won, self.drawn, self.hands_played,
            self.hands_won, self.points if with_points else None, self.streak,
        )


def standings(matches: Iterable[MatchRecord], hands: Iterable[HandRecord], *,
              names: Mapping[int, str] | None = None) -> tuple[Standing, ...]:
    """Everyone's figures over ``matches`` (hands of other games are ignored), best first:
    the established players by rating, then the provisional ones by rating (where nobody is
    established, everyone by rating).

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
        after = {seat: rating for side_seats, team in zip(match.sides, rated, strict=True)
                 for seat, rating in zip(side_seats, team, strict=True)}
        outcomes = match.outcomes()
        for seat, tally in enumerate(seats):
            side = match.side_of(seat)
            tally.record(outcomes[side], after[seat])
            for hand in by_game.get(match.game_id, ()):
                tally.hands_played += 1
                tally.hands_won += hand.winner == side
                tally.points += hand.points[side]
    with_points = len({m.game for m in ordered}) <= 1
    result = [
        tally.standing(uid, (names or {}).get(uid, tally.name), with_points)
        for uid, tally in tallies.items()
    ]
    return tuple(sorted(result, key=lambda s: (*s.order, -s.skill, -s.won, s.name.casefold(),
                                               s.user_id)))


def _rate_leavers(match: MatchRecord, tallies: dict[int, _Tally]) -> None:
    """Each leaver of ``match`` is rated as if they had sat on in their seat and their side
    had come last, below every side that played on, whatever the side did without them: in
    a match of two sides the loser's change; among three or more the last place's, larger
    than a loser's who played on (Russian QA read a leaver's -158 beside the losers' -53:
    leaving is finishing last, not second); in a stopped match, as the one side that lost
    where all the others drew. The seated
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
        tally.record(-1, _MODEL.rate(instead, ranks=lost)[side][place])


def places(standings: Sequence[Standing]) -> list[int]:
    """Each player's place: players with the same rating share one (1, 2, 2, 4), and every
    established player is placed before every provisional one (:attr:`Standing.order`)."""
    orders = [s.order for s in standings]
    first: dict[tuple[bool, int], int] = {}
    for place, order in enumerate(sorted(orders), start=1):  # (n log n: a board may be long)
        first.setdefault(order, place)
    return [first[order] for order in orders]


def fresh_rating() -> int:
    """The rating a player's first match starts from."""
    return _Tally("").standing(0, "", False).rating
