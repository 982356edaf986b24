"""Builders for the games with a stock: deals with a stock, and moves written as text.

Moves: ``"0 3-3"`` (a lead), ``"1 2-3 right"``, ``"1 5-2 left cross"`` / ``"... along"``,
``"0 draw"``, ``"0 knock"``, ``"1 cut 0-2 right"`` (the ribbon given).
"""

from __future__ import annotations

from engine_kit import tiles

from engine import Deal, Event, Match, Tile, full_set
from engine.actions import Action
from engine.record import parse_move


def sdeal(*hands: str, stock: str = "", lot: int = 0) -> Deal:
    """A deal of the double-6 set: ``stock`` lists its first tiles, then every tile not
    dealt follows in set order."""
    dealt = tuple(tiles(h) for h in hands)
    first = list(tiles(stock))
    used = {t for h in dealt for t in h} | set(first)
    rest = [t for t in full_set(6) if t not in used]
    return Deal(dealt, (), lot, None, tuple(first + rest))


def smove_dict(text: str) -> dict[str, object]:
    words = text.split()
    seat, rest = int(words[0]), words[1:]
    if rest[0] in ("knock", "draw"):
        return {"seat": seat, rest[0]: True}
    if rest[0] == "cut":
        return {"seat": seat, "cut": rest[1], "give": rest[2]}
    data: dict[str, object] = {"seat": seat, "play": rest[0]}
    for word in rest[1:]:
        if word in ("cross", "along"):
            data["cross"] = word == "cross"
        else:
            data["end"] = word
    return data


def saction(text: str) -> tuple[int, Action]:
    move = parse_move(smove_dict(text), 6)
    return move.seat, move.action


def sstarted(game: str, the_deal: Deal, **options: object) -> Match:
    match = Match(game, the_deal.seats, options)
    match.start_hand(the_deal)
    return match


def splay(match: Match, *moves: str) -> list[Event]:
    """Apply the moves in order; every event they made."""
    events: list[Event] = []
    for text in moves:
        seat, act = saction(text)
        events.extend(match.apply(seat, act))
    return events


def held(match: Match, seat: int) -> set[Tile]:
    return set(match.hand.hands[seat])
