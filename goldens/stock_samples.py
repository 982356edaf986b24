"""Golden tables of the six games of seed 002 at every seat count they allow, each chosen for
what its picture must show (a full Muggins cross, a Kolbasa cut, a matador's two numbers, a
debt, a double or triple header); the ends of matches; the scoreboard with hands and ties.

Positions are played through the engine from fixed seeds, and each is found by what it shows,
so a sample that no longer shows its point fails loudly here rather than drifting."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache

from engine import (
    DRAW,
    Action,
    Deal,
    LayoutView,
    Match,
    Play,
    PlayerView,
    ScoreReason,
    TableView,
    Tile,
    full_set,
    player_view,
    table_view,
)
from renderers.board import header_kind
from renderers.scoreboard import ScoreboardRow, shared_places

Wanted = Callable[[Match], bool]

GAME_TITLES = (
    ("kolbasa", "Kolbasa"),
    ("matador", "Matador"),
    ("six-matador", "Six-matador"),
    ("french", "French"),
    ("muggins", "Muggins"),
    ("bergen", "Bergen"),
)
HONOURS = {"french": "honour only"}  # games whose matadors have their own name


def layout_of(match: Match) -> LayoutView:
    return table_view(match).layout


def full_cross(match: Match) -> bool:
    """Muggins: all four arms laid, at least six tiles, and a count that scores."""
    layout = layout_of(match)
    return bool(layout.up and layout.down and len(layout.line) >= 6 and layout.count
                and layout.count % 5 == 0)


def four_ends_and_choice(match: Match) -> bool:
    """Muggins, the spinner's four ends open showing three numbers or more, and the seat to
    move holding a tile it may play and one it may not."""
    from engine import player_view

    seat = match.to_move
    ends = layout_of(match).ends
    if seat is None or len(ends) < 4 or len({e.numbers for e in ends}) < 3:
        return False
    view = player_view(match, seat)
    return 0 < len(view.playable()) < len(view.hand)


def after_cut(match: Match) -> bool:
    layout = layout_of(match)
    return bool(layout.off) and sum(e.tiles for e in layout.ends) >= 3


def ribbon_ahead(match: Match) -> bool:
    """Kolbasa: one ribbon a tile ahead of the other, both laid."""
    tiles = [e.tiles for e in layout_of(match).ends]
    return len(set(tiles)) == 2 and min(tiles) >= 2


def two_numbers_and_only_matador(match: Match) -> bool:
    ends = layout_of(match).ends
    return any(len(e.numbers) == 2 for e in ends) and any(
        e.only_matadors for e in ends)


def two_numbers(match: Match) -> bool:
    return any(len(e.numbers) == 2 for e in layout_of(match).ends)


def in_debt(match: Match) -> bool:
    return min(table_view(match).scored) < 0 and two_numbers(match)


def double_header(match: Match) -> bool:
    return header_kind(table_view(match)) is ScoreReason.DOUBLE_HEADER \
        and len(layout_of(match).line) >= 4


def triple_header(match: Match) -> bool:
    return header_kind(table_view(match)) is ScoreReason.TRIPLE_HEADER \
        and len(layout_of(match).line) >= 4


# (game, seats, what it must show, seed, theme)
TABLES: tuple[tuple[str, int, Wanted, int, str], ...] = (
    ("muggins", 2, full_cross, 2, "classic"),
    ("muggins", 3, full_cross, 3, "dark"),
    ("muggins", 4, full_cross, 1, "classic"),
    ("kolbasa", 2, ribbon_ahead, 1, "classic"),
    ("kolbasa", 3, after_cut, 2, "dark"),
    ("kolbasa", 4, after_cut, 1, "classic"),
    ("matador", 2, two_numbers_and_only_matador, 3, "dark"),
    ("matador", 3, two_numbers_and_only_matador, 1, "classic"),
    ("matador", 4, two_numbers_and_only_matador, 1, "dark"),
    ("six-matador", 2, in_debt, 2, "classic"),
    ("six-matador", 3, in_debt, 1, "dark"),
    ("six-matador", 4, in_debt, 1, "classic"),
    ("french", 2, two_numbers, 1, "dark"),
    ("french", 3, two_numbers, 1, "classic"),
    ("french", 4, two_numbers, 1, "dark"),
    ("french", 5, two_numbers, 1, "classic"),
    ("bergen", 2, double_header, 1, "classic"),
    ("bergen", 3, triple_header, 2, "dark"),
    ("bergen", 4, triple_header, 2, "classic"),
)


def finding(find: Callable[..., Match | None], game: str, seats: int, wanted: Wanted,
            seed: int) -> Match:
    match = find(game, seats, wanted, seeds=(seed,))
    if match is None:
        raise AssertionError(f"{game} at {seats} seats, seed {seed}: no {wanted.__name__}")
    return match


def random_hand(match: Match, rng: random.Random) -> Iterator[tuple[int, Action]]:
    """Plays the current hand to its end with random legal moves, yielding each as played."""
    while match.hand.result is None:
        legal = match.legal_actions()
        seat = match.to_move
        assert seat is not None
        action = legal[rng.randrange(len(legal))]
        match.apply(seat, action)
        yield seat, action


def most_tiles(game: str, seats: int, seed: int, measure: Callable[[LayoutView], int]) -> Match:
    """The position of one seeded hand where ``measure`` of the layout is largest."""
    match = Match(game, seats, {"target": 500})
    rng = random.Random(seed)
    match.deal_hand(rng)
    best, best_moves, moves = -1, 0, []
    for move in random_hand(match, rng):
        moves.append(move)
        if measure(layout_of(match)) > best:
            best, best_moves = measure(layout_of(match)), len(moves)
    replayed = Match(game, seats, {"target": 500})
    replayed.deal_hand(random.Random(seed))
    for seat, action in moves[:best_moves]:
        replayed.apply(seat, action)
    return replayed


def longest_cross(layout: LayoutView) -> int:
    return len(layout.line) + len(layout.up) + len(layout.down)


def line_length(layout: LayoutView) -> int:
    return len(layout.line)


@cache
def long_tables() -> tuple[TableView, TableView]:
    """The benchmark's Muggins cross and long Kolbasa: the most tiles a seeded hand laid."""
    cross = max((most_tiles("muggins", 2, seed, longest_cross) for seed in range(1, 13)),
                key=lambda m: longest_cross(layout_of(m)))
    ribbons = max((most_tiles("kolbasa", 2, seed, line_length) for seed in range(1, 13)),
                  key=lambda m: line_length(layout_of(m)))
    return table_view(cross), table_view(ribbons)


