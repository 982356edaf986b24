"""The moves nobody decides, played by the service after every move: a knock when nothing
fits, a draw when the stock must be used. (The engine will offer this as an automation its
callers switch on; until then this is its one place in the bot.)"""

from __future__ import annotations

from engine import DRAW, KNOCK, Event, Match


def auto_moves(match: Match) -> list[Event]:
    """The moves a player has no choice in: a knock, a draw from the stock (the drawn
    tiles reach the player in their hand message, never the group)."""
    events: list[Event] = []
    while not match.hand.over and match.legal_actions() in ((KNOCK,), (DRAW,)):
        seat = match.to_move
        assert seat is not None
        events += match.apply(seat, match.legal_actions()[0])
    return events
