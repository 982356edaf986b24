"""The games the engine plays, found by name: ``variant("pair")``."""

from __future__ import annotations

from ..errors import BadInputError
from .base import HandScore, Opening, PreviousHand, Variant
from .gaple import Gaple
from .gaple_dead import GapleDead
from .pair import Pair

VARIANTS: dict[str, Variant] = {v.name: v for v in (GapleDead(), Gaple(), Pair())}


def variant(name: object) -> Variant:
    """The game called ``name``. Raises :class:`BadInputError` for an unknown name."""
    if not isinstance(name, str) or name not in VARIANTS:
        raise BadInputError(f"unknown game {name!r}; known: {', '.join(VARIANTS)}")
    return VARIANTS[name]


__all__ = ["VARIANTS", "HandScore", "Opening", "PreviousHand", "Variant", "variant"]
