"""The hard level in the games on the general board: what it sees that normal does not, how
it weighs the deals it imagines, and a budget of counted work that makes every decision
reproducible."""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from stock_kit import sdeal, splay, sstarted

import engine
from engine import VARIANTS, Match, Tile, player_view
from engine.actions import Play
from engine.ai import CountingPlayer, Work, player
from engine.ai import any_layout as search_module
from engine.ai.any_layout import log_likelihood, searched_worlds
from engine.ai.board_worlds import board_of, imagine, read_history
from engine.ai.simulation import BoardHand
from engine.events import PointsScored
from engine.tiles import End
from engine.variants import Variant, variant
from engine.views import PlayerView

BOARD_GAMES = [
    name for name, g in VARIANTS.items() if g.has_stock
]


def mid_hand_views(game: str, seed: int) -> Iterator[PlayerView]:
    """Views of seats with three or more legal moves, in hands played by normal players."""
    rng = random.Random(seed)
    normal = player("normal")
    for _ in range(4):
        match = Match(game, 4)
        match.deal_hand(rng)
        while not match.hand.over:
            seat = match.to_move
            assert seat is not None
            view = player_view(match, seat)
            if len(view.legal) >= 3 and view.table.history:
                yield view
            match.apply(seat, normal.choose(view, rng))


def test_hard_leads_a_muggins_tile_that_scores_where_normal_leads_the_heaviest() -> None:
    # The lead counts in Muggins: 6-4 alone makes 10. Normal judges a lead by its weight
    # only and leads 6-6 (12, no score); hard plays the lead out and takes the 10. (Only the
    # seat's own tiles are in its view, so the other hands do not change its decision.)
    match = sstarted("muggins", sdeal("6-6 6-4 1-2 0-1 1-3", "0-0 0-2 0-3 1-1 2-3",
                                      "2-2 2-4 3-3 3-4 4-4", "0-4 1-4 0-5 1-5 2-5", lot=0))
    view = player_view(match, 0)
    for seed in range(4):
        assert player("normal").choose(view, random.Random(seed)).tile == Tile(6, 6)  # type: ignore[union-attr]
        chosen = player("hard").choose(view, random.Random(seed))
        assert isinstance(chosen, Play) and chosen.tile == Tile(4, 6)
    events = match.apply(0, Play(Tile(4, 6)))
    assert [e.points for e in events if isinstance(e, PointsScored)] == [10]


def matador_to_keep() -> PlayerView:
    """Matador, 2 players: seat 0 may lay 1-4 on the 3 or the matador 6-1 crosswise on
    either end. A matador fits any end and is always laid before a hand ends blocked, so it
    never counts against its holder; laid now it is a lay wasted that would have saved a
    draw later. Normal lays the heavier 6-1."""
    match = sstarted("matador", sdeal("3-3 6-1 1-4 0-5 5-5 6-6", "4-5 0-1 0-2 2-3 2-6 4-4"))
    splay(match, "0 3-3", "1 4-5 right")
    return player_view(match, 0)


def test_hard_keeps_its_matador_in_matador_where_normal_lays_it() -> None:
    view = matador_to_keep()
    keep = Play(Tile(1, 4), End.LEFT, cross=False)
    for seed in range(4):
        assert player("normal").choose(view, random.Random(seed)).tile == Tile(1, 6)  # type: ignore[union-attr]
        assert player("hard").choose(view, random.Random(seed)) == keep


def test_in_its_own_playouts_hard_lays_a_matador_only_when_nothing_else_fits() -> None:
    view = matador_to_keep()
    game = variant("matador")
    kept = search_module.kept_tiles(game, False)
    assert kept == game.matador_mask
    # Not where laying a matador scores (Matador's option, Six-matador), nor in a game whose
    # hand ends when a hand empties (French has matadors too).
    assert search_module.kept_tiles(game, True) == 0
    assert search_module.kept_tiles(variant("six-matador"), True) == 0  # it scores in play
    assert search_module.kept_tiles(variant("french"), False) == 0
    world = imagine(view, board_of(view), random.Random(3))
    played = world.fork()
    search_module.playout(game, played, random.Random(1), Work(10**6), False, 0, kept)
    replay = world.fork()
    matadors = 0
    for seat, action in played.moves[len(world.moves):]:
        if seat == 0 and isinstance(action, Play) and kept & action.tile.bit:
            matadors += 1
            others = [a for a in replay.legal_actions() if isinstance(a, Play)
                      and not kept & a.tile.bit]
            assert not others, (action, others)
        replay.apply(seat, action)
    assert matadors  # laid in the end, each when nothing else fitted
    greedy = world.fork()  # without keeping, seat 0 lays it at once, as normal does
    search_module.playout(game, greedy, random.Random(1), Work(10**6), False)
    first = greedy.moves[len(world.moves)]
    assert isinstance(first.action, Play) and first.action.tile == Tile(1, 6)


def matador_light_lay() -> tuple[Match, PlayerView]:
    """Matador, 2 players: seat 1 answers the lead 3-3 with 1-4 although it also holds
    4-6, which fitted too and weighs more; seat 0 watches."""
    match = sstarted("matador", sdeal("3-3 0-0 0-1 0-2 1-1 2-2", "1-4 4-6 0-3 1-3 2-3 3-5"))
    splay(match, "0 3-3", "1 1-4 right")
    return match, player_view(match, 0)


