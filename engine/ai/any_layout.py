"""The knowledge of the games the engine plays on its general board: every layout (the line,
Muggins' spinner, Kolbasa's ribbons), a stock or none, points during play or none.

Normal judges each lay by what it scores now and what it unloads (:func:`lay_gain`). Hard
imagines deals (other hands and the stock's order) consistent with every draw, knock and cut
the seat saw (:mod:`board_worlds`), weighted by how well they explain the other seats' lays: a
seat is modelled as the normal level, so a world where it laid a light tile while holding a
heavy one that fitted is less likely. In each world every move is finished with every seat on
normal's judgement (the same luck for every move), and the result valued as the match counts
it: points scored during play included, penalty games reversed, a win worth a bonus where wins
decide, a cut's ribbon counted in the hand of whoever received it. Moves that lead to the same
position are searched once, and the weaker half of the moves drops out as the budget is spent.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from ..actions import Action, Play
from ..events import HandEnded
from ..variants import Variant, variant
from ..views import PlayerView
from .board_worlds import Known, board_of, imagine, lay_gain, read_history
from .budget import Effort, Plan, Work
from .sampling import choice_log_probability, likely_deals
from .simulation import BoardHand

WIN_BONUS = 25.0  # what winning a hand is worth on top of its pips, where wins decide
# The budget in simulated moves is the game's (Variant.search_steps): a move costs more in
# some games (Kolbasa's ribbons, Muggins' four arms, points to count), so each game's keeps its
# decisions about as quick; Matador's choices are the closest, so it gets the most deals its
# cheap moves allow.
WORLDS = 64  # deals searched at most (short hands end the budget late)
POOL = 48  # consistent deals drawn and weighed to pick the searched ones from
LEAD_STEPS = 3  # the lead: the longest hand to play out and the most moves, once a hand
HALVING = (0.4, 0.7)  # shares of the budget after which the weaker half of the moves drops out
# Where a hand ends only blocked (Matador) and laying a matador scores nothing, a matador,
# which fits any end, is always laid in the end and never counts against its holder: laid
# early it is a lay wasted that would have saved a draw later. There the searching seat keeps
# its matadors until nothing else fits, in the moves it searches and in its own playouts (the
# others are still assumed to play as normal does).
KEEP_COST = 100.0  # far above any lay's gain: a kept tile is laid only when nothing else fits


def hand_value(game: Variant, seat: int, result: HandEnded, win_bonus: float) -> float:
    """How good a finished hand is for ``seat``, as the match counts it: where points come
    during play, its points against the others' average; in penalty games, the others'
    average against its own; where the hand's winner scores, ``win_bonus`` for winning it
    plus the others' average pips against its own (how near a win it came, and how much a
    win is worth)."""
    points = result.points
    others = (sum(points) - points[seat]) / (len(points) - 1)
    if game.points_in_play:
        return points[seat] - others
    if game.lowest_total_wins:
        return others - points[seat]
    totals = result.totals
    margin = (sum(totals) - totals[seat]) / (len(totals) - 1) - totals[seat]
    return margin + (win_bonus if result.winner == seat else 0.0)


def kept_tiles(game: Variant, scoring: bool) -> int:
    """The tiles (a mask) the searching seat keeps until nothing else fits: its matadors,
    where the hand ends only blocked and laying them scores nothing (``scoring``: points
    come during play)."""
    return game.matador_mask if game.ends_blocked_only and not scoring else 0


def lays_kept(action: Action, kept: int) -> bool:
    """Whether ``action`` lays a tile of ``kept`` (a mask)."""
    return type(action) is Play and bool(kept & action.tile.bit)


def playout(
    game: Variant, hand: BoardHand, rng: random.Random, work: Work, scoring: bool,
    keeper: int = -1, kept: int = 0,
) -> HandEnded:
    """Finish ``hand`` with every seat on normal's judgement (:func:`lay_gain`: points now,
    pips unloaded, a cut's ribbon), greedily, except that seat ``keeper`` lays a tile of
    ``kept`` (a mask) only when nothing else fits. Every move made is counted in ``work``."""
    moves = 0
    while hand.result is None:
        seat = hand.to_move
        assert seat is not None
        legal = hand.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            keep = kept if seat == keeper else 0
            action = max(legal, key=lambda a: (
                lay_gain(game, hand, seat, a, scoring)
                - (KEEP_COST if keep and lays_kept(a, keep) else 0.0),
                rng.random()))
        hand.advance(seat, action)
        moves += 1
    work.spend(moves)
    return hand.result


def log_likelihood(known: Known, world: BoardHand, temperature: float, erratic: float) -> float:
    """The log-probability, in ``world``, of the lays the other seats chose (each judged on
    the hand the seat held then: its tiles now, plus those it laid since, less those it was
    given since; lays followed by a draw of that seat are left out, the drawn tile unknown)."""
    total = 0.0
    for choice in known.choices:
        if choice.drew:
            continue
        held = (world.masks[choice.seat] | choice.since) & ~choice.received
        values = [worth for index, worth in choice.values.items() if held >> index & 1]
        if len(values) < 2:
            continue
        total += choice_log_probability(values, choice.chosen, temperature, erratic)
    return total


def distinct_moves(
    game: Variant, hand: BoardHand, seat: int, legal: tuple[Action, ...]
) -> list[int]:
    """Indices of ``legal`` less the moves that lead to the same position as an earlier one:
    on a line, laying a tile at either of two ends that look alike leaves the same open ends
    (the hand's future depends on nothing else there), so one of them is searched."""
    if game.layout != "line" or hand.board.center is None:
        return list(range(len(legal)))
    seen: set[object] = set()
    kept = []
    for i, action in enumerate(legal):
        trial = hand.fork()
        trial.advance(seat, action)
        board = trial.board
        ends = sorted(
            (board.opens(end), piece.tile.is_double, piece.cross)
            for end in board.arms
            if (piece := board.end_piece(end)) is not None
        )
        key = (action.tile if isinstance(action, Play) else None, tuple(ends))
        if key not in seen:
            seen.add(key)
            kept.append(i)
    return kept


def keeping(legal: tuple[Action, ...], moves: list[int], kept: int) -> list[int]:
    """``moves`` less those that lay a tile of ``kept`` (a mask) while another lay is left."""
    if not kept:
        return moves
    others = [i for i in moves if not lays_kept(legal[i], kept)]
    return others or moves


def searched_worlds(
    view: PlayerView, known: Known, rng: random.Random, effort: Effort, limit: int
) -> Iterator[BoardHand]:
    """Up to ``limit`` deals to search: uniform among the consistent ones while the others
    made no judgeable lay, else drawn from a pool of them in proportion to their likelihood."""
    board = board_of(view)

    def weigh(world: BoardHand) -> float:
        return log_likelihood(known, world, effort.temperature, effort.erratic)

    return likely_deals(
        lambda: imagine(view, board, rng, known),
        weigh if known.choices else None,
        effort.pool if effort.pool is not None else POOL * effort.scale,
        limit,
        rng,
    )


@dataclass(frozen=True, slots=True)
class AnyLayout:
    """The general board's knowledge (see the module's docstring)."""

    def normal(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal
        game = variant(view.table.game)
        hand = imagine(view, board_of(view), rng)
        scored = [(lay_gain(game, hand, view.seat, a), rng.random(), i)
                  for i, a in enumerate(legal)]
        return legal[max(scored)[2]]

    def plan(self, view: PlayerView, rng: random.Random, effort: Effort) -> Plan[BoardHand]:
        legal = view.legal
        seat = view.seat
        game = variant(view.table.game)
        board = board_of(view)
        scratch = imagine(view, board, rng)
        known = read_history(view, game, scratch.fork())  # the fork is written over
        scoring = game.points_in_play or game.matador_score(view.table.options)
        steps = effort.steps if effort.steps is not None else game.search_steps * effort.scale
        if board.center is None:
            steps *= LEAD_STEPS
        work = Work(steps, effort.deadline)
        worlds = effort.worlds if effort.worlds is not None else WORLDS * effort.scale
        kept = kept_tiles(game, scoring)

        def worths(world: BoardHand, moves: list[int], rng: random.Random) -> list[float]:
            luck = rng.getrandbits(32)  # every move meets the same luck in this world
            found = []
            for i in moves:
                trial = world.fork()
                trial.advance(seat, legal[i])
                result = playout(game, trial, random.Random(luck), work, scoring, seat, kept)
                found.append(hand_value(game, seat, result, WIN_BONUS))
            return found

        return Plan(work, keeping(legal, distinct_moves(game, scratch, seat, legal), kept),
                    searched_worlds(view, known, rng, effort, worlds), worths, worlds, HALVING)


__all__ = ["AnyLayout", "hand_value", "log_likelihood", "playout", "searched_worlds"]
