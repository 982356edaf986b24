"""The game service: lobbies, seats, moves and their persistence, with no Telegram in sight.

Handlers decode an update and call one method of :class:`GameService`; it decides who may do
what, checks, applies, commits (with what must be announced, in the same transaction), and
returns, or raises a refusal (:mod:`bot.errors`). Sending is the publisher's job; SQL is the
storage layer's. May import the engine, the storage layer and the bot's models and words; never
telegram.

Each concern is a module, and each builds on the one before: the games in memory
(:mod:`.memory`), committing (:mod:`.commits`), the game's messages and place (:mod:`.chats`),
lobbies (:mod:`.lobby`), play (:mod:`.play`, with the moves nobody decides in
:mod:`.automoves`), and stopping, leaving and replacing (:mod:`.seats`).
"""

from __future__ import annotations

from .lobby import LobbyState
from .seats import Seats

__all__ = ["GameService", "LobbyState"]


class GameService(Seats):
    """Every change to a game goes through here, one transaction per accepted request."""
