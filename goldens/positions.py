"""The positions the samples are drawn from, played through the engine from fixed seeds.

Most are found by what their picture must show (a knock, a full cross, a cut, a matador's two
numbers, a debt, a header), so that a sample which no longer shows its point fails loudly here
rather than drifting. Lines longer than a deal allows (55 or 91 tiles) are grafted onto a real
view from a walk through the double-12 set; one long hand is dealt on purpose.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from functools import cache
from itertools import islice, pairwise

from engine import (
    DRAW,
    Action,
    ActionKind,
    Deal,
    End,
    LaidTile,
    LayoutView,
    Match,
    OpenEnd,
    Play,
    PlayerView,
    PublicMove,
    ScoreReason,
    TableView,
    Tile,
    full_set,
    player_view,
    table_view,
)
from renderers.board import header_kind

Wanted = Callable[[Match], bool]


def random_hand(match: Match, rng: random.Random) -> Iterator[tuple[int, Action]]:
    """Plays the current hand to its end with random legal moves, yielding each as played."""
    while match.hand.result is None:
        legal = match.legal_actions()
        seat = match.to_move
        assert seat is not None
        action = legal[rng.randrange(len(legal))]
        match.apply(seat, action)
        yield seat, action


def played(game: str, seats: int, moves: int, seed: int = 1,
           options: dict[str, object] | None = None, *, until_over: bool = False) -> Match:
    """A match whose first hand has had ``moves`` random legal moves (or is finished)."""
    rng = random.Random(seed)
    match = Match(game, seats, {"target": 500, **(options or {})})
    match.deal_hand(rng)
    for _ in islice(random_hand(match, rng), None if until_over else moves):
        pass
    return match


def hand_views(game: str, seats: int, seed: int) -> list[TableView]:
    """The table after each move of one hand of random legal moves, from its deal."""
    rng = random.Random(seed)
    match = Match(game, seats)
    match.deal_hand(rng)
    return [table_view(match)] + [table_view(match) for _ in random_hand(match, rng)]


def finished(game: str, seats: int, seed: int, target: int) -> Match:
    """A whole match played at random to a low target."""
    rng = random.Random(seed)
    match = Match(game, seats, {"target": target})
    while not match.over:
        match.deal_hand(rng)
        for _ in random_hand(match, rng):
            pass
    return match


def first_position(game: str, seats: int, wanted: Wanted, *, seeds: Iterable[int] = (1,),
                   options: dict[str, object] | None = None,
                   most_moves: int = 40) -> Match | None:
    """The first position, trying each seed with 1, 2, ... random moves, where ``wanted``."""
    for seed in seeds:
        for moves in range(1, most_moves):
            match = played(game, seats, moves, seed, options)
            if wanted(match):
                return match
            if match.hand.result is not None:
                break
    return None


def found(game: str, seats: int, wanted: Wanted, seed: int) -> Match:
    """:func:`first_position` from one seed, which must find one."""
    match = first_position(game, seats, wanted, seeds=(seed,))
    if match is None:
        raise AssertionError(f"{game} at {seats} seats, seed {seed}: no {wanted.__name__}")
    return match


def to_move(match: Match | None) -> PlayerView:
    """The view of the seat to move."""
    assert match is not None and match.to_move is not None
    return player_view(match, match.to_move)


def ended(game: str, seats: int, seed: int, *, out: bool) -> PlayerView:
    """A private view kept after the first hand of a seeded match ended: of the seat that
    went out (``out``), or else of the seat after it, still holding tiles."""
    match = played(game, seats, 0, seed=seed, until_over=True)
    result = match.hands[-1].result
    assert result is not None
    gone = result.out_seat if result.out_seat is not None else 0
    return player_view(match, gone if out else (gone + 1) % seats)


def layout_of(match: Match) -> LayoutView:
    return table_view(match).layout


# What a position must show.

def just_knocked(match: Match) -> bool:
    move = table_view(match).last_move
    return move is not None and move.kind is ActionKind.KNOCK


def has_choice(match: Match) -> bool:
    """The seat to move holds tiles it may play and tiles it may not, on a started line."""
    seat = match.to_move
    if seat is None or not layout_of(match).ends:
        return False
    view = player_view(match, seat)
    return 0 < len(view.playable()) < len(view.hand)


def full_cross(match: Match) -> bool:
    """All four arms of the spinner laid, at least six tiles, and a count that scores."""
    layout = layout_of(match)
    return bool(layout.up and layout.down and len(layout.line) >= 6 and layout.count
                and layout.count % 5 == 0)


def four_ends_and_choice(match: Match) -> bool:
    """The spinner's four ends open showing three numbers or more, and the seat to move
    holding a tile it may play and one it may not."""
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
    """One ribbon a tile ahead of the other, both laid."""
    tiles = [e.tiles for e in layout_of(match).ends]
    return len(set(tiles)) == 2 and min(tiles) >= 2


def ribbon_ahead_and_choice(match: Match) -> bool:
    """One ribbon ahead of the other (so one end waits, grey), and the seat to move holding
    a tile it may play and one it may not."""
    return ribbon_ahead(match) and has_choice(match)


def two_numbers(match: Match) -> bool:
    """An end shows two numbers (a crosswise matador)."""
    return any(len(e.numbers) == 2 for e in layout_of(match).ends)


def two_numbers_and_only_matador(match: Match) -> bool:
    return two_numbers(match) and any(e.only_matadors for e in layout_of(match).ends)


def in_debt(match: Match) -> bool:
    return min(table_view(match).scored) < 0 and two_numbers(match)


def double_header(match: Match) -> bool:
    return header_kind(table_view(match)) is ScoreReason.DOUBLE_HEADER \
        and len(layout_of(match).line) >= 4


def triple_header(match: Match) -> bool:
    return header_kind(table_view(match)) is ScoreReason.TRIPLE_HEADER \
        and len(layout_of(match).line) >= 4


# The longest layouts a seeded hand laid.

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


# Lines longer than a deal allows.

@cache
def walk(highest: int) -> tuple[LaidTile, ...]:
    """Every tile of the double-``highest`` set in one line, for 6 and 12: an Euler circuit,
    since every number then has even degree once the doubles count as loops."""
    unused = {n: set(range(highest + 1)) for n in range(highest + 1)}
    stack, walk = [0], []
    while stack:
        here = stack[-1]
        if unused[here]:
            there = min(unused[here])
            unused[here].discard(there)
            unused[there].discard(here)
            stack.append(there)
        else:
            walk.append(stack.pop())
    return tuple(LaidTile(Tile(a, b), a, b, False) for a, b in pairwise(walk))


def with_line(view: TableView, tiles: int) -> TableView:
    """``view`` with its line replaced by the first ``tiles`` tiles of a whole-set walk
    (double-6 up to 28 tiles, double-12 beyond), played as a hand is: a lead near the middle,
    then the two ends in turn, the last tile at the right end."""
    highest = 6 if tiles <= 28 else 12
    line = walk(highest)[:tiles]
    if not line:
        return replace(view, layout=plain_line((), 0), history=())
    lead = (tiles - 1) // 2
    order: list[tuple[LaidTile, End | None]] = [(line[lead], None)]
    for step in range(tiles - 1 - lead):
        if step < lead:
            order.append((line[lead - 1 - step], End.LEFT))
        order.append((line[lead + 1 + step], End.RIGHT))
    history = tuple(
        PublicMove(index % view.seats, ActionKind.PLAY, laid.tile, end, None)
        for index, (laid, end) in enumerate(order)
    )
    return replace(view, layout=plain_line(line, lead), history=history, set=highest)


def plain_line(line: tuple[LaidTile, ...], lead: int) -> LayoutView:
    """The layout of a plain line of ``line``'s tiles led by ``line[lead]``."""
    ends: tuple[OpenEnd, ...] = ()
    if line:
        ends = (OpenEnd(End.LEFT, (line[0].first,), True, lead),
                OpenEnd(End.RIGHT, (line[-1].second,), True, len(line) - 1 - lead))
    count = sum(t.tile.pips for t in line) if len(line) == 1 else (
        line[0].first + line[-1].second if line else 0)
    return LayoutView("line", line, lead if line else None, None, (), (), ends, (), count)
