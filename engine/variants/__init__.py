"""The games the engine plays, found by name or alias: ``variant("pair")``."""

from __future__ import annotations

from ..errors import UnknownGameError, shown
from .base import Variant
from .bergen import Bergen
from .french import French
from .gaple import Gaple
from .gaple_dead import GapleDead
from .kolbasa import Kolbasa
from .matador import Matador
from .muggins import Muggins
from .pair import Pair
from .six_matador import SixMatador

# In display order: the bot's menus and the benchmarks list the games this way.
VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Gaple(), GapleDead(), Pair(), Kolbasa(), Matador(), SixMatador(), French(), Muggins(),
        Bergen(),
    )
}


def _key(name: str) -> str:
    """A name as typed, made comparable: case, hyphens, underscores and spaces do not count."""
    return "-".join(name.strip().lower().replace("_", " ").replace("-", " ").split())


_BY_NAME: dict[str, Variant] = {}
for _game in VARIANTS.values():
    for _name in (_game.name, *_game.aliases):
        assert _key(_name) not in _BY_NAME, f"{_name!r} names two games"
        _BY_NAME[_key(_name)] = _game


def variant(name: object) -> Variant:
    """The game called ``name`` or one of its aliases, in any case; ``-``, ``_`` and a space
    count the same. Raises :class:`UnknownGameError` (a BadInputError) for an unknown name."""
    found = _BY_NAME.get(_key(name)) if isinstance(name, str) else None
    if found is None:
        raise UnknownGameError(f"unknown game {shown(name)}; known: {', '.join(VARIANTS)}", name)
    return found


__all__ = ["VARIANTS", "Variant", "variant"]
