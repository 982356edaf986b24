"""What a lay would leave, asked before it is made: the seat's lay tried on a fork of the hand
(as :attr:`engine.views.PlayerView.points` are), the hand itself untouched.

A player choosing among the ways of one tile (along or across, which ribbon a cut gives
away) reads here what each leaves: the layout's ends after it, what it scores at once, and
the tiles a cut hands to the previous seat. Nothing outside the engine works that out.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Cut, Play
from .errors import IllegalActionError
from .events import HandEnded, PieceCut, PointsScored
from .match import Match
from .public import LayoutView, OpenEnd
from .tiles import End, Tile

__all__ = ["LayOutcome", "lay_outcome"]


@dataclass(frozen=True, slots=True)
class LayOutcome:
    """What ``action`` leaves: the ``layout`` after it, the ``points`` it scores at once for
    its seat, and for Kolbasa's cut the tiles the previous seat ``taken`` into its hand;
    every point it scores then (``scored``, for whom and why, as announced), and where it
    ends the hand, the hand's result (``ended``: who went out or that it blocked, the winner,
    every seat's pips and every side's points and scores after it)."""

    action: Play | Cut
    layout: LayoutView
    points: int
    taken: tuple[Tile, ...] = ()
    scored: tuple[PointsScored, ...] = ()
    ended: HandEnded | None = None

    @property
    def over(self) -> bool:
        """Whether the lay ends the hand (a player going out ends it in Gaple, not in Matador,
        where the seat is skipped and the hand ends only blocked)."""
        return self.ended is not None

    def end(self, end: End) -> OpenEnd | None:
        """The layout's ``end`` after the lay (None where there is no such end then)."""
        return next((open_end for open_end in self.layout.ends if open_end.end is end), None)

    def plays_alike(self, other: LayOutcome) -> bool:
        """Whether the two lays leave positions that play and score alike from here on: the
        same points now, no tiles handed over (or the same), and every end alike in all the
        rules read of it: its numbers, whether a tile may go there, whether only a matador
        joins it, its tiles, and what it adds to the count. How a tile lies is read by the
        rules only through the end it leaves (the numbers open there, the halves it counts)
        and the points of its own lay, so two ways of one tile at one end with alike
        outcomes differ in the picture alone (Muggins' 0-0 along or across: both count 0)."""
        return (self.points, self.taken, self.layout.count, _rules_sight(self.layout)) == (
            other.points, other.taken, other.layout.count, _rules_sight(other.layout))

    def ends_alike(self, other: LayOutcome) -> bool:
        """Whether the two lays both end the hand, and with the same result: the same points
        scored on the lay (for whom and why), the same tiles handed over, and the same
        :class:`HandEnded` (how it ended and who went out, the winner and why, every seat's
        pips, every side's points and its score after the hand). What follows the hand is
        the result's alone (whether the match is over reads the scores; the next hand's
        leader, the winner and this hand's opener), so nothing left differs but the picture
        (Gaple's last 1-5 on ends 1 and 5: "gaple!" either way, with the same pips)."""
        return self.ended is not None and (self.ended, self.scored, self.taken) == (
            other.ended, other.scored, other.taken)


def _rules_sight(layout: LayoutView) -> tuple[tuple[object, ...], ...]:
    return tuple((end.end, end.numbers, end.open, end.only_matadors, end.tiles,
                  sum(end.counted)) for end in layout.ends)


def lay_outcome(match: Match, seat: int, action: Play | Cut) -> LayOutcome:
    """What ``action``, a lay or cut open to ``seat`` now (one of :attr:`PlayerView.legal`),
    would leave; its outcome's action is as the hand resolves it (its end and way). Raises
    why it cannot be made, as :meth:`Match.apply` would (an :class:`IllegalActionError`)."""
    hand = match.hand
    resolved = hand.check(seat, action)
    if type(resolved) is not Play and type(resolved) is not Cut:
        raise IllegalActionError(f"{action} is not a lay")  # pragma: no cover - (check)
    fork = hand.fork()
    events = fork.apply(seat, resolved)
    scored = tuple(e for e in events if type(e) is PointsScored)
    points = sum(e.points for e in scored if e.seat == seat)
    taken = tuple(tile for e in events if type(e) is PieceCut for tile in e.taken)
    return LayOutcome(resolved, fork.layout_view(), points, taken, scored, fork.result)
