"""Reproducible tables for the golden tests, the example pictures and the benchmark.

Real positions come from seeded matches played through the engine; lines longer than a deal
allows (55 or 91 tiles) are grafted onto a real view from a walk through the double-12 set.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cache
from itertools import pairwise

from engine import (
    ActionKind,
    End,
    LaidTile,
    LayoutView,
    Match,
    OpenEnd,
    Placed,
    PlayerView,
    PublicMove,
    TableView,
    Tile,
    player_view,
    table_view,
)
from goldens import stock_samples as stock
from renderers.labels import TableLabels
from renderers.scoreboard import ScoreboardRow

# The renderers keep no list of games: the bot passes its catalogues' titles, the samples these.
GAME_TITLES = (
    ("gaple", "Gaple"),
    ("gaple-dead", "Gaple with dead tiles"),
    ("pair", "Pair dominoes"),
    *stock.GAME_TITLES,
)
LABELS = TableLabels(games=GAME_TITLES)


def labels_for(game: str) -> TableLabels:
    """The samples' labels for one game's table, as the bot fills them from its catalogues."""
    if game in stock.HONOURS:
        return replace(LABELS, only_matador=stock.HONOURS[game])
    return LABELS

NAMES = {
    4: ("Þórdís Ægisdóttir", "Дмитрий", "Budi 🎲 Santoso", "Ngọc Ánh"),
    5: ("Þórdís", "Дмитрий Александрович Соколов-Микитов", "Budi", "Siti 👩‍👩‍👧", "Ólafur"),
}


def names_for(seats: int) -> tuple[str, ...]:
    return NAMES.get(seats, tuple(f"Player {seat + 1}" for seat in range(seats)))


def played(game: str, seats: int, moves: int, seed: int = 1,
           options: dict[str, object] | None = None, *, until_over: bool = False) -> Match:
    """A match whose first hand has had ``moves`` random legal moves (or is finished)."""
    rng = random.Random(seed)
    match = Match(game, seats, {"target": 500, **(options or {})})
    match.deal_hand(rng)
    done = 0
    while match.hand.result is None and (until_over or done < moves):
        legal = match.legal_actions()
        seat = match.to_move
        assert seat is not None
        match.apply(seat, legal[rng.randrange(len(legal))])
        done += 1
    return match


def hand_views(game: str, seats: int, seed: int) -> list[TableView]:
    """The table after each move of one hand of random legal moves, from its deal."""
    rng = random.Random(seed)
    match = Match(game, seats)
    match.deal_hand(rng)
    views = [table_view(match)]
    while match.hand.result is None:
        legal = match.legal_actions()
        seat = match.to_move
        assert seat is not None
        match.apply(seat, legal[rng.randrange(len(legal))])
        views.append(table_view(match))
    return views


@cache
def walk(highest: int) -> tuple[Placed, ...]:
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
    return tuple(Placed(Tile(a, b), a, b) for a, b in pairwise(walk))


def with_line(view: TableView, tiles: int) -> TableView:
    """``view`` with its line replaced by the first ``tiles`` tiles of a whole-set walk
    (double-6 up to 28 tiles, double-12 beyond), played as a hand is: a lead near the middle,
    then the two ends in turn, the last tile at the right end."""
    highest = 6 if tiles <= 28 else 12
    line = walk(highest)[:tiles]
    if not line:
        return replace(view, layout=plain_line((), 0), history=())
    lead = (tiles - 1) // 2
    order: list[tuple[Placed, End | None]] = [(line[lead], None)]
    for step in range(tiles - 1 - lead):
        if step < lead:
            order.append((line[lead - 1 - step], End.LEFT))
        order.append((line[lead + 1 + step], End.RIGHT))
    history = tuple(
        PublicMove(index % view.seats, ActionKind.PLAY, placed.tile, end, None)
        for index, (placed, end) in enumerate(order)
    )
    return replace(view, layout=plain_line(line, lead), history=history, set=highest)


def plain_line(line: tuple[Placed, ...], lead: int) -> LayoutView:
    """The layout of a plain line of ``line``'s tiles led by ``line[lead]``."""
    ends: tuple[OpenEnd, ...] = ()
    if line:
        ends = (OpenEnd(End.LEFT, (line[0].left,), True, lead),
                OpenEnd(End.RIGHT, (line[-1].right,), True, len(line) - 1 - lead))
    laid = tuple(LaidTile(p.tile, p.left, p.right, False) for p in line)
    count = sum(p.tile.pips for p in line) if len(line) == 1 else (
        line[0].left + line[-1].right if line else 0)
    return LayoutView("line", laid, lead if line else None, None, (), (), ends, (), count)


