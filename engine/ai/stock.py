"""Computer players for the games of seed 002 (a stock, many ends, points during play).

Normal judges each lay by what it scores now, what it unloads and what it leaves the next
seat; hard imagines the hidden tiles (the other hands and the stock's order, consistent with
the counts the view shows and with every empty-handed draw and knock it saw), tries each
legal move in every imagined deal and finishes the hand with normal players, valuing the
result as the match counts it (points during play included, penalty games reversed).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from ..actions import Action, ActionKind, Cut, Play
from ..board import DOWN, LEFT, RIGHT, UP, Board, Piece
from ..deal import Deal
from ..events import HandEnded
from ..table import StockHand
from ..tiles import End, Tile, full_set
from ..variants import StockGame, variant
from ..variants.base import Opening
from ..views import LaidTile, PlayerView

WIN_BONUS = 10.0
ALL_TILES = full_set(6)


def _piece(laid: LaidTile, reverse: bool = False) -> Piece:
    if laid.cross:
        return Piece(laid.tile, laid.tile.low, laid.tile.high, True)
    return Piece(laid.tile, laid.second, laid.first, False) if reverse else Piece(
        laid.tile, laid.first, laid.second, False
    )


def board_of(view: PlayerView) -> Board:
    """The table's layout, rebuilt from what the view shows of it."""
    layout = view.table.layout
    assert layout is not None
    board = Board()
    if layout.center is None:
        return board
    c = layout.center
    board.center = _piece(layout.line[c])
    board.arms[LEFT] = [_piece(t, True) for t in reversed(layout.line[:c])]
    board.arms[RIGHT] = [_piece(t) for t in layout.line[c + 1 :]]
    if layout.spinner is not None:
        s = layout.spinner
        spot: tuple[End | None, int] = (
            (None, 0) if s == c else (LEFT, c - 1 - s) if s < c else (RIGHT, s - c - 1)
        )
        board.open_spinner(*spot)
        board.arms[UP] = [_piece(t) for t in layout.up]
        board.arms[DOWN] = [_piece(t) for t in layout.down]
    board.off = list(layout.off)
    return board


def _draws_this_turn(view: PlayerView) -> int:
    count = 0
    for move in reversed(view.table.history):
        if move.seat != view.seat or move.kind is not ActionKind.DRAW:
            break
        count += 1
    return count


@dataclass(slots=True)
class Known:
    """What the table's history says about the hidden tiles: per seat, tiles known to be in
    its hand (a ribbon it took), and limits ``(mask, n)``: at most ``n`` of its hidden tiles
    lie in ``mask`` (when it drew or knocked nothing in ``mask`` fitted; only tiles drawn
    since, less those it laid, can be there)."""

    held: list[set[Tile]]
    limits: list[list[list[int]]]

    def barred(self, seat: int) -> int:
        """Tiles the seat cannot hold at all (limits of none)."""
        mask = 0
        for m, n in self.limits[seat]:
            if not n:
                mask |= m
        return mask

    def allows(self, seat: int, tiles: tuple[Tile, ...]) -> bool:
        mask = sum(t.bit for t in tiles)
        return all((mask & m).bit_count() <= n for m, n in self.limits[seat])


def read_history(view: PlayerView, game: StockGame) -> Known:
    """Replay the public moves of the hand on a board of one's own to learn from them."""
    seats = view.table.seats
    known = Known([set() for _ in range(seats)], [[] for _ in range(seats)])
    board = Board()
    for move in view.table.history:
        seat, tile, kind = move.seat, move.tile, move.kind
        if kind is ActionKind.PLAY and tile is not None:
            if tile in known.held[seat]:
                known.held[seat].discard(tile)
            else:  # a fitting tile it laid was one it drew since it was stuck
                for limit in known.limits[seat]:
                    if limit[0] & tile.bit and limit[1]:
                        limit[1] -= 1
            if board.center is None:
                half = move.left_half if move.left_half is not None else tile.low
                board.lead(tile, half, game.lead_cross(tile))
                if game.layout == "spinner" and tile.is_double:
                    board.open_spinner(None, 0)
                continue
            end = move.end or LEFT
            ways = [p for p in game.ways(board, end, tile) if p.cross is move.cross]
            if not ways:
                break  # a history this replay cannot follow: stop learning, never guess
            index = board.attach(end, ways[0])
            if game.layout == "spinner" and tile.is_double and board.spinner is None:
                board.open_spinner(end, index)
        elif kind is ActionKind.CUT and tile is not None and move.end is not None:
            taker = (seat - 1) % seats
            given = {p.tile for p in board.arms[move.end]}
            known.held[taker] |= given
            known.held[seat].discard(tile)
            other = RIGHT if move.end is LEFT else LEFT
            assert board.center is not None
            board.off.extend([board.center.tile, *(p.tile for p in board.arms[other])])
            board.center = Piece(tile, board.opens(LEFT)[0], board.opens(RIGHT)[0], False)
            board.arms = {LEFT: [], RIGHT: []}
        elif kind in (ActionKind.DRAW, ActionKind.KNOCK):
            known.limits[seat].append([game.lay_mask(board), 0])
            if kind is ActionKind.DRAW:
                for limit in known.limits[seat]:
                    limit[1] += 1
    known.held[view.seat] = set()
    return known


def unseen_tiles(view: PlayerView, board: Board) -> list[Tile]:
    """Tiles the seat has not seen: in other hands or in the stock."""
    seen = {*view.hand, *board.tiles(), *board.off}
    return [t for t in ALL_TILES if t not in seen]


TRIES = 40  # deals drawn per world until one fits what the history says


