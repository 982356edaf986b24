"""Callback data: what a button means, in at most 64 bytes, parsed strictly.

Any client can send any 64 bytes, so parsing never trusts the data: anything that does not
match a known form exactly is :data:`None`, and every field is range-checked. Buttons that
act on a game carry its id and move number, so an old button is recognised as stale.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from engine import Discard, End, Play, Tile
from engine.hand import TILE_AT

MAX_BYTES = 64


class Kind(enum.Enum):
    PICK_GAME = "n"  # lobby: create a game of this kind
    JOIN = "j"
    LEAVE = "l"
    START = "s"
    CANCEL = "c"
    PLAY = "p"  # play a tile (with an end, or none when the engine may choose)
    CHOOSE_END = "e"  # the tile fits both ends: ask which
    BACK = "b"  # back from the end choice
    DISCARD = "d"
    INERT = "i"  # a tile that cannot be played now
    HAND = "h"  # re-send my hand privately
    STOP = "q"  # ask to stop the game
    STOP_YES = "y"
    STOP_NO = "x"
    SETTING = "o"  # group settings menu: cycle one setting, or close the menu
    LEAVE_YES = "v"  # confirm leaving a running game
    LEAVE_NO = "w"
    REPLACE = "r"  # hand an absent player's seat (move_no carries the seat) to a computer
    ADD_COMPUTER = "a"  # lobby: seat a computer player (move_no carries the level's index)
    REMOVE_COMPUTER = "k"


@dataclass(frozen=True, slots=True)
class Button:
    kind: Kind
    game_id: int = 0
    move_no: int = 0
    tile: Tile | None = None
    end: End | None = None
    word: str = ""  # the game for PICK_GAME, the setting for SETTING

    def encode(self) -> str:
        k = self.kind.value
        if self.kind in (Kind.PICK_GAME, Kind.SETTING):
            data = f"{k}:{self.word}"
        elif self.kind in (Kind.PLAY, Kind.CHOOSE_END, Kind.DISCARD, Kind.INERT):
            assert self.tile is not None
            end = {End.LEFT: "L", End.RIGHT: "R", None: "-"}[self.end]
            data = f"{k}:{self.game_id}:{self.move_no}:{self.tile.index}:{end}"
        elif self.kind in (Kind.BACK, Kind.REPLACE, Kind.ADD_COMPUTER, Kind.LEAVE_YES,
                           Kind.LEAVE_NO):
            data = f"{k}:{self.game_id}:{self.move_no}"
        else:
            data = f"{k}:{self.game_id}"
        assert 1 <= len(data.encode()) <= MAX_BYTES
        return data

    def action(self) -> Play | Discard | None:
        if self.tile is None:
            return None
        if self.kind is Kind.PLAY:
            return Play(self.tile, self.end)
        if self.kind is Kind.DISCARD:
            return Discard(self.tile)
        return None


_NUMBER = r"(0|[1-9][0-9]{0,17})"
_TILE_FORM = re.compile(rf"^([pedi]):{_NUMBER}:{_NUMBER}:{_NUMBER}:([LR-])$")
_PAIR_FORM = re.compile(rf"^([bravw]):{_NUMBER}:{_NUMBER}$")
_GAME_FORM = re.compile(rf"^([jlscqyxhk]):{_NUMBER}$")
_PICK_FORM = re.compile(r"^n:([a-z-]{1,20})$")
_SETTING_FORM = re.compile(r"^o:([a-z0-9]{1,8})$")
_ENDS = {"L": End.LEFT, "R": End.RIGHT, "-": None}


def decode(data: str | None) -> Button | None:
    """The button ``data`` stands for, or ``None`` when it is garbled or forged."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    if m := _TILE_FORM.fullmatch(data):
        index = int(m.group(4))
        if index >= len(TILE_AT):
            return None
        return Button(Kind(m.group(1)), int(m.group(2)), int(m.group(3)), TILE_AT[index],
                      _ENDS[m.group(5)])
    if m := _PAIR_FORM.fullmatch(data):
        return Button(Kind(m.group(1)), int(m.group(2)), int(m.group(3)))
    if m := _GAME_FORM.fullmatch(data):
        return Button(Kind(m.group(1)), int(m.group(2)))
    if m := _PICK_FORM.fullmatch(data):
        return Button(Kind.PICK_GAME, word=m.group(1))
    if m := _SETTING_FORM.fullmatch(data):
        return Button(Kind.SETTING, word=m.group(1))
    return None
