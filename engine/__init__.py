"""The rules of the domino games, pure and synchronous: standard library only.

Start with :class:`Match` (``automate=True`` plays the moves nobody decides), find games with
:func:`variant`, see what a seat may know with :func:`player_view`, store and replay a match
with :func:`match_to_json` and :func:`match_from_json`. This is the engine's public face:
how a game is laid out and played inside (the plain line's fast path or the board) is
nobody's business outside the engine.
"""

from __future__ import annotations

from .actions import DRAW, KNOCK, Action, ActionKind, Cut, Discard, Draw, Knock, Move, Play
from .deal import Deal
from .dealcheck import DealCheck, check_deal
from .errors import (
    BadInputError,
    CannotDrawError,
    CorruptMatchError,
    CrossNotAllowedError,
    CrossRequiredError,
    CutNotAllowedError,
    DominoError,
    EndRequiredError,
    HandNotOverError,
    HandOverError,
    IllegalActionError,
    MustDrawError,
    MustPlayError,
    NoSeedError,
    NoSuchEndError,
    NotYourTurnError,
    OptionValueError,
    TileDoesNotFitError,
    TileNotInHandError,
    UnknownGameError,
    UnknownOptionError,
    WrongLeadError,
    WrongStuckActionError,
)
from .events import (
    DecidedBy,
    Decision,
    Event,
    HandEnded,
    HandEndReason,
    HandStarted,
    Knocked,
    MatchEnded,
    PieceCut,
    PointsScored,
    ScoreReason,
    SpinnerOpened,
    TileDiscarded,
    TileDrawn,
    TilePlayed,
)
from .fairness import FINGERPRINT_DIGITS, SEED_BYTES, fingerprint, parse_seed
from .hand import Hand
from .layout import Placed
from .match import Match
from .options import Options, OptionSpec
from .outcomes import LayOutcome, lay_outcome
from .record import KeptHands, match_from_json, match_to_dict, match_to_json, replay
from .replays import hand_tables
from .tiles import End, Tile, full_set
from .variants import VARIANTS, Variant, variant
from .views import (
    LaidTile,
    LayoutView,
    OpenEnd,
    PlayerView,
    PublicMove,
    TableView,
    player_view,
    table_view,
    unfinished_seed,
)

__all__ = [
    "DealCheck",
    "HandNotOverError",
    "NoSeedError",
    "check_deal",
    "FINGERPRINT_DIGITS",
    "SEED_BYTES",
    "fingerprint",
    "hand_tables",
    "parse_seed",
    "DRAW",
    "KNOCK",
    "VARIANTS",
    "Action",
    "ActionKind",
    "BadInputError",
    "CannotDrawError",
    "CorruptMatchError",
    "CrossNotAllowedError",
    "CrossRequiredError",
    "Cut",
    "CutNotAllowedError",
    "Deal",
    "Discard",
    "DominoError",
    "Draw",
    "End",
    "EndRequiredError",
    "Event",
    "Hand",
    "DecidedBy",
    "Decision",
    "HandEndReason",
    "HandEnded",
    "HandOverError",
    "HandStarted",
    "IllegalActionError",
    "Knock",
    "Knocked",
    "LaidTile",
    "LayoutView",
    "LayOutcome",
    "Match",
    "MatchEnded",
    "Move",
    "MustDrawError",
    "MustPlayError",
    "NoSuchEndError",
    "NotYourTurnError",
    "OpenEnd",
    "OptionSpec",
    "OptionValueError",
    "Options",
    "PieceCut",
    "Placed",
    "Play",
    "PlayerView",
    "PointsScored",
    "PublicMove",
    "ScoreReason",
    "SpinnerOpened",
    "TableView",
    "Tile",
    "TileDiscarded",
    "TileDoesNotFitError",
    "TileDrawn",
    "TileNotInHandError",
    "TilePlayed",
    "UnknownGameError",
    "UnknownOptionError",
    "Variant",
    "WrongLeadError",
    "WrongStuckActionError",
    "full_set",
    "match_from_json",
    "KeptHands",
    "match_to_dict",
    "match_to_json",
    "lay_outcome",
    "player_view",
    "replay",
    "table_view",
    "unfinished_seed",
    "variant",
]
