"""The buttons of a player's hand: a tile tapped, a lay, back to the tiles.

They are the one family whose data names a position (a move number) and an engine action,
and whose forms changed over time: earlier forms, still sitting in chats, decode into
today's values. Each is declared with :func:`.buttonforms.kind`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine import Cut, Discard, End, Play, Tile

from .buttonforms import (
    FOUR_ENDS,
    IGNORED,
    NUMBER,
    RIBBON,
    TILE,
    TWO_ENDS,
    ButtonData,
    Form,
    kind,
    letters,
)


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
      earlier_forms=(Form(("intent", _INTENT), (*_TILE_FIELDS, (IGNORED, TWO_ENDS))),))
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
      earlier_forms=(
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
