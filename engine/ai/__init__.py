"""Computer players and the safeguard move. They see only a seat's :class:`PlayerView`.

``player(level).choose(view, rng)`` picks a move for ``view``'s seat, from its view alone;
the same view and the same seeded ``rng`` give the same move. Levels: ``"easy"`` (random),
``"normal"`` (a heuristic), ``"hard"`` (counts tiles and searches the deals that fit, on a
budget of counted work, so a decision never depends on the machine's speed or load).
"""

from __future__ import annotations

from .budget import Deadline, Work
from .levels import LEVELS, player
from .players import HeuristicPlayer, Player, RandomPlayer
from .safe import safest_action
from .search import CountingPlayer

__all__ = [
    "LEVELS",
    "CountingPlayer",
    "Deadline",
    "HeuristicPlayer",
    "Player",
    "RandomPlayer",
    "Work",
    "player",
    "safest_action",
]