def test_a_light_lay_makes_deals_where_the_layer_held_a_heavier_fitting_tile_less_likely() -> None:
    match, view = matador_light_lay()
    game = variant("matador")
    known = read_history(view, game, imagine(view, board_of(view), random.Random(0)))
    assert [c.seat for c in known.choices] == [1]
    truth = match.hand
    assert isinstance(truth, BoardHand)
    swapped = truth.fork()  # 4-6 (fitted 3) traded for 5-5 (did not fit) from the stock
    assert Tile(5, 5) in truth.stock
    swapped.masks[1] ^= Tile(4, 6).bit | Tile(5, 5).bit
    held_heavy = log_likelihood(known, truth, 2.0, 0.2)
    held_light = log_likelihood(known, swapped, 2.0, 0.2)
    assert held_light > held_heavy


def test_hard_imagines_the_sensible_layer_more_often_than_chance() -> None:
    """Of the deals hard searches after that lay, fewer give seat 1 the 4-6 than a uniform
    draw of the consistent deals does (counted over many deals, the margin is wide)."""
    _, view = matador_light_lay()
    game = variant("matador")
    rng = random.Random(4)
    board = board_of(view)
    known = read_history(view, game, imagine(view, board, rng))
    weighted = searched_worlds(view, known, rng, CountingPlayer(pool=400), limit=400)
    heavy = Tile(4, 6).bit
    searched = sum(bool(next(weighted).masks[1] & heavy) for _ in range(400))
    uniform = sum(bool(imagine(view, board, rng, known).masks[1] & heavy) for _ in range(400))
    assert searched < 0.7 * uniform


@pytest.mark.parametrize("game", BOARD_GAMES)
def test_hard_decides_the_same_for_the_same_view_and_seed(game: str) -> None:
    hard = player("hard")
    checked = 0
    for view in mid_hand_views(game, 17):
        first = hard.choose(view, random.Random(5))
        assert hard.choose(view, random.Random(5)) == first
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_the_stock_search_stops_at_the_first_deal_after_its_budget_of_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    done_after: list[int] = []
    real = search_module.playout

    def counted(
        game: Variant, hand: BoardHand, rng: random.Random, work: Work, scoring: bool,
        keeper: int = -1, kept: int = 0,
    ) -> object:
        result = real(game, hand, rng, work, scoring, keeper, kept)
        done_after.append(work.done)
        return result

    monkeypatch.setattr(search_module, "playout", counted)
    view = next(mid_hand_views("matador", 3))
    budget = 700
    CountingPlayer(steps=budget, worlds=10**6).choose(view, random.Random(1))
    game = variant("matador")
    scratch = imagine(view, board_of(view), random.Random(0))
    moves = search_module.distinct_moves(game, scratch, view.seat, view.legal)
    per_world = len(search_module.keeping(view.legal, moves, search_module.kept_tiles(game, False)))
    assert done_after[-1] >= budget  # it spent the budget...
    before_last_world = done_after[-1 - min(per_world, len(done_after) - 1)]
    assert before_last_world < budget  # ...and stopped after the deal that spent it


def test_a_deadline_from_outside_is_the_only_clock_and_is_asked_once_a_deal() -> None:
    view = next(mid_hand_views("bergen", 2))
    asked: list[int] = []

    def deadline() -> bool:
        asked.append(1)
        return len(asked) >= 3

    CountingPlayer(steps=10**9, worlds=10**6, deadline=deadline).choose(view, random.Random(1))
    assert len(asked) == 3
    assert CountingPlayer().deadline is None


def test_the_engine_reads_no_clock() -> None:
    """Decisions are reproducible: nothing in the engine imports a clock module."""
    clocks = {"time", "datetime"}
    root = Path(engine.__file__).parent
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                names = {(node.module or "").split(".")[0]}
            else:
                continue
            assert not names & clocks, path


@pytest.mark.parametrize(("steps", "worlds", "searched"), [(1, 40, 1), (10**9, 7, 7)])
def test_the_first_games_budget_counts_moves_and_deals_too(
    monkeypatch: pytest.MonkeyPatch, steps: int, worlds: int, searched: int
) -> None:
    """Pair, gaple and gaple-dead: a budget of one move stops after the first deal of 40;
    an ample one searches the number of deals asked for."""
    from engine.ai import plain_line as line_search

    built: list[object] = []
    real = line_search.build_world  # type: ignore[attr-defined]

    def counted(*args: object) -> object:
        world = real(*args)  # type: ignore[arg-type]
        if world is not None:
            built.append(world)
        return world

    monkeypatch.setattr(line_search, "build_world", counted)
    match = Match("gaple", 4)
    match.deal_hand(random.Random(8))
    normal = player("normal")
    while len(player_view(match, match.to_move).legal) < 2 or len(match.hand.moves) < 5:  # type: ignore[arg-type]
        seat = match.to_move
        assert seat is not None
        match.apply(seat, normal.choose(player_view(match, seat), random.Random(1)))
    view = player_view(match, match.to_move)  # type: ignore[arg-type]
    CountingPlayer(steps=steps, worlds=worlds).choose(view, random.Random(2))
    assert len(built) == searched
