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


class ScoreReason(enum.Enum):
    """Why points were scored during play."""

    FIFTEEN = "count"  # Muggins: the open ends add up to a multiple of 5 (``points`` is it)
    DOUBLE_HEADER = "double_header"  # Bergen: both ends show the same number
    TRIPLE_HEADER = "triple_header"  # Bergen: ... and one end tile is a double
    DOUBLE_LEAD = "double_lead"  # Bergen: the hand was led with a double
    MATADOR = "matador"  # Matador, Six-matador: a matador laid crosswise
    JOINT = "joint"  # Six-matador strict: a tile laid along makes the 6
    FREE_SIX = "free_six"  # Six-matador strict: ... and leaves a 6 open
    KNOCK = "knock"  # Six-matador strict: a knock costs 6
    OUT = "out"  # Muggins: 10 for going out; Bergen: 2
    BLOCKED = "blocked"  # Bergen: the 2 for winning a blocked hand


class DecidedBy(enum.Enum):
    """What gave a hand to its winner where the lowest total alone did not: a tie-break
    between players level on it (gaple-dead), or Bergen's doubles, which come before the pips
    in a blocked hand (D20)."""

    LOWEST_TILE = "lowest_tile"  # gaple-dead: the lowest counted tile of the smaller value
    LOWER_HALF = "lower_half"  # gaple-dead: lowest tiles of equal value: the smaller lower half
    NO_TILES = "no_tiles"  # gaple-dead: no counted tiles at all beats some
    LOWEST_DOUBLE = "lowest_double"  # Bergen: everyone holds a double: the lowest wins
    NO_DOUBLE = "no_double"  # Bergen: the lightest hand of those holding no double


@dataclass(frozen=True, slots=True)
class Decision:
    """Why the winner won (:class:`DecidedBy`), between which seats, and with which tiles:
    ``seats`` starts with the winner's, then those it beat that way (gaple-dead: the seats
    level with it on the lowest total; Bergen's NO_DOUBLE: the others holding no double); in
    a hand nobody won, the seats level on what would have decided it (Bergen's NO_DOUBLE: the
    lightest of those holding no double);
    ``tiles`` is, per seat of ``seats``, the tile that decided (gaple-dead: its lowest counted
    tile, None for a seat with none; Bergen's LOWEST_DOUBLE: the winner's double alone), empty
    where no tile did. Every tile it names is one the hand's end lays open."""

    by: DecidedBy
    seats: tuple[int, ...]
    tiles: tuple[Tile | None, ...] = ()


@dataclass(frozen=True, slots=True)
class TilePlayed:
    seat: int
    tile: Tile
    end: End
    left_half: int  # the tile as it lies in the line, left half first
    right_half: int
    ends: tuple[int, int]  # the line's ends after the move
    cross: bool = False  # it lies crosswise


@dataclass(frozen=True, slots=True)
class TileDrawn:
    """A tile taken from the stock: its face is deliberately not recorded here."""

    seat: int
    count: int  # tiles drawn by this seat in a row this turn, this one included
    stock_left: int
    held: int  # tiles in the drawer's hand now


@dataclass(frozen=True, slots=True)
class PointsScored:
    """Points scored during play (negative for Six-matador's knocks)."""

    seat: int
    side: int
    points: int
    why: ScoreReason


@dataclass(frozen=True, slots=True)
class SpinnerOpened:
    """Muggins: the first double is down; tiles may now go up and down from it."""

    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class PieceCut:
    """Kolbasa: ``seat`` cut the ribbons with ``tile``; ``taker`` (the previous seat) takes the
    ``given`` ribbon's tiles into their hand and moves next; ``cut_off`` leave play."""

    seat: int
    tile: Tile
    given: End
    taker: int
    taken: tuple[Tile, ...]
    cut_off: tuple[Tile, ...]


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
    stock_left: int = 0  # tiles still in the stock when the hand ended
    scored: tuple[int, ...] = ()  # per side: of ``points``, what was scored during play
    # Why the winner won where the lowest total alone did not say (a tie-break, Bergen's
    # doubles), or why nobody did where the pips alone do not say (Bergen); None where the
    # totals say it all.
    decision: Decision | None = None
    # Whether the pips left in hand (``totals``) counted towards this result: never in
    # Six-matador, not after going out in Muggins and Bergen. Where they did not, a hand's
    # result does not show them.
    pips_count: bool = True
    # Blocked because no tile off the table, in any hand or in the stock, fits an end (French):
    # the tiles left in the stock could not help.
    nothing_fits: bool = False


@dataclass(frozen=True, slots=True)
class MatchEnded:
    winner: int | None  # winning side; None for a drawn match
    scores: tuple[int, ...]


Event = (
    HandStarted
    | TilePlayed
    | Knocked
    | TileDiscarded
    | TileDrawn
    | PointsScored
    | SpinnerOpened
    | PieceCut
    | HandEnded
    | MatchEnded
)
