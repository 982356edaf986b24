"""The move the bot makes for a player whose turn timer ran out.

Not a strategy, a safeguard: lay the heaviest playable tile (it would cost the most if it
stayed in hand), doubles first among equals (they are the hardest to place later); when
stuck in a game with dead tiles, put down the lightest tile, since a dead tile counts
against its owner.
"""

from __future__ import annotations

from ..actions import Action, Discard, Play
from ..views import PlayerView


def safest_action(view: PlayerView) -> Action:
    """The safe move for ``view``'s seat. Raises ValueError if the seat has no move now."""
    if not view.legal:
        raise ValueError("this seat has no move now")
    plays = [a for a in view.legal if type(a) is Play]
    if plays:
        return max(plays, key=lambda p: (p.tile.pips, p.tile.is_double, p.tile.high,
                                         p.end is not None and p.end.value == "left"))
    discards = [a for a in view.legal if type(a) is Discard]
    if discards:
        return min(discards, key=lambda d: (d.tile.pips, d.tile.high))
    return view.legal[0]
