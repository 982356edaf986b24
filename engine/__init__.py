"""The rules of the domino games, pure and synchronous: standard library only.

Start with :class:`Match`, find games with :func:`variant`, see what a seat may know with
:func:`player_view`.
"""

from __future__ import annotations

from .actions import KNOCK, Action, ActionKind, Discard, Knock, Move, Play
from .deal import Deal, shuffle_deal
from .errors import (
    BadInputError,
    CannotDrawError,
    CorruptMatchError,
    CrossNotAllowedError,
    CrossRequiredError,
    CutNotAllowedError,
    DominoError,
    EndRequiredError,
    HandOverError,
    IllegalActionError,
    MustDrawError,
    MustPlayError,
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
    Event,
    HandEnded,
    HandEndReason,
    HandStarted,
    Knocked,
    MatchEnded,
    TileDiscarded,
    TilePlayed,
)
from .hand import Hand
from .layout import Line, Placed
from .match import Match
from .options import Options, OptionSpec
from .record import match_from_json, match_to_dict, match_to_json, replay
from .tiles import End, Tile, full_set
from .variants import VARIANTS, Variant, variant
from .views import PlayerView, PublicMove, TableView, player_view, table_view

__all__ = [
    "KNOCK",
    "VARIANTS",
    "Action",
    "ActionKind",
    "BadInputError",
    "CannotDrawError",
    "CorruptMatchError",
    "CrossNotAllowedError",
    "CrossRequiredError",
    "CutNotAllowedError",
    "Deal",
    "Discard",
    "DominoError",
    "End",
    "EndRequiredError",
    "Event",
    "Hand",
    "HandEndReason",
    "HandEnded",
    "HandOverError",
    "HandStarted",
    "IllegalActionError",
    "Knock",
    "Knocked",
    "Line",
    "Match",
    "MatchEnded",
    "Move",
    "MustDrawError",
    "MustPlayError",
    "NoSuchEndError",
    "NotYourTurnError",
    "OptionSpec",
    "OptionValueError",
    "Options",
    "Placed",
    "Play",
    "PlayerView",
    "PublicMove",
    "TableView",
    "Tile",
    "TileDiscarded",
    "TileDoesNotFitError",
    "TileNotInHandError",
    "TilePlayed",
    "UnknownGameError",
    "UnknownOptionError",
    "Variant",
    "WrongLeadError",
    "WrongStuckActionError",
    "full_set",
    "match_from_json",
    "match_to_dict",
    "match_to_json",
    "player_view",
    "replay",
    "shuffle_deal",
    "table_view",
    "variant",
]
