"""Computer players: recognisable names, one fixed identity per name so the scoreboard can
follow them from game to game (it hides them from the human ranking unless asked)."""

from __future__ import annotations

from collections.abc import Collection

from .errors import UserError
from .i18n import N_
from .models import Player

COMPUTER_NAMES = {
    "easy": ("Kiwi", "Momo", "Bit", "Nib"),
    "normal": ("Rio", "Zeno", "Nova", "Juno"),
    "hard": ("Oracle", "Atlas", "Abacus", "Sage"),
    "expert": ("Euler", "Gauss", "Noether", "Turing"),
}


COMPUTER_LEVELS = tuple(COMPUTER_NAMES)  # the lobby buttons carry an index into this


def computer(level: str, taken: set[int], elsewhere: Collection[int] = ()) -> Player:
    """The first computer player of ``level`` whose identity is not already seated at its
    table (``taken``), preferring one not seated at the group's other open tables either
    (``elsewhere``: player QA, two topics' tables both had a "🤖 Rio"); when every free one
    plays elsewhere, the first free one."""
    base = {"easy": 100, "normal": 200, "hard": 300, "expert": 400}[level]
    free = [Player(-(base + index + 1), f"🤖 {name}", level)
            for index, name in enumerate(COMPUTER_NAMES[level])
            if -(base + index + 1) not in taken]
    if not free:
        raise UserError(N_("No more computer players of that level are free."))
    return next((p for p in free if p.user_id not in elsewhere), free[0])
