"""A rematch's private messages, kept up to date by the hands channel: each invitation
("🔁 … your seat is kept for you", with its Join) loses its button and says why once it
waits for its player no longer (they took the seat, it was freed, the table started or
closed); and the last hand of the match played again loses its "🔁 Play again" once the
rematch starts (player QA: both stayed live, a tap re-sent the hand or was refused).

Each message is edited once, then forgotten (:class:`bot.gamemessages.Messages` keeps the rest
over a restart); every edit goes through the private chat's limits as every call of the
bot does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..i18n import Translator, private_translator
from ..models import Game, Status
from ..presentation import lobbytexts
from ..service import GameService
from ..service.locks import Locks
from .messenger import Messenger


@dataclass(frozen=True, slots=True)
class Invitations:
    """The hands channel's edits of a rematch's invitations and old hands (see the module)."""

    messenger: Messenger
    service: GameService
    locks: Locks
    table_link: Callable[[Translator, Game], str]  # the way back to the game's table

    async def close_stale(self, game: Game) -> bool:
        """Take the button off each invitation that no longer waits for its player, and
        the Play again off the old hands once the rematch started; whether any message was
        let go (the caller saves the game's messages). One gone or in a chat closed to the
        bot counts as done; Telegram unanswered raises, and the next sync tries again."""
        messages = game.messages
        stale = [(user_id, message_id) for user_id, message_id in messages.invitations.items()
                 if game.status is not Status.LOBBY or user_id not in game.pending]
        for user_id, message_id in stale:
            t = private_translator(await self.service.storage.user_language(user_id),
                                   game.language)
            text = lobbytexts.invitation_closed(t, game, user_id, self.table_link(t, game))
            await self.messenger.unbutton(user_id, message_id, text, photo=False)
            async with self.locks.game(game.game_id):
                if messages.invitations.get(user_id) == message_id:
                    del messages.invitations[user_id]
        if game.status is Status.LOBBY or not messages.again_hands:
            return bool(stale)
        if game.match is not None:  # started: the old match plays again no more
            for user_id, message_id in list(messages.again_hands.items()):
                await self.messenger.unbutton(user_id, message_id)
                async with self.locks.game(game.game_id):
                    messages.again_hands.pop(user_id, None)
        else:  # closed before it started: the old match's Play again works again
            async with self.locks.game(game.game_id):
                messages.again_hands.clear()
        return True