@dataclass(frozen=True, slots=True)
class Sample:
    """One picture: what to draw it from and how."""

    name: str
    kind: str  # "table", "result", "hand", "scoreboard" or "match-end"
    theme: str
    table: TableView | None  # None for a scoreboard
    names: tuple[str, ...]
    player: PlayerView | None = None
    board: tuple[ScoreboardRow, ...] = ()
    ratings: tuple[int | None, ...] = ()  # a match end's rating changes, per seat


SCOREBOARD_TITLE = ("Scoreboard: Pair dominoes", "since 2024-05-01 · 31 matches")


def scoreboard_rows() -> tuple[ScoreboardRow, ...]:
    """Eight players: every script, long and emoji-only names, streaks of every kind."""
    names = (*NAMES[5][:2], *NAMES[4], "🎲", "Ólafur")
    figures = ((1412, 14, 11, 3), (1288, 12, 7, -1), (1190, 9, 5, 2), (1104, 20, 9, 0),
               (1001, 3, 1, 1), (987, 11, 4, -4), (912, 1, 0, -1), (640, 100, 12, -12))
    return tuple(
        ScoreboardRow(place, name, rating, played, won, won / played, streak)
        for place, (name, (rating, played, won, streak)) in enumerate(
            zip(names, figures, strict=True), start=1
        )
    )


def _table(name: str, theme: str, view: TableView) -> Sample:
    return Sample(name, "table", theme, view, names_for(view.seats))