def imagine(
    view: PlayerView, board: Board, rng: random.Random, known: Known | None = None
) -> StockHand:
    """One position consistent with the view: the unseen tiles dealt at random to the other
    hands (their counts as shown, ribbons they took kept, and no tile that would have let a
    drawer or knocker lay) and the stock (its size as shown, in a random order)."""
    table = view.table
    game = variant(table.game)
    assert isinstance(game, StockGame)
    if known is None:
        known = Known([set() for _ in table.players], [[] for _ in table.players])
    taken = set().union(*known.held)
    pool = [t for t in unseen_tiles(view, board) if t not in taken]
    others = [seat for seat in range(len(table.players)) if seat != view.seat]
    barred = {seat: known.barred(seat) for seat in others}
    others.sort(key=lambda seat: -barred[seat].bit_count())  # the most constrained first
    dealt: dict[int, tuple[Tile, ...]] = {}
    rest: list[Tile] = []
    for _ in range(TRIES):
        rest = pool.copy()
        rng.shuffle(rest)
        fits = True
        for seat in others:
            count = max(0, table.players[seat].tile_count - len(known.held[seat]))
            free = [t for t in rest if not barred[seat] & t.bit]
            chosen = free[:count] if len(free) >= count else free + [
                t for t in rest if barred[seat] & t.bit
            ][: count - len(free)]
            picked = set(chosen)
            rest = [t for t in rest if t not in picked]
            dealt[seat] = tuple(chosen)
            fits = fits and known.allows(seat, dealt[seat])
        if fits:
            break
    hands = [
        view.hand if seat == view.seat else dealt[seat] + tuple(known.held[seat])
        for seat in range(len(table.players))
    ]
    hidden, at = rest, 0
    stock = tuple(hidden[at:])
    must = tuple(a.tile for a in view.legal if type(a) is Play) if board.center is None else ()
    hand = StockHand(game, table.options, Deal(tuple(hands), (), 0, None, stock),
                     Opening(view.seat, must), table.hand_number)
    hand.board = board.copy()
    hand.scored = list(table.scored)
    hand.draws = _draws_this_turn(view)
    hand.to_move = view.seat
    return hand


def lay_gain(game: StockGame, hand: StockHand, seat: int, action: Action) -> float:
    """Normal's judgement of one move: points scored now, pips unloaded, and for a cut the
    pips handed to the previous seat."""
    if type(action) is Cut:
        given = hand.board.arms[action.give]
        return 5.0 + sum(p.tile.pips for p in given)
    if type(action) is not Play:
        return 0.0
    gained = 0 if action.end is None else hand.gain(action)
    tile = action.tile
    unload = tile.pips / 2 + (2.0 if tile.is_double else 0.0)
    if game.lowest_total_wins:
        unload *= 1.5
    return 3.0 * gained + unload


def normal_choice(view: PlayerView, rng: random.Random) -> Action:
    legal = view.legal
    if len(legal) == 1:
        return legal[0]
    game = variant(view.table.game)
    assert isinstance(game, StockGame)
    hand = imagine(view, board_of(view), rng)
    scored = [(lay_gain(game, hand, view.seat, a), rng.random(), i) for i, a in enumerate(legal)]
    return legal[max(scored)[2]]


def hand_value(game: StockGame, seat: int, result: HandEnded) -> float:
    """How good a finished hand is for ``seat``: its points against the others' average
    (reversed in penalty games), plus a bonus for winning it where wins decide."""
    points = result.points
    others = (sum(points) - points[seat]) / (len(points) - 1)
    value = others - points[seat] if game.lowest_total_wins else points[seat] - others
    if game.points_in_play:
        return value
    return value + (WIN_BONUS if result.winner == seat else 0.0)


def playout(game: StockGame, hand: StockHand, rng: random.Random) -> HandEnded:
    """Finish ``hand`` with every seat on a quick greedy policy: the most points now, then
    the heaviest tile (doubles first), a cut giving away the longer ribbon."""
    while hand.result is None:
        seat = hand.to_move
        assert seat is not None
        legal = hand.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            action = max(legal, key=lambda a: (_quick(hand, a), rng.random()))
        hand.apply(seat, action)
    return hand.result


def _quick(hand: StockHand, action: Action) -> float:
    if type(action) is Play:
        tile = action.tile
        now = 0 if action.end is None else hand.gain(action)
        return 4.0 * now + tile.pips + (3.0 if tile.is_double else 0.0)
    if type(action) is Cut:
        return 20.0 + len(hand.board.arms[action.give])
    return 0.0


@dataclass(frozen=True, slots=True)
class StockSearch:
    """Hard for the games of seed 002: Monte Carlo over imagined deals and stock orders."""

    level: ClassVar[str] = "hard"
    worlds: int = 16  # deals imagined per decision: the iteration budget
    # Matador's choices are closer: it needs more deals to be ahead of normal, and its
    # shorter hands leave the time for them (measured with benchmarks.tournament).
    more: tuple[tuple[str, int], ...] = (("matador", 24),)
    time_cap: float | None = 0.2  # seconds of wall time: a safety net, not the budget
    clock: Callable[[], float] = time.perf_counter

    def choose(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        game = variant(view.table.game)
        assert isinstance(game, StockGame)
        board = board_of(view)
        known = read_history(view, game)
        totals = [0.0] * len(legal)
        started = self.clock()
        for _ in range(dict(self.more).get(game.name, self.worlds)):
            world = imagine(view, board, rng, known)
            seed = rng.getrandbits(32)  # every move meets the same luck in this world
            for i, action in enumerate(legal):
                trial = world.fork()
                trial.apply(view.seat, action)
                result = playout(game, trial, random.Random(seed))
                totals[i] += hand_value(game, view.seat, result)
            if self.time_cap is not None and self.clock() - started > self.time_cap:
                break
        return legal[totals.index(max(totals))]


__all__ = ["StockSearch", "board_of", "imagine", "normal_choice"]
