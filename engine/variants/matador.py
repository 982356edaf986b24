"""Matador: halves join when they add up to seven; the matadors go crosswise anywhere."""

from __future__ import annotations

from ..deal import Deal
from ..options import SET_SIX, Options, choice, target
from ..seams import Opening, PreviousHand
from ..tiles import Tile
from .base import Variant
from .openings import lot_opening

MATADORS_7 = frozenset({Tile(6, 1), Tile(5, 2), Tile(4, 3), Tile(0, 0)})


class Matador(Variant):
    name = "matador"
    search_steps = 2000
    aliases: tuple[str, ...] = ("матадор", "matador-dominoes")
    seat_counts = (2, 3, 4)
    option_specs = (SET_SIX, target(100), choice("matador_points", False, True))
    join_sum = 7
    matadors = MATADORS_7
    draw_limit = 1
    skip_empty = True
    ends_blocked_only = True
    keeps_scored = True
    deal_sizes = {2: 6, 3: 6, 4: 5}
    has_stock = True
    plays_on_tie = True

    def opening(self, options: Options, deal: Deal, previous: PreviousHand | None) -> Opening:
        return lot_opening(deal.lot, deal.seats)

    def lead_cross(self, tile: Tile) -> bool:
        return tile is Tile(0, 0)

    def matador_score(self, options: Options) -> bool:
        return options.matador_points
