"""What a seat of a game on the engine's board knows, the deals it imagines, and normal's
judgement of a lay.

The table's history is replayed on a board of one's own: a knock proves the knocker held
nothing that fitted, a draw that it held nothing then (only tiles drawn since, less those it
laid, can fit those ends now), a cut that the previous seat now holds the ribbon it was given,
and every lay is a choice whose likelihood a world can be judged on (:mod:`any_layout`).
An imagined world deals the tiles the seat has not seen to the other hands and the stock (a
tile not seen may be in any hand or in the stock), within those limits. Normal judges each
lay by what it scores now and what it unloads.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..actions import Action, ActionKind, Cut, Play
from ..tiles import End, Tile, full_set
from ..variants import Variant, variant
from ..views import LaidTile, PlayerView
from .simulation import (
    DOWN,
    LEFT,
    RIGHT,
    UP,
    Board,
    BoardHand,
    Deal,
    Opening,
    Piece,
    board_hand,
    mask_of,
    put_on,
)

ALL_TILES = full_set(6)
FULL_MASK = mask_of(ALL_TILES)


def _piece(laid: LaidTile, reverse: bool = False) -> Piece:
    if laid.cross:
        return Piece(laid.tile, laid.tile.low, laid.tile.high, True)
    return Piece(laid.tile, laid.second, laid.first, False) if reverse else Piece(
        laid.tile, laid.first, laid.second, False
    )


def board_of(view: PlayerView) -> Board:
    """The table's layout, rebuilt from what the view shows of it."""
    layout = view.table.layout
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
class LayChoice:
    """A lay another seat chose: ``values`` holds, per tile index that could have been laid
    then, normal's judgement of its best lay, ``chosen`` that of the lay made; ``since``
    the tiles the seat laid from then on (the chosen one included), ``received`` the tiles
    it was given after it (a ribbon); ``drew``: it drew after it, so its hand then is not
    known from its hand now."""

    seat: int
    values: dict[int, float]
    chosen: float
    since: int = 0
    received: int = 0
    drew: bool = False


@dataclass(slots=True)
class Known:
    """What the table's history says about the hidden tiles: per seat, tiles known to be in
    its hand (a ribbon it took), and limits ``(mask, n)``: at most ``n`` of its hidden tiles
    lie in ``mask`` (when it drew or knocked nothing in ``mask`` fitted; only tiles drawn
    since, less those it laid, can be there); and the other seats' lays, as choices."""

    held: list[set[Tile]]
    limits: list[list[list[int]]]
    choices: list[LayChoice] = field(default_factory=list)

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


def read_history(view: PlayerView, game: Variant, scratch: BoardHand | None = None) -> Known:
    """Replay the public moves of the hand on a board of one's own to learn from them; with a
    ``scratch`` hand of the game (any deal), also judge every lay of another seat."""
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
            if scratch is not None and seat != view.seat:
                _judge(known, game, scratch, board, seat, Play(tile, end, None, ways[0].cross))
            _laid(known, seat, tile)
            index = board.attach(end, ways[0])
            if game.layout == "spinner" and tile.is_double and board.spinner is None:
                board.open_spinner(end, index)
        elif kind is ActionKind.CUT and tile is not None and move.end is not None:
            if scratch is not None and seat != view.seat:
                _judge(known, game, scratch, board, seat, Cut(tile, move.end))
            _laid(known, seat, tile)
            taker = (seat - 1) % seats
            given = {p.tile for p in board.arms[move.end]}
            known.held[taker] |= given
            for choice in known.choices:
                if choice.seat == taker:
                    choice.received |= mask_of(list(given))
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
                for choice in known.choices:
                    choice.drew = choice.drew or choice.seat == seat
    known.held[view.seat] = set()
    return known


def _laid(known: Known, seat: int, tile: Tile) -> None:
    for choice in known.choices:
        if choice.seat == seat:
            choice.since |= tile.bit


def _judge(
    known: Known, game: Variant, scratch: BoardHand, board: Board, seat: int, action: Action
) -> None:
    """Record ``seat``'s lay on ``board`` as a choice: normal's value of every lay any tile
    off the board could have made there (the scratch hand is given them all: a scratch is
    only read for its rules, and is spoilt after)."""
    put_on(scratch, board, seat, FULL_MASK & ~mask_of([*board.tiles(), *board.off]))
    values: dict[int, float] = {}
    for option in scratch.plays_of(seat):
        if not isinstance(option, Play | Cut):
            continue
        index = option.tile.index
        worth = lay_gain(game, scratch, seat, option)
        if worth > values.get(index, float("-inf")):
            values[index] = worth
    chosen = lay_gain(game, scratch, seat, action)
    known.choices.append(LayChoice(seat, values, chosen))


def unseen_tiles(view: PlayerView, board: Board) -> list[Tile]:
    """Tiles the seat has not seen: in other hands or in the stock."""
    seen = {*view.hand, *board.tiles(), *board.off}
    return [t for t in ALL_TILES if t not in seen]


TRIES = 40  # deals drawn per world until one fits what the history says


def imagine(
    view: PlayerView, board: Board, rng: random.Random, known: Known | None = None
) -> BoardHand:
    """One position consistent with the view: the unseen tiles dealt at random to the other
    hands (their counts as shown, ribbons they took kept, and no tile that would have let a
    drawer or knocker lay) and the stock (its size as shown, in a random order)."""
    table = view.table
    game = variant(table.game)
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
    return board_hand(game, table.options, Deal(tuple(hands), (), 0, None, stock),
                      Opening(view.seat, must), table.hand_number, board,
                      _scored_by_seat(view), _draws_this_turn(view), view.seat)


def _scored_by_seat(view: PlayerView) -> tuple[int, ...]:
    """Each seat's points of play this hand so far, from the moves as the table saw them
    (the view's totals are per side)."""
    scored = [0] * len(view.table.players)
    for move in view.table.history:
        scored[move.seat] += sum(amount for amount, _ in move.points)
    return tuple(scored)


def lay_gain(
    game: Variant, hand: BoardHand, seat: int, action: Action, scoring: bool = True
) -> float:
    """Normal's judgement of one move: points scored now, pips unloaded, and for a cut the
    pips handed to the previous seat (``scoring``: False where no lay scores, to save
    asking)."""
    if type(action) is Cut:
        given = hand.board.arms[action.give]
        return 5.0 + sum(p.tile.pips for p in given)
    if type(action) is not Play:
        return 0.0
    gained = hand.gain(action) if scoring and action.end is not None else 0
    tile = action.tile
    unload = tile.pips / 2 + (2.0 if tile.is_double else 0.0)
    if game.lowest_total_wins:
        unload *= 1.5
    return 3.0 * gained + unload


__all__ = ["Known", "LayChoice", "board_of", "imagine", "lay_gain", "read_history"]
