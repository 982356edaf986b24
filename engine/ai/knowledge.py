"""What one seat can infer from its view: which tiles it cannot see and who may hold them.

The set is known, so every tile the seat neither holds, nor put down dead, nor sees in the
line is somewhere hidden: in another hand, among another seat's dead tiles, face down in the
middle, or out of play (double-9 and double-12 sets deal only part of the set). A knock or a
discard facing ends ``a``/``b`` proves that seat held no ``a`` and no ``b`` then, hence also
now, and that the tile it discarded showed neither.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import ActionKind
from ..masks import SHOWS, mask_of
from ..tiles import full_set
from ..views import PlayerView


@dataclass(frozen=True, slots=True)
class DeadSlot:
    """One face-down dead tile of another seat: it showed none of ``barred`` numbers."""

    seat: int
    barred: int  # a mask of tiles it cannot be


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden tiles and the constraints on where each may be, as tile and number masks."""

    seat: int
    unseen: int  # tiles this seat cannot see
    hand_counts: tuple[int, ...]  # tiles in each hand (this seat's own included)
    void_numbers: tuple[int, ...]  # per seat: bit n set when it is known to hold no n
    dead_slots: tuple[DeadSlot, ...]  # other seats' dead tiles, in the order they fell
    elsewhere: int  # unseen tiles in no hand and no dead pile: the middle or out of play
    played: tuple[tuple[int, ...], ...]  # per seat: tile indices it laid, in order

    def barred(self, seat: int) -> int:
        """The tiles ``seat`` cannot hold now."""
        return numbers_mask(self.void_numbers[seat])


def numbers_mask(numbers: int) -> int:
    """Every tile showing one of the numbers whose bits are set in ``numbers``."""
    mask = 0
    number = 0
    while numbers:
        if numbers & 1:
            mask |= SHOWS[number]
        numbers >>= 1
        number += 1
    return mask


def infer(view: PlayerView) -> Knowledge:
    """Everything ``view``'s seat can deduce about the hidden tiles."""
    table = view.table
    seats = table.seats
    seen = mask_of(view.hand) | mask_of(view.dead) | mask_of([p.tile for p in table.line])
    unseen = mask_of(full_set(table.set)) & ~seen
    voids = [0] * seats
    played: list[list[int]] = [[] for _ in range(seats)]
    slots: list[DeadSlot] = []
    for move in table.history:
        if move.kind is ActionKind.PLAY:
            assert move.tile is not None
            played[move.seat].append(move.tile.index)
            continue
        if move.ends_before is not None:
            a, b = move.ends_before
            voids[move.seat] |= 1 << a | 1 << b
        if move.kind is ActionKind.DISCARD and move.seat != view.seat:
            slots.append(DeadSlot(move.seat, numbers_mask(voids[move.seat])))
    counts = tuple(p.tile_count for p in table.players)
    hidden_in_hands = sum(counts) - counts[view.seat]
    return Knowledge(
        seat=view.seat,
        unseen=unseen,
        hand_counts=counts,
        void_numbers=tuple(voids),
        dead_slots=tuple(slots),
        elsewhere=unseen.bit_count() - hidden_in_hands - len(slots),
        played=tuple(tuple(p) for p in played),
    )
