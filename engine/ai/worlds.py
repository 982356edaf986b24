"""Deals consistent with what a seat knows, and the hand replayed to now in each of them.

A world gives every hidden tile a place (another hand, another seat's dead pile, or
"elsewhere": the middle or out of play) without breaking any inference of
:mod:`knowledge`. Worlds are drawn uniformly by rejection while that is cheap; once knocks
rule out too much, tiles are placed most-constrained first and a tile with no room left
makes room by moving others along an augmenting path, so a consistent world is always found.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import KNOCK, Action, ActionKind, Discard, Play
from ..deal import Deal
from ..errors import DominoError
from ..hand_line import AT_LEFT, AT_RIGHT
from ..hand_line import LineHand as Hand
from ..masks import TILE_AT, tiles_of
from ..seams import Opening
from ..tiles import End, Tile
from ..variants import variant
from ..views import PlayerView
from .knowledge import Knowledge

UNIFORM_TRIES = 12  # rejection attempts before placing tiles under the constraints


@dataclass(frozen=True, slots=True)
class Bins:
    """Where hidden tiles go: capacity and barred tiles of each bin. Bins ``0..seats-1``
    are the hands (the viewer's own has capacity 0), then one bin per dead slot, then
    "elsewhere"."""

    capacity: tuple[int, ...]
    barred: tuple[int, ...]


def bins_of(know: Knowledge) -> Bins:
    capacity = [0 if s == know.seat else n for s, n in enumerate(know.hand_counts)]
    barred = [know.barred(s) for s in range(len(know.hand_counts))]
    for slot in know.dead_slots:
        capacity.append(1)
        barred.append(slot.barred)
    capacity.append(know.elsewhere)
    barred.append(0)
    return Bins(tuple(capacity), tuple(barred))


def place_hidden(unseen: int, bins: Bins, rng: random.Random) -> list[int] | None:
    """A mask of tiles per bin, every tile placed where it may be; None if impossible."""
    tiles = tiles_of(unseen)
    capacity, barred = bins.capacity, bins.barred
    for _ in range(UNIFORM_TRIES):
        rng.shuffle(tiles)
        masks = []
        start = 0
        for size, bar in zip(capacity, barred, strict=True):
            mask = 0
            for tile in tiles[start : start + size]:
                mask |= tile.bit
            start += size
            if mask & bar:
                break
            masks.append(mask)
        else:
            return masks
    return _place_constrained(tiles, bins, rng)


def _place_constrained(tiles: list[Tile], bins: Bins, rng: random.Random) -> list[int] | None:
    capacity, barred = bins.capacity, bins.barred
    count = len(capacity)
    fits = {t: [b for b in range(count) if capacity[b] and not barred[b] & t.bit] for t in tiles}
    rng.shuffle(tiles)
    tiles.sort(key=lambda t: len(fits[t]))  # most constrained first; stable, so still random
    held: list[list[Tile]] = [[] for _ in range(count)]
    for tile in tiles:
        room = [b for b in fits[tile] if len(held[b]) < capacity[b]]
        if room:
            weights = [capacity[b] - len(held[b]) for b in room]
            held[rng.choices(room, weights)[0]].append(tile)
        elif not _make_room(tile, fits, held, capacity):
            return None
    masks = []
    for contents in held:
        mask = 0
        for tile in contents:
            mask |= tile.bit
        masks.append(mask)
    return masks


def _make_room(
    tile: Tile, fits: dict[Tile, list[int]], held: list[list[Tile]], capacity: tuple[int, ...]
) -> bool:
    """Place ``tile`` by shifting tiles along a shortest chain of bins to one with room."""
    came_from: dict[int, tuple[int, Tile] | None] = {b: None for b in fits[tile]}
    queue = list(fits[tile])
    for current in queue:
        for moved in held[current]:
            for target in fits[moved]:
                if target in came_from:
                    continue
                came_from[target] = (current, moved)
                if len(held[target]) < capacity[target]:
                    step: int = target
                    while (link := came_from[step]) is not None:
                        source, shifted = link
                        held[source].remove(shifted)
                        held[step].append(shifted)
                        step = source
                    held[step].append(tile)
                    return True
                queue.append(target)
    return False


@dataclass(frozen=True, slots=True)
class ReplayPlan:
    """The public history as actions to replay, with the hidden tiles left as holes."""

    opening: Opening
    turned_left: int | None
    actions: tuple[tuple[int, Action | None], ...]  # None: a discard of a hidden tile
    own_dead: tuple[Tile, ...]


def replay_plan(view: PlayerView) -> ReplayPlan:
    table = view.table
    placed = {p.tile: p for p in table.line}
    turned = table.turned_up
    actions: list[tuple[int, Action | None]] = []
    own_dead = iter(view.dead)
    for move in table.history:
        action: Action | None
        if move.kind is ActionKind.PLAY:
            tile = move.tile
            assert tile is not None
            if move.end is End.LEFT:
                action = AT_LEFT[tile.index]
            elif move.end is End.RIGHT:
                action = AT_RIGHT[tile.index]
            else:  # a lead: lay it as it lies in the line
                action = Play(tile, None, placed[tile].left)
        elif move.kind is ActionKind.KNOCK:
            action = KNOCK
        elif move.seat == view.seat:
            action = Discard(next(own_dead))
        else:
            action = None
        actions.append((move.seat, action))
    turned_left = placed[turned].left if turned is not None else None
    return ReplayPlan(Opening(table.opener, (), turned), turned_left, tuple(actions), view.dead)


def build_world(
    view: PlayerView, know: Knowledge, plan: ReplayPlan, placed: list[int]
) -> Hand | None:
    """The hand as it would stand now had the hidden tiles lain as ``placed`` says; None if
    that deal does not reach the position (it would have ended earlier)."""
    table = view.table
    seats = table.seats
    own = 0
    for tile in view.hand:
        own |= tile.bit
    now = [own if s == view.seat else placed[s] for s in range(seats)]
    dealt = list(now)
    for seat, indices in enumerate(know.played):
        for index in indices:
            dealt[seat] |= 1 << index
    for tile in plan.own_dead:
        dealt[view.seat] |= tile.bit
    hidden_dead = iter(placed[seats : seats + len(know.dead_slots)])
    actions: list[tuple[int, Action]] = []
    for seat, action in plan.actions:
        if action is None:
            gone = next(hidden_dead)
            dealt[seat] |= gone
            action = Discard(TILE_AT[gone.bit_length() - 1])
        actions.append((seat, action))
    turned = plan.opening.turned_up
    deal = Deal(
        tuple(tuple(tiles_of(mask)) for mask in dealt),
        (turned,) if turned is not None else (),
        0,
        plan.turned_left,
    )
    hand = Hand(variant(table.game), table.options, deal, plan.opening, table.hand_number)
    try:
        for seat, action in actions:
            hand.step(seat, action)
    except DominoError:
        return None
    return hand if hand.to_move == view.seat else None
