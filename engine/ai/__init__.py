"""Computer players and the safeguard move. They see only a seat's :class:`PlayerView`."""

from __future__ import annotations

from .safe import safest_action

__all__ = ["safest_action"]
