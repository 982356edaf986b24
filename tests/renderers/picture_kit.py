"""Deliberate positions for the picture tests, played through the engine: each seat is dealt
the tiles it lays (and spare ones to fill the deal), then the moves are applied as written,
``"1 3-5 down"``, ``"0 1-1 up along"``, ``"1 2-2 down cross"`` (seat first); or a hand dealt
as written, its moves drawing from the stock too (``"3 draw"``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import DRAW, Deal, End, Match, Play, TableView, Tile, full_set, table_view


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


def dealt(game: str, hands: Sequence[str], stock: str, moves: Sequence[str]) -> list[TableView]:
    """The table after each of ``moves`` (``"3 draw"`` takes the stock's next tile) in a hand
    of ``game`` dealt ``hands`` (a seat's tiles, ``"5-6 2-6 ..."``) and ``stock`` (in draw
    order), seat 0 leading: a hand of a demo's match, played again."""
    match = Match(game, len(hands))
    match.start_hand(Deal(tuple(tuple(Tile.parse(w) for w in hand.split()) for hand in hands),
                          (), 0, None, tuple(Tile.parse(w) for w in stock.split())))
    views = []
    for text in moves:
        if text.endswith(" draw"):
            match.apply(int(text.split()[0]), DRAW)
        else:
            match.apply(*_play(text))
        views.append(table_view(match))
    return views
