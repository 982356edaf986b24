"""Game options: declared per variant, validated once, then frozen."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from .errors import BadInputError


@dataclass(frozen=True, slots=True)
class Options:
    """Every option any variant knows; a variant accepts only the ones it declares."""

    set: int = 6
    target: int = 100
    deal: int = 6
    dead_tiles: bool = True
    blank_double_25: bool = False
    first_lead: str = "6-6"
    block_count: str = "opponents"

    def to_dict(self, names: tuple[str, ...]) -> dict[str, object]:
        return {name: getattr(self, name) for name in names}


OPTION_NAMES = tuple(f.name for f in fields(Options))

_CHOICES: dict[str, tuple[object, ...]] = {
    "set": (6, 9, 12),
    "deal": (5, 6, 7),
    "dead_tiles": (True, False),
    "blank_double_25": (True, False),
    "first_lead": ("6-6", "lot"),
    "block_count": ("opponents", "all"),
}


def _valid(name: str, value: object) -> bool:
    if name == "target":
        return type(value) is int and value > 0
    choices = _CHOICES[name]
    # bool is an int subclass: 1 must not pass for True, nor True for 1.
    return any(type(value) is type(choice) and value == choice for choice in choices)


def build_options(
    given: Mapping[str, object], accepted: tuple[str, ...], defaults: Options
) -> Options:
    """Validate ``given`` against the variant's ``accepted`` names and fill in defaults.

    Raises :class:`BadInputError` for an unknown option or a value it cannot take.
    """
    if not isinstance(given, Mapping):
        raise BadInputError("options must be an object")
    changes: dict[str, object] = {}
    for name, value in given.items():
        if name not in accepted:
            raise BadInputError(f"unknown option {name!r}")
        if not _valid(name, value):
            raise BadInputError(f"option {name!r} cannot be {value!r}")
        changes[name] = value
    return replace(defaults, **changes)  # type: ignore[arg-type]
