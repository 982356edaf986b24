"""Exact play of a hand's last few tiles in one world where every tile is known.

Two sides (pair): minimax with alpha-beta, one side's gain the other's loss. More sides
(gaple, gaple-dead): max-n, every seat choosing what is best for itself. The hand itself
is the state (forked per move), so the engine's own rules decide every move and outcome.
"""

from __future__ import annotations

from collections.abc import Callable

from ..actions import Action, Discard, Play
from ..events import HandEnded
from ..hand_line import LineHand as Hand
from .budget import Work

Value = Callable[[int, HandEnded], float]  # (seat, finished hand) -> its worth to the seat


def _ordered(hand: Hand) -> tuple[Action, ...]:
    """Legal actions, heaviest tile first: the usual best move comes first, so more cuts."""
    legal = hand.legal_actions()
    if len(legal) < 2:
        return legal
    return tuple(sorted(legal, key=_weight, reverse=True))


def _weight(action: Action) -> int:
    return action.tile.pips if isinstance(action, Play | Discard) else 0


def _child(hand: Hand, action: Action, work: Work) -> Hand:
    work.spend()
    child = hand.fork()
    child.step(child.to_move, action)  # type: ignore[arg-type]
    return child


def _minimax(
    hand: Hand,
    side_of: tuple[int, ...],
    seat: int,
    value: Value,
    alpha: float,
    beta: float,
    work: Work,
) -> float:
    """The worth to ``seat`` with best play; its side maximises, the other minimises."""
    while True:  # forced moves need no branching
        result = hand.result
        if result is not None:
            return value(seat, result)
        legal = _ordered(hand)
        if len(legal) != 1:
            break
        hand = _child(hand, legal[0], work)
    maximising = side_of[hand.to_move] == side_of[seat]  # type: ignore[index]
    best = float("-inf") if maximising else float("inf")
    for action in legal:
        worth = _minimax(_child(hand, action, work), side_of, seat, value, alpha, beta, work)
        if maximising:
            best = max(best, worth)
            alpha = max(alpha, best)
        else:
            best = min(best, worth)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best


def _max_n(hand: Hand, seats: int, value: Value, work: Work) -> tuple[float, ...]:
    while True:
        result = hand.result
        if result is not None:
            return tuple(value(seat, result) for seat in range(seats))
        legal = _ordered(hand)
        if len(legal) != 1:
            break
        hand = _child(hand, legal[0], work)
    mover = hand.to_move
    assert mover is not None
    best: tuple[float, ...] | None = None
    for action in legal:
        values = _max_n(_child(hand, action, work), seats, value, work)
        if best is None or values[mover] > best[mover]:
            best = values
    assert best is not None
    return best


def solve(
    world: Hand,
    legal: tuple[Action, ...],
    seat: int,
    side_of: tuple[int, ...],
    value: Value,
    work: Work | None = None,
) -> list[float]:
    """The exact worth to ``seat`` of each of its ``legal`` actions in ``world``, when every
    seat plays best from there on (``value`` scores a finished hand for a seat; every node
    visited is counted in ``work``)."""
    work = work if work is not None else Work(0)
    two_sides = len(set(side_of)) == 2
    worths = []
    for action in legal:
        child = _child(world, action, work)
        if two_sides:
            worths.append(
                _minimax(child, side_of, seat, value, float("-inf"), float("inf"), work)
            )
        else:
            worths.append(_max_n(child, world.seats, value, work)[seat])
    return worths
