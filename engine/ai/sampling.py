"""Which imagined deals a search looks at: the likelier, the more often.

Every game's hard level imagines the hidden tiles many times over. While the other seats
have made no choice that tells anything, the deals that fit the view are searched as drawn;
after that a pool of them is drawn and each is weighed by how well it explains the choices
the other seats made (:func:`choice_log_probability`), and the searched deals are drawn from
the pool in proportion. The per-game knowledge says how to draw a deal and how to judge a
choice; this module is the one way both become the deals to search.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence
from itertools import accumulate
from typing import TypeVar

Deal = TypeVar("Deal")


def choice_log_probability(
    values: Sequence[float], mine: float, temperature: float, erratic: float
) -> float:
    """The log-probability that a seat chose the option worth ``mine`` among options worth
    ``values``: a sensible seat picks one with probability proportional to
    ``exp(value / temperature)``, an ``erratic`` share of choices are made at random."""
    top = max(values)
    spread = sum(math.exp((v - top) / temperature) for v in values)
    sensible = math.exp((mine - top) / temperature) / spread
    return math.log((1.0 - erratic) * sensible + erratic / len(values))


def likely_deals(
    draw: Callable[[], Deal | None],
    weigh: Callable[[Deal], float] | None,
    pool: int,
    limit: int,
    rng: random.Random,
) -> Iterator[Deal]:
    """Up to ``limit`` deals to search: as ``draw`` gives them when there is nothing to
    ``weigh`` them by, else drawn from ``pool`` of them in proportion to the likelihood whose
    log ``weigh`` gives. ``draw`` returns None when no deal fits (then the stream ends)."""
    if weigh is None:
        for _ in range(limit):
            deal = draw()
            if deal is None:
                return
            yield deal
        return
    drawn: list[Deal] = []
    for _ in range(pool):
        deal = draw()
        if deal is None:
            break
        drawn.append(deal)
    if not drawn:
        return
    weights = [weigh(deal) for deal in drawn]
    top = max(weights)
    cumulative = list(accumulate(math.exp(w - top) for w in weights))
    for _ in range(limit):
        yield rng.choices(drawn, cum_weights=cumulative)[0]
