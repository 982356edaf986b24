"""Ratings and figures, recomputed from the recorded results whenever asked.

Ratings come from openskill's Bradley-Terry model (full pairing): every finished match of the
board's scope, in the order the matches finished, ranks its sides by the result (pairs are
teams; a drawn match ties its leaders, and the others lost). Plackett-Luce, openskill's default,
rates a tie for first no higher than the runner-up, which a drawn gaple-dead match would show;
comparing every pair of sides does not. A person who left a match is rated as a loser of it,
whether it finished or was stopped afterwards (:func:`_rate_leavers`), unless they took their
seat back and sat in it at the end (then the seat's result alone); a stopped match moves
nobody else.

The rating shown is a skill on the display scale, ``RATING_BASE + RATING_SCALE * skill``: the
estimate mu drawn towards the start while the player has played few rated matches
(:func:`shown_skill`), moved after each match the way mu moved (:func:`next_shown`). The
conservative ordinal mu - 3 sigma, shown before, swung by +208 / -108 after a group's first
match and rose even for losers, only because sigma shrinks for everyone once they have played;
damping mu by sigma instead (1 - (sigma / sigma0)^2) let a pair win show +1 and a win of two
+3, as sigma shrinks far less in those matches; see :func:`shown_skill` for why neither
happens now.
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


#: How many rated matches the shown rating takes to come halfway to the estimate mu.
LEARNING_MATCHES = 3


def shown_skill(mu: float, played: int) -> float:
    """The skill a player's shown rating aims at after ``played`` rated matches: how far mu is
    from the start, times the share ``played / (played + LEARNING_MATCHES)`` of it the bot
    takes as learnt.

    The share is 0 before the first match (every newcomer shows exactly ``RATING_BASE``), 1/4
    after one, 1/2 after three, near 1 after many: over many matches the shown rating comes to
    mu itself, and a newcomer's lucky win shows a quarter of what mu made of it, so it does not
    put them above a group's regulars who have shown they are better than the start. The share
    counts matches, whatever their shape: the damping by sigma it replaces, 1 - (sigma /
    sigma0)^2, was tiny after a pair match or a match of two (sigma 8.33 -> 8.18 or 8.07) and
    large after one of four (-> 7.50), on top of mu's own larger move there. A first match
    (a newcomer's first win; a loss of the same match) and ten straight wins over the same
    opponents, on the display scale, damped by sigma before and by matches now:

    ======================  ==============  ==============  ==============
    match                   first win       first loss      ten wins
    ======================  ==============  ==============  ==============
    two players             +3 -> +13       -3 -> -13       +80 -> +181
    pairs (2 v 2)           +1 -> +10       -1 -> -10       +38 -> +135
    three, each for self    +13 -> +26      -7 -> -13       +172 -> +271
    four, each for self     +30 -> +40      -10 -> -13      +240 -> +324
    ======================  ==============  ==============  ==============

    (A first loss: each loser's of that first match, the losers tied. Mu alone, undamped,
    would show +53 / +39 / +105 / +158 for the first wins.) A newcomer who wins a first match
    of four over the three best of five regulars (30 matches among them) shows about +52 (+71
    damped by sigma): second to the best of them, as before.

    How the shown rating moves after a match is :func:`next_shown`'s: the share grows with
    every match, won or lost, so the target alone could rise for a loser whose mu is above the
    start (one lucky win of four, +40, then a loss to a regular of two: mu -2.5, and the
    target +46; the rating shown falls to +23).
    """
    return (mu - _START.mu) * played / (played + LEARNING_MATCHES)


def next_shown(shown: float, mu_before: float, mu_after: float, played: int) -> float:
    """The shown skill after a rated match that moved mu from ``mu_before`` to ``mu_after``,
    the player's ``played``-th, where it was ``shown`` before.

    It moves the way mu moved, never the other way (not at all when mu did not move), and
    at least by the damped change of mu:
    when mu fell (every loser of a match of two sides, the last of a match of several), to
    :func:`shown_skill` or ``shown`` plus the damped fall, whichever is lower; when it rose,
    to the higher of the two. So a loser never gains merely by being better known (the share
    growing), and every match moves the rating visibly. Where the target was not reached, the
    rating catches up with it at the next move the other way; a gap opens only while the share
    still grows, so over many matches the shown rating is the target, and comes to mu.
    """
    if mu_after == mu_before:  # (the share alone grew: the rating stays where it was)
        return shown
    target = shown_skill(mu_after, played)
    step = shown + (mu_after - mu_before) * played / (played + LEARNING_MATCHES)
    return max(target, step) if mu_after > mu_before else min(target, step)


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's figures over a set of matches."""

    user_id: int
    name: str
    rating: int  # shown: RATING_BASE + RATING_SCALE * skill, rounded
    skill: float  # next_shown over the player's matches: what the order follows
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
    skill: float = 0.0  # shown: next_shown over the matches so far

    def record(self, outcome: int, rating: BradleyTerryFullRating) -> None:
        """One more rated match, which left the player at ``rating``: ``outcome`` +1 won, -1
        lost, 0 drawn (a draw ends any streak)."""
        self.played += 1
        self.skill = next_shown(self.skill, self.rating.mu, rating.mu, self.played)
        self.rating = rating
        self.won += outcome > 0
        self.drawn += outcome == 0
        same_way = self.streak * outcome > 0
        self.streak = self.streak + outcome if same_way else outcome

    def standing(self, user_id: int, name: str, with_points: bool) -> Standing:
        return Standing(
            user_id, name, round(RATING_BASE + RATING_SCALE * self.skill), self.skill,
            self.rating.mu,
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
        tally.record(-1, _MODEL.rate(instead, ranks=lost)[side][place])


def places(standings: Sequence[Standing]) -> list[int]:
    """Each player's place: players with the same rating share one (1, 2, 2, 4)."""
    return [1 + sum(other.rating > s.rating for other in standings) for s in standings]


def fresh_rating() -> int:
    """The rating a player's first match starts from."""
    return _Tally("").standing(0, "", False).rating
