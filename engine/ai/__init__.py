"""Computer players and the safeguard move. They see only a seat's :class:`PlayerView`.

``player(level).choose(view, rng)`` picks a move for ``view``'s seat, from its view alone;
the same view and the same seeded ``rng`` give the same move. Levels: ``"easy"`` (random),
``"normal"`` (a heuristic), ``"hard"`` (counts tiles and searches the deals that fit, on a
budget of counted work, so a decision never depends on the machine's speed or load) and
``"expert"`` (the same search, looking many times further). What each knows and does:
``docs/AI.md``.

One player per level for every game (:mod:`players`, :mod:`search`); what a game adds is a
small knowledge object (:mod:`games`), chosen by how the engine deals the game's hands:
:mod:`plain_line` (with :mod:`inference`, :mod:`worlds`, :mod:`belief`, :mod:`policy`,
:mod:`solver`) or :mod:`any_layout` (with :mod:`board_worlds`). The deals a search looks at
are drawn one way (:mod:`sampling`); the engine internals the players simulate on are
imported in :mod:`simulation` only.
"""

from __future__ import annotations

from .budget import Deadline, Work
from .levels import LEVELS, player
from .players import HeuristicPlayer, Player, RandomPlayer
from .safe import safest_action
from .search import CountingPlayer, ExpertPlayer

__all__ = [
    "LEVELS",
    "CountingPlayer",
    "Deadline",
    "ExpertPlayer",
    "HeuristicPlayer",
    "Player",
    "RandomPlayer",
    "Work",
    "player",
    "safest_action",
]
