"""How long a tap takes to show: from the update's arrival to its answer, and to the group's
table edited with the move it played.

The first handler of every update stamps its arrival (:func:`arrived`, a context variable:
each update is handled in its own task). A move committed in that task remembers the stamp
for its game (:meth:`TableLatency.moved`); the group's sync that then shows the table at that
move or later reports it (:meth:`TableLatency.shown`). Moves nobody tapped (a computer's, a
timer's) carry no stamp and are not measured.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from contextvars import ContextVar

from .metrics import Metrics

_arrival: ContextVar[float | None] = ContextVar("update_arrival", default=None)
#: Games whose taps wait to be shown, at most (the oldest are forgotten: games that ended).
GAMES_TRACKED = 1024
TAPS_PER_GAME = 32


def stamp_arrival() -> None:
    """The update being handled arrived now (its first handler calls this)."""
    _arrival.set(time.monotonic())


def arrived() -> float | None:
    """When the update being handled arrived (time.monotonic()), if it was stamped."""
    return _arrival.get()


class TableLatency:
    """Taps waiting for the group's table to show their move, per game."""

    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics
        self._waiting: OrderedDict[int, list[tuple[int, float]]] = OrderedDict()

    def moved(self, game_id: int, move_no: int) -> None:
        """A move was committed: if a tap played it, its table is now awaited."""
        tapped = arrived()
        if tapped is None:
            return
        waiting = self._waiting.setdefault(game_id, [])
        waiting.append((move_no, tapped))
        del waiting[:-TAPS_PER_GAME]
        self._waiting.move_to_end(game_id)
        while len(self._waiting) > GAMES_TRACKED:
            self._waiting.popitem(last=False)

    def shown(self, game_id: int, move_no: int) -> None:
        """The group's table of ``game_id`` now shows the game at ``move_no``."""
        waiting = self._waiting.get(game_id)
        if not waiting:
            return
        now = time.monotonic()
        for number, tapped in waiting:
            if number <= move_no:
                self._metrics.table_edited(now - tapped)
        left = [(number, tapped) for number, tapped in waiting if number > move_no]
        if left:
            self._waiting[game_id] = left
        else:
            del self._waiting[game_id]
