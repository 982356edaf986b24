"""Pictures of the game, drawn with Pillow: pure functions from engine views to PNG bytes.

- :func:`render_table`: the group's picture, edited after every move.
- :func:`render_hand_result`: every hand laid open, the winner and the points, once a hand ends.
- :func:`render_hand`: one player's tiles, the playable ones standing out, for the private chat.
- :func:`render_match_end`: the final scores, ranked, and how each player's rating moved.
- :func:`render_scoreboard`: a group's players ranked, with medals.
- :func:`render_replay`: a finished hand move by move, as an animated GIF
  (:func:`replay_steps`: the same a frame at a time).
- :func:`signed`: how a signed figure is written (+12, 0, -6), in the pictures and, so that
  they agree, in the bot's texts.

Every word drawn comes from :class:`TableLabels`, which the bot fills from its catalogues.
"""

from __future__ import annotations

from .errors import FontNotFoundError, RenderError, UnknownThemeError, ViewMismatchError
from .hand import render_hand
from .labels import TableLabels
from .matchend import render_match_end
from .replay import render_replay, replay_steps
from .result import render_hand_result
from .scoreboard import ScoreboardLabels, ScoreboardRow, render_scoreboard, shared_places
from .seats import signed
from .table import render_table
from .themes import THEMES

__all__ = [
    "THEMES",
    "FontNotFoundError",
    "RenderError",
    "ScoreboardLabels",
    "ScoreboardRow",
    "TableLabels",
    "UnknownThemeError",
    "ViewMismatchError",
    "render_hand",
    "render_hand_result",
    "render_match_end",
    "render_replay",
    "replay_steps",
    "render_scoreboard",
    "render_table",
    "shared_places",
    "signed",
]
