"""Per-group settings: the house rules a group plays each game by, its turn timer, its
language, and whether computer players appear on its scoreboard.

Stored as JSON per chat (``{"games": {game: {option: value}}, ...}``). A new table takes them;
one already open (a lobby too) keeps what it opened with. Each game's options and their
choices are its variant's; a stored value the variant no longer accepts is dropped when read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from engine import BadInputError, variant

from ..gamebook import GAMES
from ..i18n import LANGUAGES
from ..storedjson import dumps, json_object

TURN_CHOICES: tuple[int, ...] = (30, 60, 90, 120, 180, 300, 0)  # 0: no timer
DEFAULT_TURN_SECONDS = 90

# The settings that are not a game's: their choices, in menu order.
GENERAL: dict[str, tuple[Any, ...]] = {
    "default_game": (None, *GAMES),  # None: /newgame asks which game
    "turn_seconds": TURN_CHOICES,
    "language": (None, *LANGUAGES),  # None: automatic (``GroupSettings.auto_language``)
    "rank_computers": (False, True),
}


@dataclass(frozen=True, slots=True)
class GroupSettings:
    default_game: str | None = None
    turn_seconds: int = DEFAULT_TURN_SECONDS
    #: An admin's choice (None: automatic). Before ``auto_language`` existed the first table
    #: stored its opener's here: such a group keeps it, as if chosen.
    language: str | None = None
    rank_computers: bool = False  # computer players on the scoreboard
    games: Mapping[str, Mapping[str, object]] = field(default_factory=dict)  # chosen options
    #: The language spoken when no admin chose one: that of whoever added the bot, when the
    #: bot speaks it (the group's welcome was in it), else of the first table that started.
    auto_language: str | None = None

    @property
    def spoken(self) -> str | None:
        """The group's language: an admin's choice, else the automatic one; None until the
        group has one (each person is then answered in their own)."""
        return self.language or self.auto_language

    def to_json(self) -> str:
        data: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)}
        data["games"] = {game: dict(chosen) for game, chosen in self.games.items() if chosen}
        return dumps(data)

    @classmethod
    def from_json(cls, text: str | None) -> GroupSettings:
        """Read stored settings, keeping only known keys with valid values."""
        data = json_object(text)
        clean: dict[str, Any] = {
            k: v for k, v in data.items() if k in GENERAL and _is_choice(v, GENERAL[k])
        }
        games = data.get("games")
        chosen: dict[str, dict[str, object]] = {}
        if isinstance(games, dict):
            for game, options in games.items():
                if game in GAMES and isinstance(options, dict):
                    valid = {k: v for k, v in options.items() if accepts(game, k, v)}
                    if valid:
                        chosen[game] = valid
        auto = data.get("auto_language")
        return cls(games=chosen, auto_language=auto if auto in LANGUAGES else None, **clean)

    def game_options(self, game: str) -> dict[str, object]:
        """The engine options these settings give ``game``: what the group chose for it."""
        return dict(self.games.get(game, {}))

    def option(self, game: str, name: str) -> object:
        """The value a new table of ``game`` takes for option ``name``: the group's choice,
        else the game's own default (for the game's smallest table)."""
        chosen = self.games.get(game, {})
        if name in chosen:
            return chosen[name]
        spec = variant(game)
        return spec.default_options(spec.seat_counts[0]).get(name)

    def with_general(self, name: str, value: Any) -> GroupSettings:
        if name not in GENERAL or not _is_choice(value, GENERAL[name]):
            raise BadInputError(f"{name} cannot be {value!r}")
        changes: dict[str, Any] = {name: value}
        return replace(self, **changes)

    def with_option(self, game: str, name: str, value: object | None) -> GroupSettings:
        """These settings with ``game``'s option ``name`` set to ``value`` (None: the game's
        own default again)."""
        chosen = dict(self.games.get(game, {}))
        if value is None:
            chosen.pop(name, None)
        elif accepts(game, name, value):
            chosen[name] = value
        else:
            raise BadInputError(f"{game}: {name} cannot be {value!r}")
        games = {g: o for g, o in self.games.items() if g != game}
        if chosen:
            games[game] = chosen
        return replace(self, games=games)


def accepts(game: str, name: str, value: object) -> bool:
    """Whether a table of ``game`` (of any size it is played by) takes ``name=value``."""
    spec = variant(game)
    if name not in {option.name for option in spec.option_specs}:
        return False
    for seats in spec.seat_counts:
        try:
            spec.options({name: value}, seats)
        except BadInputError:
            continue
        return True
    return False


def _is_choice(value: object, choices: tuple[Any, ...]) -> bool:
    # 1 must not pass for True, nor True for 1.
    return any(type(value) is type(choice) and value == choice for choice in choices)
