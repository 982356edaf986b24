"""The normal level's judgement of a move, also the hard level's playout policy.

A play is worth more the heavier its tile (pips left in hand count against you), if it is a
double (doubles fit only one number, so they get stuck), the more of the hand can follow on
the ends it leaves, and the fewer numbers the hand is left without (variety answers more ends).
A stuck player with dead tiles gives up the tile that costs least.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import KNOCK, Action, Discard, Play
from ..hand_line import LineHand as Hand
from ..masks import SHOWS
from ..tiles import End, Tile

PIPS_WEIGHT = 1.0
DOUBLE_WEIGHT = 4.0
FOLLOW_WEIGHT = 1.5  # per tile in hand that fits the ends left behind
VARIETY_WEIGHT = 2.0  # per number the hand would no longer show
BLANK_DOUBLE_COST = 25  # what 0-0 may count with the ``blank_double_25`` option
NEXT_STUCK_WEIGHT = 3.0  # the next seat (an opponent) is known to hold neither new end
PARTNER_STUCK_WEIGHT = 3.0  # the partner is known to hold neither new end


def partner_of(sides: tuple[tuple[int, ...], ...], seat: int) -> int | None:
    """The seat's partner in a partnership game, else None."""
    for side in sides:
        if seat in side and len(side) == 2:
            return side[0] if side[1] == seat else side[1]
    return None


def ends_after(play: Play, left: int | None, right: int | None) -> tuple[int, int]:
    """The open ends once ``play`` is laid on a line whose ends are ``left``/``right``."""
    tile = play.tile
    if left is None or right is None:
        half = play.left_half if play.left_half is not None else tile.low
        return half, tile.pips - half
    if play.end is End.RIGHT:
        return left, tile.pips - right
    return tile.pips - left, right


def play_value(mask: int, play: Play, left: int | None, right: int | None) -> float:
    """How good ``play`` is for a hand ``mask``, compared with the hand's other plays now.

    Variety counts only the numbers the play would leave the hand without: what the hand
    keeps in common with every other play does not tell them apart.
    """
    tile = play.tile
    rest = mask ^ tile.bit
    new_left, new_right = ends_after(play, left, right)
    follow = (rest & (SHOWS[new_left] | SHOWS[new_right])).bit_count()
    lost = (not rest & SHOWS[tile.low]) + (not tile.is_double and not rest & SHOWS[tile.high])
    return (
        PIPS_WEIGHT * tile.pips
        + DOUBLE_WEIGHT * tile.is_double
        + FOLLOW_WEIGHT * follow
        - VARIETY_WEIGHT * lost
    )


def table_value(play: Play, left: int | None, right: int | None, next_void: int,
                partner_void: int) -> float:
    """What the knocks so far add to ``play``: leaving only ends the next seat is known to
    lack is good, leaving only ends the partner lacks is bad (``*_void``: number masks)."""
    new_left, new_right = ends_after(play, left, right)
    ends = 1 << new_left | 1 << new_right
    worth = NEXT_STUCK_WEIGHT if next_void & ends == ends else 0.0
    if partner_void & ends == ends:
        worth -= PARTNER_STUCK_WEIGHT
    return worth


def best_play(
    plays: Sequence[Play],
    mask: int,
    left: int | None,
    right: int | None,
    next_void: int,
    partner_void: int,
    rng: random.Random | None = None,
) -> Play:
    """The play the normal level prefers for a hand ``mask``; equal plays are told apart by
    ``rng`` where given, else the first is taken."""
    best = plays[0]
    best_value = float("-inf")
    for play in plays:
        value = play_value(mask, play, left, right)
        if next_void or partner_void:
            value += table_value(play, left, right, next_void, partner_void)
        if rng is not None:
            value += rng.random() * 1e-6  # far below any real difference between plays
        if value > best_value:
            best, best_value = play, value
    return best


def discard_cost(tile: Tile, counted: int, blank_double_25: bool) -> tuple[int, int]:
    """What putting ``tile`` down dead surely costs (lower is better), among ``counted`` tiles
    (hand and dead) of its owner; ties keep the tile with the higher number in hand."""
    pips = tile.pips
    if blank_double_25 and tile.index == 0 and not counted & SHOWS[0] & ~tile.bit:
        pips = BLANK_DOUBLE_COST
    return pips, tile.high


def cheapest_discard(discards: list[Discard], counted: int, blank_double_25: bool) -> Discard:
    return min(discards, key=lambda d: discard_cost(d.tile, counted, blank_double_25))


def playout_action(
    hand: Hand, legal: tuple[Action, ...], voids: list[int], partners: tuple[int, ...]
) -> Action:
    """The normal policy in a simulated hand: the seat's own tiles, the ends and the knocks
    (``voids``: numbers each seat has shown it lacks; ``partners``: per seat, -1 for none)."""
    first = legal[0]
    if len(legal) == 1:
        return first
    seat = hand.to_move
    assert seat is not None
    mask = hand.masks[seat]
    if type(first) is Play:
        partner = partners[seat]
        return best_play(
            legal,  # type: ignore[arg-type]
            mask,
            hand.left,
            hand.right,
            voids[(seat + 1) % hand.seats],
            voids[partner] if partner >= 0 else 0,
        )
    if type(first) is Discard:
        counted = mask
        for tile in hand.dead[seat]:
            counted |= tile.bit
        return cheapest_discard(list(legal), counted, hand.options.blank_double_25)  # type: ignore[arg-type]
    return KNOCK


def knock_seen(voids: list[int], hand: Hand, seat: int, action: Action) -> None:
    """A knock or a discard shows the table that ``seat`` holds neither open end."""
    if type(action) is not Play and hand.left is not None and hand.right is not None:
        voids[seat] |= 1 << hand.left | 1 << hand.right
