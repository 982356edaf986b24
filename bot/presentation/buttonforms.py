"""How a button's value is written as callback data: field codecs, forms, ``@kind``.

Each kind of button is its own frozen value with the fields it carries and nothing else, and
is declared once: the :func:`kind` above its class names its family (the handler that serves
it) and its form: a prefix of one letter (which may itself carry a field), then its fields,
each with a :class:`Codec` that writes and reads it. A kind whose form changed lists its
``earlier_forms``, so buttons already sitting in chats keep working after an upgrade.

This module is that declaring machinery, apart from the kinds themselves
(:mod:`.gamebuttons`, :mod:`.tilebuttons`) and from decoding any data into one of them
(:mod:`.callbacks`), which all build on it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Generic, TypeVar

from engine import End, Tile, full_set

from ..computers import COMPUTER_LEVELS

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
    earlier_forms: tuple[Form, ...] = ()


KINDS: dict[type, Kind] = {}
B = TypeVar("B", bound="ButtonData")


def kind(family: str, prefix: str | tuple[str, Codec[Any]],
         *fields_: tuple[str | None, Codec[Any]], earlier_forms: tuple[Form, ...] = ()
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
        KINDS[cls] = Kind(cls, family, form, earlier_forms)
        return cls

    return register


class ButtonData:
    """What every button value shares: it writes itself as its kind's form says."""

    __slots__ = ()

    def encode(self) -> str:
        data = KINDS[type(self)].form.write(self)
        assert 1 <= len(data.encode()) <= MAX_BYTES, data
        return data
