"""Exact play of a hand's last few tiles in one world where every tile is known.

Two sides (pair): minimax with alpha-beta, one side's gain the other's loss. More sides
(gaple, gaple-dead): max-n, every seat choosing what is best for itself. The hand itself
is the state (walked by push and pop), so the engine's own rules decide every move and outcome.
"""

from __future__ import annotations

from collections.abc import Callable

from ..actions import Action, Discard, Play
from ..events import HandEnded
from .budget import Work
from .simulation import LineHand

Value = Callable[[int, HandEnded], float]  # (seat, finished hand) -> its worth to the seat


def _ordered(hand: LineHand) -> tuple[Action, ...]:
    """Legal actions, heaviest tile first: the usual best move comes first, so more cuts."""
    legal = hand.legal_actions()
    if len(legal) < 2:
        return legal
    return tuple(sorted(legal, key=_weight, reverse=True))


def _weight(action: Action) -> int:
    return action.tile.pips if isinstance(action, Play | Discard) else 0


def _minimax(
    hand: LineHand,
    side_of: tuple[int, ...],
    seat: int,
    value: Value,
    alpha: float,
    beta: float,
    work: Work,
) -> float:
    """The worth to ``seat`` with best play; its side maximises, the other minimises.
    Walks the tree on ``hand`` itself (push, pop), which it leaves as it found it."""
    forced = 0
    while True:  # forced moves need no branching
        result = hand.result
        if result is not None:
            best = value(seat, result)
            break
        legal = _ordered(hand)
        mover: int = hand.to_move  # type: ignore[assignment]
        if len(legal) != 1:
            maximising = side_of[mover] == side_of[seat]
            best = float("-inf") if maximising else float("inf")
            for action in legal:
                work.spend()
                hand.push(mover, action)
                worth = _minimax(hand, side_of, seat, value, alpha, beta, work)
                hand.pop()
                if maximising:
                    best = max(best, worth)
                    alpha = max(alpha, best)
                else:
                    best = min(best, worth)
                    beta = min(beta, best)
                if alpha >= beta:
                    break
            break
        work.spend()
        hand.push(mover, legal[0])
        forced += 1
    for _ in range(forced):
        hand.pop()
    return best


def _max_n(hand: LineHand, seats: int, value: Value, work: Work) -> tuple[float, ...]:
    """Every seat's worth when each plays best for itself (on ``hand``, left as found)."""
    forced = 0
    while True:
        result = hand.result
        if result is not None:
            best = tuple(value(seat, result) for seat in range(seats))
            break
        legal = _ordered(hand)
        mover: int = hand.to_move  # type: ignore[assignment]
        if len(legal) != 1:
            found: tuple[float, ...] | None = None
            for action in legal:
                work.spend()
                hand.push(mover, action)
                values = _max_n(hand, seats, value, work)
                hand.pop()
                if found is None or values[mover] > found[mover]:
                    found = values
            assert found is not None
            best = found
            break
        work.spend()
        hand.push(mover, legal[0])
        forced += 1
    for _ in range(forced):
        hand.pop()
    return best


def solve(
    world: LineHand,
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
        work.spend()
        world.push(seat, action)
        if two_sides:
            worths.append(
                _minimax(world, side_of, seat, value, float("-inf"), float("inf"), work)
            )
        else:
            worths.append(_max_n(world, world.seats, value, work)[seat])
        world.pop()
    return worths
