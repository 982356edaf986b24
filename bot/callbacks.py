"""Callback data: what a button means, in at most 64 bytes, parsed strictly.

Each kind of button is its own frozen value with the fields it carries and nothing else. Its
data starts with a one-letter prefix (:data:`PATTERNS` routes each family to its handler);
any client can send any 64 bytes, so :func:`decode` trusts nothing: data that does not match a
known form exactly is ``None``, and every field is range-checked. Buttons that act on a game
carry its id, and those that act on a position its move number, so a stale one is recognised.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from engine import Cut, Discard, End, Play, Tile
from engine.masks import TILE_AT

from .models import COMPUTER_LEVELS

MAX_BYTES = 64
_ENDS = {"L": End.LEFT, "R": End.RIGHT, "-": None}
_END_CODES = {end: code for code, end in _ENDS.items()}
# The games with a stock: four ends (Muggins' spinner) and a way to lie (across or along)
_ARMS = {"L": End.LEFT, "R": End.RIGHT, "U": End.UP, "D": End.DOWN, "-": None}
_ARM_CODES = {end: code for code, end in _ARMS.items()}
_WAYS = {"x": True, "a": False, "-": None}
_WAY_CODES = {way: code for code, way in _WAYS.items()}
_RIBBONS = {"L": End.LEFT, "R": End.RIGHT}


def _checked(data: str) -> str:
    assert 1 <= len(data.encode()) <= MAX_BYTES, data
    return data


@dataclass(frozen=True, slots=True)
class PickGame:
    """The game picker under a bare /newgame: open a table of ``game``."""

    game: str

    def encode(self) -> str:
        return _checked(f"n:{self.game}")


class LobbyAction(enum.Enum):
    JOIN = "j"
    LEAVE = "l"
    START = "s"
    CANCEL = "c"
    REMOVE_COMPUTER = "k"  # take the last computer player off
    OTHER_PAIRS = "t"  # partnership games: the next way of pairing the seated players


@dataclass(frozen=True, slots=True)
class ShowRules:
    """The rules picker under a bare /rules: show ``game``'s rules."""

    game: str

    def encode(self) -> str:
        return _checked(f"u:{self.game}")


@dataclass(frozen=True, slots=True)
class PlayAgain:
    """Under a match's result: open the same table again (same game, options and players)."""

    game_id: int

    def encode(self) -> str:
        return _checked(f"g:{self.game_id}")


@dataclass(frozen=True, slots=True)
class LobbyTap:
    game_id: int
    action: LobbyAction

    def encode(self) -> str:
        return _checked(f"{self.action.value}:{self.game_id}")


@dataclass(frozen=True, slots=True)
class AddComputer:
    """Seat a computer player of ``level`` (the data carries the level's place in the list)."""

    game_id: int
    level: str

    def encode(self) -> str:
        return _checked(f"a:{self.game_id}:{COMPUTER_LEVELS.index(self.level)}")


class TileIntent(enum.Enum):
    PLAY = "p"  # lay it (at ``end``, or where the engine resolves it)
    CHOOSE_END = "e"  # it fits more than one end: ask which
    DISCARD = "d"  # put it face down
    ASK_DISCARD = "f"  # it may go face down: ask once, since a mistaken tap costs points
    INERT = "i"  # shown, but not playable now


@dataclass(frozen=True, slots=True)
class TileTap:
    game_id: int
    move_no: int
    tile: Tile
    intent: TileIntent
    end: End | None = None

    def encode(self) -> str:
        return _checked(f"{self.intent.value}:{self.game_id}:{self.move_no}:{self.tile.index}:"
                        f"{_END_CODES[self.end]}")

    def action(self) -> Play | Discard | None:
        """The engine action this tap asks for, if it asks for one."""
        if self.intent is TileIntent.PLAY:
            return Play(self.tile, self.end)
        if self.intent is TileIntent.DISCARD:
            return Discard(self.tile)
        return None


@dataclass(frozen=True, slots=True)
class LayTap:
    """The games with a stock: lay ``tile`` at ``end`` (any of four), across or along."""

    game_id: int
    move_no: int
    tile: Tile
    end: End | None
    cross: bool | None

    def encode(self) -> str:
        return _checked(f"q:{self.game_id}:{self.move_no}:{self.tile.index}:"
                        f"{_ARM_CODES[self.end]}:{_WAY_CODES[self.cross]}")

    def action(self) -> Play:
        return Play(self.tile, self.end, None, self.cross)


@dataclass(frozen=True, slots=True)
class CutTap:
    """Kolbasa: cut the ribbons with ``tile`` and give the ``give`` ribbon away."""

    game_id: int
    move_no: int
    tile: Tile
    give: End

    def encode(self) -> str:
        assert self.give in (End.LEFT, End.RIGHT), self.give
        return _checked(f"z:{self.game_id}:{self.move_no}:{self.tile.index}:"
                        f"{_ARM_CODES[self.give]}")

    def action(self) -> Cut:
        return Cut(self.tile, self.give)


@dataclass(frozen=True, slots=True)
class BackToHand:
    """Back from the end choice to the tiles."""

    game_id: int
    move_no: int

    def encode(self) -> str:
        return _checked(f"b:{self.game_id}:{self.move_no}")


@dataclass(frozen=True, slots=True)
class ShowHand:
    """The table's "My tiles": send the tapping player's hand again, privately."""

    game_id: int

    def encode(self) -> str:
        return _checked(f"h:{self.game_id}")


@dataclass(frozen=True, slots=True)
class StopAnswer:
    game_id: int
    confirm: bool

    def encode(self) -> str:
        return _checked(f"{'y' if self.confirm else 'x'}:{self.game_id}")


