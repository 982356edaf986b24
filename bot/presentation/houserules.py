"""A game's house rules in words: the /settings menu's labels of its options, and the line
/rules adds in a group whose admins chose some (player QA: /rules said Bergen goes to 15 in a
group that plays it to 21)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import variant

from ..gamebook import presentation
from ..i18n import N_, Translator

TARGET_LABEL = N_("Target: {value}")
#: A game's target when the group chose none (its number follows).
GAME_DEFAULT = N_("game default")
#: /rules in a group, after the game's own rules: what this group plays differently.
HOUSE_RULES = N_("<b>In this group:</b> {rules}.")


def game_value(t: Translator, game: str, name: str, value: Any) -> str:
    """The words of a choice of ``game``'s option ``name`` (a target of None: the game's)."""
    if name == "target":
        if value is not None:
            return str(value)
        spec = variant(game)  # (its number said: admins could not tell it, QA; Bergen's 15 / 10)
        defaults = dict.fromkeys(spec.default_target(seats) for seats in spec.seat_counts)
        return f"{t(GAME_DEFAULT)} ({' / '.join(map(str, defaults))})"
    return t(presentation(game).options[name].choices[value])


def game_label(t: Translator, game: str, name: str, value: Any) -> str:
    """An option of ``game`` with its value, as the menu's line and button say it."""
    label = TARGET_LABEL if name == "target" else presentation(game).options[name].label
    return t(label, value=game_value(t, game, name, value))


def house_rules(t: Translator, game: str, chosen: Mapping[str, object]) -> str:
    """The line that says what a group chose for ``game`` (``chosen``: its options, as the
    group's settings hold them), in the menu's order; nothing where it chose none."""
    names = [option.name for option in variant(game).option_specs if option.name in chosen]
    if not names:
        return ""
    return t(HOUSE_RULES, rules="; ".join(game_label(t, game, name, chosen[name])
                                          for name in names))
