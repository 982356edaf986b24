"""Game options: declared per variant as :class:`OptionSpec` values, validated once, frozen.

A variant lists its options' specs (name, default, what they allow); :class:`Options` is the
validated value a match plays with. It keeps an attribute per option any game has, so code
that reads ``options.deal`` keeps working, and records which names its game declared, so
``to_dict()`` and ``get()`` speak only of those.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from .errors import BadInputError, OptionValueError, UnknownOptionError, shown

OptionValue = int | bool | str

_TRUE = ("true", "on", "yes")
_FALSE = ("false", "off", "no")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game: its ``default`` and either ``choices`` or a whole-number range
    ``low`` to ``high``. Its repr is its source: ``OptionSpec('deal', 6, (6, 7))``."""

    name: str
    default: OptionValue
    choices: tuple[OptionValue, ...] = ()
    low: int | None = None
    high: int | None = None

    def allows(self, value: object) -> bool:
        # bool is an int subclass: 1 must not pass for True, nor True for 1.
        if self.choices:
            return any(type(value) is type(c) and value == c for c in self.choices)
        return (
            type(value) is int
            and (self.low is None or value >= self.low)
            and (self.high is None or value <= self.high)
        )

    def describe(self) -> str:
        """What the option allows, as a player reads it: ``"6 or 7"``, ``"1 to 10000"``,
        ``"1 or more"``."""
        if self.choices:
            words = [_word(c) for c in self.choices]
            return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
        return f"{self.low} or more" if self.high is None else f"{self.low} to {self.high}"

    def check(self, value: object) -> OptionValue:
        """``value`` itself if allowed; else :class:`OptionValueError`."""
        if not self.allows(value):
            raise OptionValueError(
                f"option {self.name!r} cannot be {shown(value)}: it is {self.describe()}",
                self.name,
                self,
            )
        return value  # type: ignore[return-value]

    def parse(self, text: str) -> OptionValue:
        """Read what a user types (``"7"``, ``"on"``, ``"lot"``). Raises OptionValueError."""
        word = text.strip().lower() if isinstance(text, str) else ""
        value: object = word
        sample = self.choices[0] if self.choices else 0
        if type(sample) is bool:
            value = True if word in _TRUE else False if word in _FALSE else word
        elif type(sample) is int and word.isascii() and word.isdigit() and len(word) <= 7:
            value = int(word)  # at most seven digits: a 30-digit number is refused, not read
        return self.check(value)


def _word(value: OptionValue) -> str:
    if type(value) is bool:
        return "on" if value else "off"
    return str(value)


def choice(name: str, default: OptionValue, *others: OptionValue) -> OptionSpec:
    """A spec whose value is one of ``default`` and ``others`` (in that display order)."""
    return OptionSpec(name, default, (default, *others))


def target(default: int) -> OptionSpec:
    """A match's target: any positive whole number, as the rules say (a front end that reads
    what people type may set a limit of its own)."""
    return OptionSpec("target", default, (), 1)


SET_ANY = choice("set", 6, 9, 12)
SET_SIX = choice("set", 6)


@dataclass(frozen=True, slots=True)
class Options:
    """The options a match is played with. ``names`` are the ones its game declares; the
    other attributes keep their neutral defaults and are not part of the game's record."""

    set: int = 6
    target: int = 100
    deal: int = 6
    dead_tiles: bool = True
    blank_double_25: bool = False
    first_lead: str = "6-6"
    block_count: str = "opponents"
    matador_points: bool = False
    scoring: str = "strict"
    names: tuple[str, ...] = ("set", "target")

    def to_dict(self, names: tuple[str, ...] | None = None) -> dict[str, object]:
        """Every option of the game (or of ``names``) by name, in display order."""
        return {name: getattr(self, name) for name in (self.names if names is None else names)}

    def get(self, name: str) -> OptionValue:
        """The value of the game's option ``name``. Raises :class:`UnknownOptionError`."""
        if name not in self.names:
            raise UnknownOptionError(f"unknown option {name!r}", name)
        value: OptionValue = getattr(self, name)
        return value


OPTION_ATTRIBUTES = tuple(n for n in Options.__dataclass_fields__ if n != "names")


def build_options(
    given: Mapping[str, object], specs: tuple[OptionSpec, ...], defaults: Options
) -> Options:
    """Validate ``given`` against ``specs`` and fill in ``defaults``.

    Raises :class:`UnknownOptionError` or :class:`OptionValueError` (both BadInputError).
    """
    if not isinstance(given, Mapping):
        raise BadInputError("options must be an object")
    by_name = {spec.name: spec for spec in specs}
    changes: dict[str, object] = {}
    for name, value in given.items():
        spec = by_name.get(name) if isinstance(name, str) else None
        if spec is None:
            raise UnknownOptionError(f"unknown option {shown(name)}", str(name))
        changes[name] = spec.check(value)
    return replace(defaults, **changes)  # type: ignore[arg-type]