def finished(game: str, seats: int, seed: int, target: int) -> Match:
    """A whole match played at random to a low target."""
    rng = random.Random(seed)
    match = Match(game, seats, {"target": target})
    while not match.over:
        match.deal_hand(rng)
        for _ in random_hand(match, rng):
            pass
    return match


def scoreboard_with_hands(rows: tuple[ScoreboardRow, ...]) -> tuple[ScoreboardRow, ...]:
    """The sample board with hands won and points, and two ties (ranked by rating)."""
    ratings = (1412, 1288, 1288, 1104, 1001, 1001, 912, 640)
    hands = (41, 35, 30, 52, 9, 33, 2, 120)
    points = (1840, 1502, 1377, 2210, 380, 1405, 96, 5120)
    places = shared_places(ratings)
    return tuple(
        ScoreboardRow(place, row.name, rating, row.played, row.won, row.win_rate, row.streak,
                      hand, point)
        for row, place, rating, hand, point in zip(rows, places, ratings, hands, points,
                                                   strict=True)
    )


def drawn_hand(draws: int) -> PlayerView:
    """Muggins for two, a deliberate deal: the leader holds every six and leads 6-6, so the
    other seat, holding none, draws ``draws`` tiles (up to the whole stock, 14) onto its 7
    and holds 7 + ``draws``; its view, still to move."""
    sixes = tuple(Tile(n, 6) for n in range(7))
    rest = tuple(tile for tile in full_set(6) if 6 not in (tile.low, tile.high))
    match = Match("muggins", 2)
    match.start_hand(Deal((tuple(reversed(sixes)), rest[:7]), (), 0, None, rest[7:]))
    match.apply(0, Play(Tile(6, 6)))
    for _ in range(draws):
        match.apply(1, DRAW)
    return player_view(match, 1)