def first_position(game: str, seats: int, wanted: Callable[[Match], bool], *,
                   seeds: Iterable[int] = (1,), options: dict[str, object] | None = None,
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


def just_knocked(match: Match) -> bool:
    move = table_view(match).last_move
    return move is not None and move.kind is ActionKind.KNOCK


def has_choice(match: Match) -> bool:
    """The seat to move holds tiles it may play and tiles it may not, on a started line."""
    seat = match.to_move
    if seat is None or match.hand.ends is None:
        return False
    view = player_view(match, seat)
    return 0 < len(view.playable()) < len(view.hand)


def _turn(match: Match | None) -> PlayerView:
    assert match is not None and match.to_move is not None
    return player_view(match, match.to_move)


@cache
def samples() -> tuple[Sample, ...]:
    """Every golden picture: each game, each theme, line lengths from 0 to 91, every script,
    and the scoreboard."""
    pair_open = table_view(played("pair", 4, 1, seed=3))
    gaple_dead5 = played("gaple-dead", 5, 9, seed=4)
    dead9 = table_view(played("gaple-dead", 4, 14, seed=7, options={"set": 9}))
    result_pair = played("pair", 4, 0, seed=5, until_over=True)
    result_dead = played("gaple-dead", 5, 0, seed=8, until_over=True)
    hand_pair = _turn(first_position("pair", 4, has_choice, seeds=(11,)))
    hand_dead = _turn(first_position("gaple-dead", 4, has_choice, seeds=(12,), options={"set": 12}))
    knocked = first_position("gaple", 4, just_knocked, seeds=(6,))
    assert knocked is not None
    return (
        _table("table-empty", "classic", table_view(played("gaple-dead", 4, 0, seed=2,
                                                           options={"deal": 7}))),
        _table("table-pair-opening", "classic", pair_open),
        _table("table-gaple-knock", "dark", table_view(knocked)),
        _table("table-gaple-dead-5", "classic", table_view(gaple_dead5)),
        _table("table-double-9", "dark", dead9),
        _table("table-pair-28", "classic", with_line(pair_open, 28)),
        _table("table-pair-55", "dark", with_line(pair_open, 55)),
        _table("table-pair-91", "classic", with_line(pair_open, 91)),
        _table("table-dead-91", "dark", with_line(dead9, 91)),
        Sample("result-pair", "result", "classic", table_view(result_pair), names_for(4)),
        Sample("result-gaple-dead-5", "result", "dark", table_view(result_dead), names_for(5)),
        Sample("hand-pair", "hand", "classic", hand_pair.table, names_for(4), hand_pair),
        Sample("hand-gaple-dead-12", "hand", "dark", hand_dead.table, names_for(4), hand_dead),
        Sample("scoreboard", "scoreboard", "classic", None, (), board=scoreboard_rows()),
        Sample("scoreboard-empty", "scoreboard", "dark", None, ()),
        *stock_game_samples(),
    )


def stock_game_samples() -> tuple[Sample, ...]:
    """The games of seed 002 at every seat count, a hand's result with a debt, the ends of
    matches (pairs as pairs, penalty points, rating changes) and the scoreboard with hands."""
    tables = tuple(
        _table(f"table-{game}-{seats}", theme,
               table_view(stock.finding(first_position, game, seats, wanted, seed)))
        for game, seats, wanted, seed, theme in stock.TABLES
    )
    cross, ribbons = stock.long_tables()
    six = table_view(played("six-matador", 3, 0, seed=1, until_over=True))
    pair_end = table_view(stock.finished("pair", 4, 2, 60))
    french_end = table_view(stock.finished("french", 5, 3, 40))
    muggins_end = table_view(stock.finished("muggins", 2, 4, 40))
    six_end = table_view(stock.finished("six-matador", 3, 5, 40))  # a debt, settled
    four_ends = _turn(first_position("muggins", 3, stock.four_ends_and_choice, seeds=(1,)))
    long_hand = stock.drawn_hand(8)  # 15 tiles: two rows
    return (
        *tables,
        Sample("hand-muggins-3", "hand", "classic", four_ends.table, names_for(3), four_ends),
        Sample("hand-muggins-15", "hand", "dark", long_hand.table, names_for(2), long_hand),
        _table("table-muggins-long", "dark", cross),
        _table("table-kolbasa-long", "classic", ribbons),
        Sample("result-six-matador-3", "result", "dark", six, names_for(3)),
        Sample("match-end-pair", "match-end", "classic", pair_end, names_for(4),
               ratings=(12, -8, 9, -13)),
        Sample("match-end-french-5", "match-end", "dark", french_end, names_for(5),
               ratings=(-4, 15, None, 0, -11)),
        Sample("match-end-muggins-2", "match-end", "classic", muggins_end, names_for(2)),
        Sample("match-end-six-matador-3", "match-end", "dark", six_end, names_for(3),
               ratings=(-9, 14, None)),
        Sample("scoreboard-hands", "scoreboard", "dark", None, (),
               board=stock.scoreboard_with_hands(scoreboard_rows())),
    )


def render(sample: Sample) -> bytes:
    """The sample's picture as PNG bytes, through the public functions the bot calls."""
    from renderers import (
        render_hand,
        render_hand_result,
        render_match_end,
        render_scoreboard,
        render_table,
    )

    if sample.kind == "hand":
        assert sample.player is not None
        return render_hand(sample.player, theme=sample.theme, labels=LABELS)
    if sample.kind == "scoreboard":
        heading, details = SCOREBOARD_TITLE
        return render_scoreboard(sample.board, title=heading, subtitle=details,
                                 theme=sample.theme)
    assert sample.table is not None
    if sample.kind == "match-end":
        return render_match_end(sample.table, sample.names, rating_changes=sample.ratings,
                                theme=sample.theme, labels=labels_for(sample.table.game))
    if sample.kind == "result":
        return render_hand_result(sample.table, sample.names, theme=sample.theme,
                                  labels=LABELS)
    return render_table(sample.table, sample.names, theme=sample.theme,
                        labels=labels_for(sample.table.game))
