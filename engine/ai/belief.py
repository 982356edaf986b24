"""How likely a world is, given the choices the other seats made in it.

Knocks only say what a seat lacks; its plays say more. A seat that laid 1-2 while it also
held 6-6 played oddly, so a world where it held 6-6 is less likely than one where it did
not. Seats are modelled as playing sensibly: a play is chosen with probability proportional
to ``exp(value / temperature)`` under the normal level's judgement (:mod:`policy`), a dead
tile likewise by its cost. A world's weight is the product over every choice of every other
seat, each judged on the hand that seat held then: its tiles now in that world plus the
tiles it is known to have laid since (and the dead tiles it put down since).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..actions import ActionKind, Play
from ..hand_line import AT_LEFT, AT_RIGHT, plays_at
from ..masks import TILE_AT
from ..tiles import End
from ..views import PlayerView
from .policy import discard_cost, partner_of, play_value, table_value


@dataclass(frozen=True, slots=True)
class Choice:
    """A choice another seat made: a play (``chosen``) or a dead tile (from bin ``dead_bin``)."""

    seat: int
    ends: tuple[int, int]
    chosen: Play | None
    dead_bin: int  # -1 for a play
    since: int  # tiles the seat is known to have laid after this choice
    dead_since: tuple[int, ...]  # bins of the dead tiles it put down after this choice
    next_void: int  # numbers the next seat was then known to lack
    partner_void: int  # numbers its partner was then known to lack (0: no partner)


def choices(view: PlayerView) -> tuple[Choice, ...]:
    """Every choice of another seat that a world's likelihood can be judged on."""
    table = view.table
    seats = table.seats
    bins: list[int] = []  # per history entry: the dead bin of another seat's discard, or -1
    voids_before: list[tuple[int, ...]] = []  # per history entry: known voids of every seat
    voids = [0] * seats
    next_bin = seats  # hidden dead tiles get the bins after the hands, in order
    for move in table.history:
        if move.kind is ActionKind.DISCARD and move.seat != view.seat:
            bins.append(next_bin)
            next_bin += 1
        else:
            bins.append(-1)
        voids_before.append(tuple(voids))
        if move.kind is not ActionKind.PLAY and move.ends_before is not None:
            voids[move.seat] |= 1 << move.ends_before[0] | 1 << move.ends_before[1]
    laid_since = [0] * seats
    dead_since: list[list[int]] = [[] for _ in range(seats)]
    found: list[Choice] = []
    for index in range(len(table.history) - 1, -1, -1):
        move = table.history[index]
        seat = move.seat
        if seat != view.seat and move.ends_before is not None and move.kind is not ActionKind.KNOCK:
            chosen = None
            if move.kind is ActionKind.PLAY:
                assert move.tile is not None
                chosen = (AT_RIGHT if move.end is End.RIGHT else AT_LEFT)[move.tile.index]
            known = voids_before[index]
            partner = partner_of(table.sides, seat)
            found.append(
                Choice(seat, move.ends_before, chosen, bins[index], laid_since[seat],
                       tuple(dead_since[seat]), known[(seat + 1) % seats],
                       known[partner] if partner is not None else 0)
            )
        if move.kind is ActionKind.PLAY:
            assert move.tile is not None
            laid_since[seat] |= move.tile.bit
        elif bins[index] >= 0:
            dead_since[seat].append(bins[index])
    return tuple(found)


def log_likelihood(
    observed: tuple[Choice, ...],
    placed: list[int],
    temperature: float,
    blank_double_25: bool,
    erratic: float = 0.0,
) -> float:
    """The log-probability of the observed choices in the world ``placed`` (masks per bin)."""
    total = 0.0
    for choice in observed:
        held = placed[choice.seat] | choice.since
        for dead in choice.dead_since:
            held |= placed[dead]
        left, right = choice.ends
        if choice.chosen is not None:
            held |= choice.chosen.tile.bit
            options = plays_at(held, left, right)
            if len(options) < 2:
                continue
            nxt, partner = choice.next_void, choice.partner_void
            values = [
                play_value(held, play, left, right) + table_value(play, left, right, nxt, partner)
                for play in options
            ]
            mine = play_value(held, choice.chosen, left, right) + table_value(
                choice.chosen, left, right, nxt, partner
            )
        else:
            gone = placed[choice.dead_bin]
            held |= gone
            rest = held
            values = []
            while rest:
                low = rest & -rest
                rest ^= low
                tile = TILE_AT[low.bit_length() - 1]
                values.append(-float(discard_cost(tile, held, blank_double_25)[0]))
            if len(values) < 2:
                continue
            mine = -float(discard_cost(TILE_AT[gone.bit_length() - 1], held, blank_double_25)[0])
        top = max(values)
        spread = sum(math.exp((v - top) / temperature) for v in values)
        sensible = math.exp((mine - top) / temperature) / spread
        total += math.log((1.0 - erratic) * sensible + erratic / len(values))
    return total