@dataclass(frozen=True, slots=True)
class LeaveAnswer:
    """The answer to "leave the running game?", asked of the player in ``seat`` only."""

    game_id: int
    seat: int
    confirm: bool

    def encode(self) -> str:
        return _checked(f"{'v' if self.confirm else 'w'}:{self.game_id}:{self.seat}")


@dataclass(frozen=True, slots=True)
class ReplaceAway:
    """Hand the seat of an away player to a computer player."""

    game_id: int
    seat: int

    def encode(self) -> str:
        return _checked(f"r:{self.game_id}:{self.seat}")


@dataclass(frozen=True, slots=True)
class SettingTap:
    """A tap in the /settings menu.

    ``page`` is "" for the main page, or a game's name for its options. ``name`` is the setting
    whose choices to show ("" to show the page itself; "done" on the main page closes the
    menu); ``choice`` is the index of the choice picked, or None to show the choices.
    """

    page: str = ""
    name: str = ""
    choice: int | None = None

    def encode(self) -> str:
        choice = "" if self.choice is None else str(self.choice)
        return _checked(f"o:{self.page}:{self.name}:{choice}")


Button = (PickGame | ShowRules | PlayAgain | LobbyTap | AddComputer | TileTap | LayTap | CutTap
          | BackToHand | ShowHand | StopAnswer | LeaveAnswer | ReplaceAway | SettingTap)

_NUMBER = r"(0|[1-9][0-9]{0,17})"
_WORD = r"([a-z0-9_-]{0,24})"
_FORMS: tuple[tuple[re.Pattern[str], type], ...] = (
    (re.compile(rf"([pedif]):{_NUMBER}:{_NUMBER}:{_NUMBER}:([LR-])"), TileTap),
    (re.compile(rf"q:{_NUMBER}:{_NUMBER}:{_NUMBER}:([LRUD-]):([xa-])"), LayTap),
    (re.compile(rf"z:{_NUMBER}:{_NUMBER}:{_NUMBER}:([LR])"), CutTap),
    (re.compile(rf"([jlsckt]):{_NUMBER}"), LobbyTap),
    (re.compile(rf"a:{_NUMBER}:{_NUMBER}"), AddComputer),
    (re.compile(rf"b:{_NUMBER}:{_NUMBER}"), BackToHand),
    (re.compile(rf"h:{_NUMBER}"), ShowHand),
    (re.compile(rf"([yx]):{_NUMBER}"), StopAnswer),
    (re.compile(rf"([vw]):{_NUMBER}:{_NUMBER}"), LeaveAnswer),
    (re.compile(rf"r:{_NUMBER}:{_NUMBER}"), ReplaceAway),
    (re.compile(r"n:([a-z-]{1,20})"), PickGame),
    (re.compile(r"u:([a-z-]{1,20})"), ShowRules),
    (re.compile(rf"g:{_NUMBER}"), PlayAgain),
    (re.compile(rf"o:{_WORD}:{_WORD}:(|0|[1-9][0-9]?)"), SettingTap),
)

# PTB routing: each family of buttons by its prefix (decode still checks the whole form).
PATTERNS: dict[str, str] = {
    "game": r"^n:",
    "rules": r"^u:",
    "again": r"^g:",
    "lobby": r"^[jlsckta]:",
    "play": r"^[pedifbqz]:",
    "hand": r"^h:",
    "stop": r"^[yx]:",
    "leave": r"^[vw]:",
    "replace": r"^r:",
    "settings": r"^o:",
}


def decode(data: str | None) -> Button | None:
    """The button ``data`` stands for, or ``None`` when it is garbled or forged."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    for form, kind in _FORMS:
        if m := form.fullmatch(data):
            return _build(kind, m.groups())
    return None


def _build(kind: type, g: tuple[str, ...]) -> Button | None:
    if kind is TileTap:
        index = int(g[3])
        if index >= len(TILE_AT):
            return None
        return TileTap(int(g[1]), int(g[2]), TILE_AT[index], TileIntent(g[0]), _ENDS[g[4]])
    if kind is LayTap or kind is CutTap:
        index = int(g[2])
        if index >= len(TILE_AT):
            return None
        tile = TILE_AT[index]
        if kind is CutTap:
            return CutTap(int(g[0]), int(g[1]), tile, _RIBBONS[g[3]])
        return LayTap(int(g[0]), int(g[1]), tile, _ARMS[g[3]], _WAYS[g[4]])
    if kind is LobbyTap:
        return LobbyTap(int(g[1]), LobbyAction(g[0]))
    if kind is AddComputer:
        level = int(g[1])
        return AddComputer(int(g[0]), COMPUTER_LEVELS[level]) if level < len(COMPUTER_LEVELS) \
            else None
    if kind is BackToHand:
        return BackToHand(int(g[0]), int(g[1]))
    if kind is ShowHand:
        return ShowHand(int(g[0]))
    if kind is StopAnswer:
        return StopAnswer(int(g[1]), g[0] == "y")
    if kind is LeaveAnswer:
        return LeaveAnswer(int(g[1]), int(g[2]), g[0] == "v")
    if kind is ReplaceAway:
        return ReplaceAway(int(g[0]), int(g[1]))
    if kind is PickGame:
        return PickGame(g[0])
    if kind is ShowRules:
        return ShowRules(g[0])
    if kind is PlayAgain:
        return PlayAgain(int(g[0]))
    return SettingTap(g[0], g[1], int(g[2]) if g[2] else None)
