"""Callback data: what a button means, in at most 64 bytes, parsed strictly.

Each kind of button is its own frozen value with the fields it carries and nothing else, and
is declared once: the :func:`kind` above its class names its family (the handler that serves
it) and its form: a prefix of one letter (which may itself carry a field), then its fields,
each with a :class:`Codec` that writes and reads it. Encoding, decoding and the families'
routing patterns (:data:`PATTERNS`) all follow from that one declaration.

Any client can send any 64 bytes, so :func:`decode` trusts nothing: data that does not match a
known form exactly is ``None``, and every field is range-checked. Buttons that act on a game
carry its id, and those that act on a position its move number, so a stale one is recognised.
Buttons already sitting in chats keep working after an upgrade: a kind whose form changed
lists its earlier forms (``legacy``), which decode into today's value.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Generic, TypeVar

from engine import Cut, Discard, End, Play, Tile, full_set

from ..models import COMPUTER_LEVELS

MAX_BYTES = 64
_TILES = full_set(12)  # by Tile.index: the double-twelve set holds every game's tiles

V = TypeVar("V")


# --- how a field is written ------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Codec(Generic[V]):
    """One field on the wire: the regular expression its text matches, and the two ways
    across. ``read`` raises ValueError or IndexError for text that matches but names
    nothing (a tile or level number past the end)."""

    pattern: str
    read: Callable[[str], V]
    write: Callable[[V], str]


def letters(meaning: Mapping[str, V]) -> Codec[V]:
    """A field written as one of a few letters (or signs)."""
    back = {value: letter for letter, value in meaning.items()}
    return Codec("[" + re.escape("".join(meaning)) + "]", meaning.__getitem__, back.__getitem__)


def _number(text: str) -> int:
    return int(text)


NUMBER: Codec[int] = Codec("0|[1-9][0-9]{0,17}", _number, str)
TILE: Codec[Tile] = Codec("0|[1-9][0-9]{0,17}", lambda text: _TILES[int(text)],
                          lambda tile: str(tile.index))
LEVEL: Codec[str] = Codec("0|[1-9][0-9]{0,17}", lambda text: COMPUTER_LEVELS[int(text)],
                          lambda level: str(COMPUTER_LEVELS.index(level)))
GAME_NAME: Codec[str] = Codec("[a-z-]{1,20}", str, str)
WORD: Codec[str] = Codec("[a-z0-9_-]{0,24}", str, str)
CHOICE: Codec[int | None] = Codec("|0|[1-9][0-9]?", lambda text: int(text) if text else None,
                                  lambda choice: "" if choice is None else str(choice))
TWO_ENDS: Codec[End | None] = letters({"L": End.LEFT, "R": End.RIGHT, "-": None})
FOUR_ENDS: Codec[End | None] = letters(
    {"L": End.LEFT, "R": End.RIGHT, "U": End.UP, "D": End.DOWN, "-": None})
RIBBON: Codec[End] = letters({"L": End.LEFT, "R": End.RIGHT})
IGNORED = None  # a field an earlier form wrote and today's value no longer has


@dataclass(frozen=True, slots=True)
class Form:
    """One way of writing a kind: its prefix (a letter, or a field written as a letter) and
    then its fields, in order, separated by colons. ``fixed`` fills the value's fields the
    form does not write (an earlier form's meaning, kept)."""

    prefix: str | tuple[str, Codec[Any]]
    fields: tuple[tuple[str | None, Codec[Any]], ...]
    fixed: Mapping[str, object] | None = None

    @property
    def prefix_pattern(self) -> str:
        return re.escape(self.prefix) if isinstance(self.prefix, str) else self.prefix[1].pattern

    def regex(self) -> re.Pattern[str]:
        parts = [self.prefix_pattern] + [codec.pattern for _, codec in self.fields]
        return re.compile(":".join(f"({part})" for part in parts))

    def write(self, button: object) -> str:
        head = self.prefix if isinstance(self.prefix, str) else \
            self.prefix[1].write(getattr(button, self.prefix[0]))
        parts = [codec.write(getattr(button, name)) for name, codec in self.fields
                 if name is not None]
        return ":".join([head, *parts])

    def read(self, groups: tuple[str, ...]) -> dict[str, object]:
        """The value's fields from the matched text (raises ValueError/IndexError/KeyError
        for what matches but names nothing)."""
        values: dict[str, object] = dict(self.fixed or {})
        if not isinstance(self.prefix, str):
            values[self.prefix[0]] = self.prefix[1].read(groups[0])
        for (name, codec), text in zip(self.fields, groups[1:], strict=True):
            if name is not None:
                values[name] = codec.read(text)
        return values


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of button: its value's class, the family that routes it, today's form and the
    earlier ones still decoded."""

    cls: type[ButtonData]
    family: str
    form: Form
    legacy: tuple[Form, ...] = ()


KINDS: dict[type, Kind] = {}
B = TypeVar("B", bound="ButtonData")


def kind(family: str, prefix: str | tuple[str, Codec[Any]],
         *fields_: tuple[str | None, Codec[Any]], legacy: tuple[Form, ...] = ()
         ) -> Callable[[type[B]], type[B]]:
    """Declare a kind of button: the class below is its value, written as ``prefix`` and
    ``fields_`` (today's form), served by the handler of ``family``."""

    def register(cls: type[B]) -> type[B]:
        form = Form(prefix, tuple(fields_))
        written = {name for name, _ in form.fields if name is not None}
        if not isinstance(prefix, str):
            written.add(prefix[0])
        declared = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        if written != declared:  # a kind's form names exactly its fields, or it cannot round-trip
            raise TypeError(f"{cls.__name__}: its form writes {sorted(written)}, "
                            f"its fields are {sorted(declared)}")
        KINDS[cls] = Kind(cls, family, form, legacy)
        return cls

    return register


class ButtonData:
    """What every button value shares: it writes itself as its kind's form says."""

    __slots__ = ()

    def encode(self) -> str:
        data = KINDS[type(self)].form.write(self)
        assert 1 <= len(data.encode()) <= MAX_BYTES, data
        return data


# --- the kinds -----------------------------------------------------------------------------
@kind("game", "n", ("game", GAME_NAME))
@dataclass(frozen=True, slots=True)
class PickGame(ButtonData):
    """The game picker under a bare /newgame: open a table of ``game``."""

    game: str


@kind("rules", "u", ("game", GAME_NAME))
@dataclass(frozen=True, slots=True)
class ShowRules(ButtonData):
    """The rules picker under a bare /rules: show ``game``'s rules."""

    game: str


@kind("again", "g", ("game_id", NUMBER))
@dataclass(frozen=True, slots=True)
class PlayAgain(ButtonData):
    """Under a match's result: open the same table again (same game, options and players)."""

    game_id: int


class LobbyAction(enum.Enum):
    JOIN = "j"
    LEAVE = "l"
    START = "s"
    CANCEL = "c"
    REMOVE_COMPUTER = "k"  # take the last computer player off
    OTHER_PAIRS = "t"  # partnership games: the next way of pairing the seated players


@kind("lobby", ("action", letters({a.value: a for a in LobbyAction})), ("game_id", NUMBER))
@dataclass(frozen=True, slots=True)
class LobbyTap(ButtonData):
    game_id: int
    action: LobbyAction


@kind("lobby", "a", ("game_id", NUMBER), ("level", LEVEL))
@dataclass(frozen=True, slots=True)
class AddComputer(ButtonData):
    """Seat a computer player of ``level`` (the data carries the level's place in the list)."""

    game_id: int
    level: str


class TileIntent(enum.Enum):
    """What a first tap on a tile of the hand does, short of laying it (a :class:`Lay`)."""

    CHOOSE_END = "e"  # it goes on in more than one way: ask which
    DISCARD = "d"  # put it face down
    ASK_DISCARD = "f"  # it may go face down: ask once, since a mistaken tap costs points
    INERT = "i"  # shown, but not playable now


_INTENT = letters({i.value: i for i in TileIntent})
_TILE_FIELDS = (("game_id", NUMBER), ("move_no", NUMBER), ("tile", TILE))


@kind("play", ("intent", _INTENT), *_TILE_FIELDS,
      # Until the lay button was one kind, a tap on a tile also carried an end ("-").
      legacy=(Form(("intent", _INTENT), (*_TILE_FIELDS, (IGNORED, TWO_ENDS))),))
@dataclass(frozen=True, slots=True)
class TileTap(ButtonData):
    """A tap on a tile of the hand that lays nothing yet."""

    game_id: int
    move_no: int
    tile: Tile
    intent: TileIntent

    def action(self) -> Discard | None:
        """The engine action this tap asks for, if it asks for one."""
        return Discard(self.tile) if self.intent is TileIntent.DISCARD else None


class Way(enum.Enum):
    """How a laid tile goes on: as the engine resolves it, along or across the line, or
    (Kolbasa) cutting the ribbons, its end then naming the ribbon given away."""

    ANY = "-"
    ALONG = "a"
    ACROSS = "x"
    CUT = "c"

    @property
    def cross(self) -> bool | None:
        return {Way.ALONG: False, Way.ACROSS: True}.get(self)


_WAY = letters({w.value: w for w in Way})


@kind("play", "p", *_TILE_FIELDS, ("end", FOUR_ENDS), ("way", _WAY),
      legacy=(
          # Until the lay button was one kind: the line games' lay, with one of two ends (the
          # engine resolved the way) ...
          Form("p", (*_TILE_FIELDS, ("end", TWO_ENDS)), {"way": Way.ANY}),
          # ... the lay of the games played on a board, with a way ...
          Form("q", (*_TILE_FIELDS, ("end", FOUR_ENDS), ("way", letters(
              {"x": Way.ACROSS, "a": Way.ALONG, "-": Way.ANY})))),
          # ... and Kolbasa's cut, with the ribbon given away.
          Form("z", (*_TILE_FIELDS, ("end", RIBBON)), {"way": Way.CUT}),
      ))
@dataclass(frozen=True, slots=True)
class Lay(ButtonData):
    """Lay ``tile`` at ``end`` (None: where the engine resolves it), the ``way`` it goes on;
    for a cut, ``end`` is the ribbon given away."""

    game_id: int
    move_no: int
    tile: Tile
    end: End | None
    way: Way = Way.ANY

    def __post_init__(self) -> None:
        if self.way is Way.CUT and self.end not in (End.LEFT, End.RIGHT):
            raise ValueError("a cut gives the left or the right ribbon away")

    def action(self) -> Play | Cut:
        if self.way is Way.CUT:
            assert self.end is not None
            return Cut(self.tile, self.end)
        return Play(self.tile, self.end, None, self.way.cross)

    @classmethod
    def of(cls, game_id: int, move_no: int, action: Play | Cut) -> Lay:
        """The button for a lay the engine offers."""
        if type(action) is Cut:
            return cls(game_id, move_no, action.tile, action.give, Way.CUT)
        assert type(action) is Play
        way = Way.ANY if action.cross is None else Way.ACROSS if action.cross else Way.ALONG
        return cls(game_id, move_no, action.tile, action.end, way)


@kind("play", "b", ("game_id", NUMBER), ("move_no", NUMBER))
@dataclass(frozen=True, slots=True)
class BackToHand(ButtonData):
    """Back from the end choice to the tiles."""

    game_id: int
    move_no: int


@kind("hand", "h", ("game_id", NUMBER))
@dataclass(frozen=True, slots=True)
class ShowHand(ButtonData):
    """The table's "My tiles": send the tapping player's hand again, privately."""

    game_id: int


@kind("table", "m", ("game_id", NUMBER))
@dataclass(frozen=True, slots=True)
class ShowTable(ButtonData):
    """"Table" (on the table message and a player's hand): the game's table is posted again
    at the bottom of the group, its old message retired."""

    game_id: int


@kind("stop", ("confirm", letters({"y": True, "x": False})), ("game_id", NUMBER))
@dataclass(frozen=True, slots=True)
class StopAnswer(ButtonData):
    game_id: int
    confirm: bool


@kind("leave", ("confirm", letters({"v": True, "w": False})), ("game_id", NUMBER),
      ("seat", NUMBER))
@dataclass(frozen=True, slots=True)
class LeaveAnswer(ButtonData):
    """The answer to "leave the running game?", asked of the player in ``seat`` only."""

    game_id: int
    seat: int
    confirm: bool


@kind("replace", "r", ("game_id", NUMBER), ("seat", NUMBER))
@dataclass(frozen=True, slots=True)
class ReplaceAway(ButtonData):
    """Hand the seat of an away player to a computer player."""

    game_id: int
    seat: int


@kind("settings", "o", ("page", WORD), ("name", WORD), ("choice", CHOICE))
@dataclass(frozen=True, slots=True)
class SettingTap(ButtonData):
    """A tap in the /settings menu.

    ``page`` is "" for the main page, or a game's name for its options. ``name`` is the setting
    whose choices to show ("" to show the page itself; "done" on the main page closes the
    menu); ``choice`` is the index of the choice picked, or None to show the choices.
    """

    page: str = ""
    name: str = ""
    choice: int | None = None


@kind("replay", "R", ("game_id", NUMBER), ("hand", NUMBER))
@dataclass(frozen=True, slots=True)
class ReplayHand(ButtonData):
    """"🎞 Replay" under a hand's result, and each hand of the private /replay list: send
    hand ``hand`` (from 0) of the game as an animation, in the chat of the button."""

    game_id: int
    hand: int


@kind("verify", "V", ("game_id", NUMBER), ("hand", NUMBER))
@dataclass(frozen=True, slots=True)
class CheckDeal(ButtonData):
    """"Check the deal" (under a hand's result, and /verify's earlier hands): the check of
    hand ``hand`` (counting from 0) of the game, sent to the tapper's private chat."""

    game_id: int
    hand: int


Button = (PickGame | ShowRules | PlayAgain | LobbyTap | AddComputer | TileTap | Lay
          | BackToHand | ShowHand | ShowTable | StopAnswer | LeaveAnswer | ReplaceAway | SettingTap
          | ReplayHand | CheckDeal)

_FORMS: tuple[tuple[re.Pattern[str], Form, type[ButtonData]], ...] = tuple(
    (form.regex(), form, k.cls) for k in KINDS.values() for form in (k.form, *k.legacy))


def kinds_of(family: str) -> tuple[type[ButtonData], ...]:
    """The kinds of button the handler of ``family`` serves."""
    return tuple(k.cls for k in KINDS.values() if k.family == family)


def _family_pattern(family: str) -> str:
    prefixes = [form.prefix_pattern for k in KINDS.values() if k.family == family
                for form in (k.form, *k.legacy)]
    return "^(?:" + "|".join(dict.fromkeys(prefixes)) + "):"


# PTB routing: each family of buttons by its prefix (decode still checks the whole form).
PATTERNS: dict[str, str] = {
    family: _family_pattern(family) for family in dict.fromkeys(
        k.family for k in KINDS.values())}


def decode(data: str | None) -> Button | None:
    """The button ``data`` stands for, or ``None`` when it is garbled or forged."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    for regex, form, cls in _FORMS:
        if m := regex.fullmatch(data):
            try:
                return cls(**form.read(m.groups()))  # type: ignore[return-value]
            except (ValueError, IndexError, KeyError):
                return None
    return None

