"""Deliberate positions for the picture tests, played through the engine: each seat is dealt
the tiles it lays (and spare ones to fill the deal), then the moves are applied as written,
``"1 3-5 down"``, ``"0 1-1 up along"``, ``"1 2-2 down cross"`` (seat first)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Deal, Match, Tile, full_set, table_view
from engine.record import parse_move as parse_stock_move
from engine.views import TableView


def _move(text: str) -> dict[str, object]:
    words = text.split()
    data: dict[str, object] = {"seat": int(words[0]), "play": words[1]}
    for word in words[2:]:
        if word in ("cross", "along"):
            data["cross"] = word == "cross"
        else:
            data["end"] = word
    return data


def laid(game: str, seats: int, moves: Sequence[str], *, spare: str = "") -> Match:
    """A hand of ``game`` after ``moves`` (the first is the lead, by seat 0), every seat's
    deal its own tiles of ``moves`` and then the ``spare`` tiles in turn (then the set's
    highest tiles not laid)."""
    plays = [parse_stock_move(_move(text), 6) for text in moves]
    size = Match(game, seats).hand_size
    hands: list[list[Tile]] = [[] for _ in range(seats)]
    for move in plays:
        hands[move.seat].append(move.action.tile)  # type: ignore[union-attr]
    spares = [Tile.parse(word) for word in spare.split()]
    played = {tile for hand in hands for tile in hand}
    spares += [t for t in reversed(full_set(6)) if t not in played and t not in spares]
    for hand in hands:
        while len(hand) < size:
            hand.append(spares.pop(0))
    used = {tile for hand in hands for tile in hand}
    stock = tuple(tile for tile in full_set(6) if tile not in used)
    match = Match(game, seats)
    match.start_hand(Deal(tuple(tuple(hand) for hand in hands), (), 0, None, stock))
    for move in plays:
        match.apply(move.seat, move.action)
    return match


def laid_view(game: str, seats: int, moves: Sequence[str], *, spare: str = "") -> TableView:
    return table_view(laid(game, seats, moves, spare=spare))
