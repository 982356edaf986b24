"""Per-group settings: the house rules a group plays by, its turn timer and its language.

Stored as JSON per chat. A new game takes them; a running game keeps what it started with.
Each setting cycles through a short list of choices, so the menu is one tap per change.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from engine import variant

from .i18n import LANGUAGES

GAME_CHOICES: tuple[str | None, ...] = (None, "gaple", "gaple-dead", "pair")
TARGET_CHOICES: tuple[int | None, ...] = (None, 50, 100, 101, 150, 200, 250)
TURN_CHOICES: tuple[int, ...] = (90, 120, 180, 300, 0, 30, 60)  # 0: no timer
DEFAULT_TURN_SECONDS = 90


@dataclass(frozen=True, slots=True)
class GroupSettings:
    default_game: str | None = None  # None: /newgame asks which game
    target: int | None = None  # None: the game's own target
    turn_seconds: int = DEFAULT_TURN_SECONDS
    language: str | None = None  # None until the first table: then its opener's language
    deal: int = 6
    dead_tiles: bool = True
    blank_double_25: bool = False
    first_lead: str = "6-6"
    block_count: str = "opponents"
    rank_computers: bool = False  # computer players on the scoreboard

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | None) -> GroupSettings:
        """Read stored settings, keeping only known keys with valid values."""
        try:
            data = json.loads(text or "{}")
        except ValueError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        base = cls()
        known = {f.name for f in fields(cls)}
        clean = {k: v for k, v in data.items() if k in known and _valid(k, v)}
        return replace(base, **clean)

    def game_options(self, game: str) -> dict[str, Any]:
        """The engine options these settings give ``game`` (only those it accepts)."""
        accepted = variant(game).option_names
        options: dict[str, Any] = {}
        if self.target is not None:
            options["target"] = self.target
        for name in ("deal", "dead_tiles", "blank_double_25", "first_lead", "block_count"):
            if name in accepted and getattr(self, name) != getattr(GroupSettings(), name):
                options[name] = getattr(self, name)
        return options

    def cycled(self, name: str) -> GroupSettings:
        """These settings with ``name`` moved to its next choice."""
        choices = CHOICES[name]
        current = getattr(self, name)
        following = choices[(choices.index(current) + 1) % len(choices)]
        return replace(self, **{name: following})


CHOICES: dict[str, tuple[Any, ...]] = {
    "default_game": GAME_CHOICES,
    "target": TARGET_CHOICES,
    "turn_seconds": TURN_CHOICES,
    "language": (None, *LANGUAGES),
    "deal": (6, 7),
    "dead_tiles": (True, False),
    "blank_double_25": (False, True),
    "first_lead": ("6-6", "lot"),
    "block_count": ("opponents", "all"),
    "rank_computers": (False, True),
}
# Short codes for callback data (a button carries at most 64 bytes).
CODES = {
    "game": "default_game", "target": "target", "turn": "turn_seconds", "lang": "language",
    "deal": "deal", "dead": "dead_tiles", "b25": "blank_double_25", "lead": "first_lead",
    "block": "block_count", "ai": "rank_computers",
}


def _valid(name: str, value: object) -> bool:
    # 1 must not pass for True, nor True for 1.
    return any(type(value) is type(choice) and value == choice for choice in CHOICES[name])
