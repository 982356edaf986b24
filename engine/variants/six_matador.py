"""Six-matador: Matador on six, the matadors always crosswise, and points scored in play
(joints, free sixes, matadors, knocks) decide each hand."""

from __future__ import annotations

from ..board import Board, Piece
from ..events import HandEndReason, ScoreReason
from ..options import SET_SIX, Options, choice, target
from ..seams import NO_POINTS, HandEnd, HandScore, Score
from ..tiles import End, Tile
from .matador import Matador

MATADORS_6 = frozenset({Tile(0, 6), Tile(1, 5), Tile(2, 4), Tile(3, 3), Tile(0, 0)})


class SixMatador(Matador):
    name = "six-matador"
    search_steps = 1000
    aliases = ("шестерной-матадор", "шестерной", "sixmatador", "matador-6")  # six_matador: by key
    option_specs = (SET_SIX, target(100), choice("scoring", "strict", "simple"))
    join_sum = 6
    matadors = MATADORS_6
    matadors_along = False  # always crosswise (D24)
    points_in_play = True
    deal_sizes = {2: 6, 3: 6, 4: 7}

    def lead_cross(self, tile: Tile) -> bool:
        return tile is Tile(0, 0) or tile is Tile(3, 3)

    def matador_score(self, options: Options) -> bool:
        return True

    def play_points(
        self, options: Options, board: Board, piece: Piece, end: End
    ) -> tuple[Score, ...]:
        if piece.cross:
            return ((10, ScoreReason.MATADOR),)
        if options.scoring != "strict":
            return NO_POINTS
        if piece.outer == 6:
            return ((1, ScoreReason.JOINT), (5, ScoreReason.FREE_SIX))
        return ((1, ScoreReason.JOINT),)

    def knock_points(self, options: Options) -> tuple[Score, ...]:
        return ((-6, ScoreReason.KNOCK),) if options.scoring == "strict" else NO_POINTS

    def pips_decide(self, reason: HandEndReason) -> bool:
        return False  # a hand's points are those scored in it, its winner has the most

    def settlement(self, scores: tuple[int, ...], winner: int | None) -> tuple[int, ...] | None:
        """D25: the winner receives from each other seat the difference between their two
        scores (shown, not added to any score); per seat, what it receives (negative: pays)."""
        if winner is None:
            return None
        paid = [scores[seat] - scores[winner] for seat in range(len(scores))]
        paid[winner] = -sum(paid)
        return tuple(paid)

    def score(self, options: Options, end: HandEnd) -> HandScore:
        """Nothing at the end: the one seat that scored the most in play wins the hand."""
        best = max(end.scored)
        leaders = [seat for seat, points in enumerate(end.scored) if points == best]
        return HandScore(leaders[0] if len(leaders) == 1 else None, (0,) * len(end.scored))
