"""What the bot works out for a player of a game with a stock (the games of seed 002).

Kept apart from the texts and the keyboards, which both use it: the choices a tile offers
(ends, ways, cuts), what each would score now, and the tiles a seat drew on its latest turn.
Only a seat's own tiles are ever read here, for that seat's private messages.
"""

from __future__ import annotations

from engine import Cut, End, Play, PlayerView, Tile

from .i18n import N_

END_WORDS = {End.LEFT: N_("left"), End.RIGHT: N_("right"), End.UP: N_("up"),
             End.DOWN: N_("down")}


def is_stock_game(view: PlayerView) -> bool:
    return not view.table.layout.plain


def choices_for(view: PlayerView, tile: Tile) -> tuple[Play | Cut, ...]:
    """Every legal lay of ``tile``: each end and way, and the cuts it makes."""
    return tuple(a for a in view.legal if isinstance(a, Play | Cut) and a.tile is tile)


def gains(view: PlayerView) -> dict[Play | Cut, int]:
    """What each of the seat's lays would score now (a lay that scores nothing is left
    out), as the engine's view says."""
    return {action: points for action, points in zip(view.legal, view.points, strict=True)
            if isinstance(action, Play | Cut) and points}
