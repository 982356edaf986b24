"""French: halves add up to seven, the matadors go crosswise; the fewest pips win, and the
hand goes on until nothing left off the table fits."""

from __future__ import annotations

from ..deal import Deal
from ..options import SET_SIX, Options, target
from ..seams import HandEnd, HandScore, HandState, Opening, PreviousHand
from .base import Variant
from .matador import MATADORS_7
from .openings import holder
from .scoring import lightest


class French(Variant):
    name = "french"
    search_steps = 1200
    aliases = ("французская", "французская-партия", "french-dominoes", "francuzskaya")
    seat_counts = (2, 3, 4, 5)
    option_specs = (SET_SIX, target(101))
    lowest_total_wins = True
    join_sum = 7
    matadors = MATADORS_7
    keeps_scored = True
    deal_sizes = {2: 5, 3: 5, 4: 5, 5: 5}
    has_stock = True
    plays_on_tie = True

    def opening(self, options: Options, deal: Deal, previous: PreviousHand | None) -> Opening:
        top = max((t for hand in deal.hands for t in hand), key=lambda t: (t.pips, t.high))
        return Opening(holder(deal.hands, top), (top,))

    def out_seat(self, hand: HandState, mover: int) -> int | None:
        if hand.stock_left:
            return None
        return next((seat for seat, mask in enumerate(hand.masks) if not mask), None)

    def blocked_by_table(self, hand: HandState) -> bool:
        if not hand.laid:
            return False
        off_table = sum(t.bit for t in hand.stock[hand.drawn :]) | sum(hand.masks)
        return not off_table & hand.lay_mask()

    def score(self, options: Options, end: HandEnd) -> HandScore:
        return HandScore(lightest(end.totals), end.totals)  # penalty points: each seat's pips
