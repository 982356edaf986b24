"""What the bot works out for a player of a game with a stock (the games of seed 002).

Kept apart from the texts and the keyboards, which both use it: the choices a tile offers
(ends, ways, cuts), what each would score now, and the tiles a seat drew on its latest turn.
Only a seat's own tiles are ever read here, for that seat's private messages.
"""

from __future__ import annotations

from engine import ActionKind, Cut, End, Match, Play, PlayerView, PointsScored, Tile
from engine.table import StockHand

from .i18n import N_

END_WORDS = {End.LEFT: N_("left"), End.RIGHT: N_("right"), End.UP: N_("up"),
             End.DOWN: N_("down")}


def is_stock_game(view: PlayerView) -> bool:
    return view.table.layout is not None


def choices_for(view: PlayerView, tile: Tile) -> tuple[Play | Cut, ...]:
    """Every legal lay of ``tile``: each end and way, and the cuts it makes."""
    return tuple(a for a in view.legal if isinstance(a, Play | Cut) and a.tile is tile)


def gains(match: Match, seat: int, view: PlayerView) -> dict[Play | Cut, int]:
    """What each of ``seat``'s lays would score now, tried on a copy of the hand (a lay
    that scores nothing is left out). Empty outside the games with a stock."""
    hand = match.hand
    if not isinstance(hand, StockHand) or hand.to_move != seat:
        return {}
    out: dict[Play | Cut, int] = {}
    for action in view.legal:
        if type(action) not in (Play, Cut):
            continue
        twin = hand.fork()
        events = twin.apply(seat, action)
        points = sum(e.points for e in events if isinstance(e, PointsScored) and e.seat == seat)
        if points:
            out[action] = points  # type: ignore[index]
    return out


def drawn_tiles(match: Match, seat: int) -> tuple[Tile, ...]:
    """The tiles ``seat`` drew on its latest turn of this hand, while that turn is the one
    to tell it about: it is still drawing-then-choosing, or it drew and then knocked."""
    hand = match.hand
    if not isinstance(hand, StockHand):
        return ()
    turn: list[tuple[int, ActionKind]] = []  # (stock index, kind) of the seat's latest turn
    drawn = 0
    previous: int | None = None
    for mover, action in hand.moves:
        if mover != previous:
            if mover == seat:
                turn = []
            previous = mover
        if mover == seat:
            turn.append((drawn, action.kind))
        if action.kind is ActionKind.DRAW:
            drawn += 1
    if not turn or turn[-1][1] not in (ActionKind.DRAW, ActionKind.KNOCK):
        return ()
    return tuple(hand.stock[index] for index, kind in turn if kind is ActionKind.DRAW)
