"""The lobby's calls, the away offers and the questions a sync takes off while the group
becomes a supergroup in the middle of it (CI: "list.remove(x): x not in list", the sync
failing): whatever the move forgot is left alone, and no old message id is used in the new
chat, where the same number names another message."""

from __future__ import annotations

from typing import Any

from bot.gamemessages import Messages
from bot.models import Game, Player, Status
from bot.publishing.questions import close_offers, close_questions, delete_calls

OLD, NEW = -100, -1001234567890


class MovingMessenger:
    """Each call is recorded; the first one moves the game to the supergroup, as
    ``migrate_chat`` does while the call is in flight."""

    def __init__(self, game: Game) -> None:
        self.game, self.calls = game, []  # type: ignore[var-annotated]

    async def _call(self, what: str, chat_id: int, message_id: int) -> None:
        self.calls.append((what, chat_id, message_id))
        messages = self.game.messages
        messages.calls.clear()
        messages.offers.clear()
        messages.questions.clear()
        self.game.chat_id = NEW

    async def delete(self, chat_id: int, message_id: int) -> None:
        await self._call("delete", chat_id, message_id)

    async def unbutton(self, chat_id: int, message_id: int) -> None:
        await self._call("unbutton", chat_id, message_id)

    async def edit(self, chat_id: int, message_id: int, draft: Any) -> None:
        await self._call("edit", chat_id, message_id)


def game(status: Status) -> Game:
    return Game(1, OLD, status, "gaple", {}, 1, [Player(1, "Ann")], None, 5, "en",
                Messages(calls=[11, 12], offers=[21, 22], questions=[31, 32]))


async def test_a_sync_goes_on_when_the_group_moves_under_it() -> None:
    for close, what in ((delete_calls, "delete"), (close_offers, "unbutton"),
                        (close_questions, "edit")):
        moving = game(Status.FINISHED)
        messenger = MovingMessenger(moving)
        assert await close(messenger, moving)  # type: ignore[arg-type]
        assert messenger.calls == [(what, OLD, {"delete": 11, "unbutton": 21, "edit": 31}[what])]
