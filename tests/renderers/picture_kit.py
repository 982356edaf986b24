"""Deliberate positions for the picture tests, played through the engine: each seat is dealt
the tiles it lays (and spare ones to fill the deal), then the moves are applied as written,
``"1 3-5 down"``, ``"0 1-1 up along"``, ``"1 2-2 down cross"`` (seat first)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Deal, End, Match, Play, TableView, Tile, full_set, table_view


def _play(text: str) -> tuple[int, Play]:
    """``"1 2-2 down cross"``: the seat and its lay, the tile's halves as written (a lead's
    first half towards the left)."""
    seat, tile, *words = text.split()
    first, second = (int(half) for half in tile.split("-"))
    ways = [word == "cross" for word in words if word in ("cross", "along")]
    ends = [End(word) for word in words if word not in ("cross", "along")]
    return int(seat), Play(Tile(first, second), ends[0] if ends else None, first,
                           ways[0] if ways else None)


def laid(game: str, seats: int, moves: Sequence[str], *, spare: str = "") -> Match:
    """A hand of ``game`` after ``moves`` (the first is the lead, by seat 0), every seat's
    deal its own tiles of ``moves`` and then the ``spare`` tiles in turn (then the set's
    highest tiles not laid)."""
    plays = [_play(text) for text in moves]
    size = Match(game, seats).hand_size
    hands: list[list[Tile]] = [[] for _ in range(seats)]
    for seat, play in plays:
        hands[seat].append(play.tile)
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
    for seat, play in plays:
        match.apply(seat, play)
    return match


def laid_view(game: str, seats: int, moves: Sequence[str], *, spare: str = "") -> TableView:
    return table_view(laid(game, seats, moves, spare=spare))
