"""What a game's place asks of the service: the messages it keeps (questions asked and
answered), a forum topic closed or deleted, a group that became a supergroup."""

from __future__ import annotations

from ..models import Game, Status
from .commits import Commits


class Chats(Commits):
    """The game's messages and its place in Telegram."""

    async def save_messages(self, game: Game) -> None:
        await self.storage.save_messages(game)

    async def asked(self, game_id: int, message_id: int) -> None:
        """A /stop or /leave question was posted: it is closed when the game ends (at once
        when it ended while the question was on its way)."""
        game = await self.hold(game_id)
        if game is None:
            return
        game.messages.questions.append(message_id)
        await self.storage.save_messages(game)
        if not game.status.open:  # ended meanwhile: the sync closes it now (a running game's
            self._changed(game)   # timers are left alone: a computer's move is not re-armed)

    async def answered(self, game: Game, message_id: int) -> None:
        """A question was answered (and taken away): nothing is left to close there."""
        if message_id in game.messages.questions:
            game.messages.questions.remove(message_id)
            await self.storage.save_messages(game)

    async def topic_gone(self, game: Game, thread_id: int, deleted: bool) -> bool:
        """The game's topic was closed or deleted: the game ends with no result, its last
        words go to the General topic instead, and its messages in the topic are forgotten.
        False when that was already done (or the game has moved on)."""
        if not game.status.open or game.thread_id != thread_id:
            return False
        status = Status.STOPPED if game.status is Status.PLAYING else Status.CANCELLED
        game.thread_id = None
        game.messages.lobby = game.messages.table = None
        game.messages.topic_gone = True
        try:
            await self._set_status(game, status, self.composer.topic_gone(game, deleted),
                                   drop_outbox=True)
        except BaseException:
            await self.reload(game.game_id)
            raise
        return True

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        await self.storage.migrate_chat(old_chat_id, new_chat_id)
        for game in list(self._by_id.values()):
            if game.chat_id == old_chat_id:
                game.chat_id = new_chat_id
                self._remember(game)
                self._changed(game)
