"""The game service: lobbies, seats, moves and their persistence, with no Telegram in sight.

Handlers decode an update and call one method of :class:`GameService`; it decides who may do
what, checks, applies, commits (with what must be announced, in the same transaction), and
returns, or raises a refusal (:mod:`bot.errors`). Sending is the publisher's job; SQL is the
storage layer's. May import the engine, ``bot.storage``, openskill and the shared modules of
``bot`` (errors, i18n, models, gamebook, refusals, wording); never telegram, the presentation
(the texts reach it through the :class:`~bot.models.Composer` it is given), the publishing or
the handlers.

Each concern is a module, and each builds on the one before: the games in memory
(:mod:`.memory`), committing (:mod:`.commits`), the game's messages and place (:mod:`.chats`),
lobbies (:mod:`.lobby`), play (:mod:`.play`; the moves nobody decides are the engine's:
``Match.play_forced``), stopping, leaving and replacing (:mod:`.seats`), and a seat taken
back by the player it was handed on from while away (:mod:`.returns`). Beside them: a
group's settings (:mod:`.settings`), the per-game locks (:mod:`.locks`), the computer players'
process pool (:mod:`.thinker`), ratings (:mod:`.ratings`) and scoreboards
(:mod:`.scoreboards`).
"""

from __future__ import annotations

from .lobby import LobbyState
from .returns import Returns
from .scoreboards import PlayerStats, Scoreboard, player_stats, scoreboard

__all__ = ["GameService", "LobbyState"]


class GameService(Returns):
    """Every change to a game goes through here, one transaction per accepted request."""

    async def scoreboard(self, chat_id: int, game: str | None, since: float | None, *,
                         include_computers: bool) -> Scoreboard:
        """The group's players ranked over its finished matches (see :func:`scoreboard`)."""
        return await scoreboard(self.storage, chat_id, game, since,
                                include_computers=include_computers)

    async def player_stats(self, user_id: int, name: str) -> PlayerStats:
        """One player's figures per game over every group (see :func:`player_stats`)."""
        return await player_stats(self.storage, user_id, name)
