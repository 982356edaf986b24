"""Each game's knowledge for the computer players, chosen by what the engine says of it.

The levels are one (:mod:`players`, :mod:`search`); what a game adds is plugged in as a
small knowledge object: how a seat judges a move (the normal level, also the others in a
playout), and how one decision's search is set up (the deals it imagines from the history,
how a finished hand is valued, the exact endgame where it applies). The engine plays a game
either on its plain line of equal numbers (one line, no stock, no points during play: the
bit-mask fast path) or on its general board; the knowledge follows the same fact,
:func:`engine.match.plays_on_line`, so it simulates on the hand the engine itself would deal.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..actions import Action
from ..variants import variant
from ..views import PlayerView
from .any_layout import AnyLayout
from .budget import Effort, Plan
from .plain_line import PlainLine
from .simulation import plays_on_line


class GameKnowledge(Protocol):
    """What the levels need to know of a game (``view.legal`` holds two moves or more)."""

    def normal(self, view: PlayerView, rng: random.Random) -> Action:
        """The normal level's move."""
        ...

    def plan(self, view: PlayerView, rng: random.Random, effort: Effort) -> Plan[Any]:
        """The hard level's search for this decision."""
        ...


PLAIN_LINE = PlainLine()
ANY_LAYOUT = AnyLayout()


def knowledge_of(view: PlayerView) -> GameKnowledge:
    """The knowledge for the game at ``view``'s table."""
    table = view.table
    if plays_on_line(variant(table.game), table.options, table.seats):
        return PLAIN_LINE
    return ANY_LAYOUT
