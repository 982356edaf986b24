"""The levels by name: what the bot offers when it adds a computer player."""

from __future__ import annotations

from ..errors import BadInputError
from .players import HeuristicPlayer, Player, RandomPlayer
from .search import CountingPlayer, ExpertPlayer

LEVELS: dict[str, Player] = {
    "easy": RandomPlayer(),  # any legal move: beginners can win
    "normal": HeuristicPlayer(),  # a sound heuristic
    "hard": CountingPlayer(),  # counts tiles, imagines the hidden deal, searches
    "expert": ExpertPlayer(),  # the same, looking many times further
}


def player(level: str) -> Player:
    """The computer player of ``level``: ``"easy"``, ``"normal"``, ``"hard"`` or
    ``"expert"``.

    Players hold no state between decisions, so one of each serves every table. Raises
    :class:`BadInputError` for another name.
    """
    try:
        return LEVELS[level]
    except (KeyError, TypeError):
        raise BadInputError(f"unknown level {level!r}; known: {', '.join(LEVELS)}") from None
