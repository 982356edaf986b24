"""What happened, as frozen records. Every event is public: none names a hidden tile.

The bot turns events into announcements; the renderers and AI players read views instead.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .tiles import End, Tile


class HandEndReason(enum.Enum):
    OUT = "out"  # a player holds no tiles ("gaple!" when they laid the last one)
    BLOCKED = "blocked"  # nobody can lay


@dataclass(frozen=True, slots=True)
class HandStarted:
    """``must_lead`` names a tile only when the rules force that one tile (so it is public);
    when the opener may choose among their doubles, it is empty and ``must_lead_double`` says
    so without telling the table which doubles they hold."""

    hand_number: int
    opener: int
    turned_up: Tile | None  # the middle tile that starts the line, where the game has one
    must_lead: tuple[Tile, ...]  # empty: any tile may lead (or the line is already started)
    must_lead_double: bool = False


@dataclass(frozen=True, slots=True)
class TilePlayed:
    seat: int
    tile: Tile
    end: End
    left_half: int  # the tile as it lies in the line, left half first
    right_half: int
    ends: tuple[int, int]  # the line's ends after the move


@dataclass(frozen=True, slots=True)
class Knocked:
    seat: int
    ends: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class TileDiscarded:
    """A dead tile, face down: the face is deliberately not recorded here."""

    seat: int
    dead_count: int
    ends: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class HandEnded:
    hand_number: int
    reason: HandEndReason
    out_seat: int | None  # the seat that emptied its hand (reason OUT)
    by_play: bool  # the last tile was laid ("gaple!"), not discarded
    winner: int | None  # winning side; None for a drawn hand
    totals: tuple[int, ...]  # per seat: the pips that count against it
    points: tuple[int, ...]  # per side: what the hand scored
    scores: tuple[int, ...]  # per side: the match score after this hand


@dataclass(frozen=True, slots=True)
class MatchEnded:
    winner: int | None  # winning side; None for a drawn match
    scores: tuple[int, ...]


Event = HandStarted | TilePlayed | Knocked | TileDiscarded | HandEnded | MatchEnded
