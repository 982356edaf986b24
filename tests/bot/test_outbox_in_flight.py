"""An announcement is marked in flight before its send: a later life of the bot drops one it
finds so (perhaps shown), and a send surely not made leaves no mark."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.gamemessages import Messages
from bot.models import Game, Outgoing, Player, Status
from bot.publishing.outbox import Outbox
from bot.publishing.ratelimit import StoppingError
from bot.service.locks import Locks
from bot.storage import Storage


class Messenger:
    def __init__(self, error: BaseException | None = None) -> None:
        self.error = error
        self.sent: list[str] = []

    async def send(self, chat_id: int, text: str, *args: Any) -> int:
        if self.error is not None:
            raise self.error
        self.sent.append(text)
        return len(self.sent)


async def queued(storage: Storage) -> int:
    game = Game(0, -100, Status.PLAYING, "gaple", {}, 1, [Player(1, "Ayu")], None, 0, "en",
                Messages())
    game.game_id = await storage.insert_game(game, 0.0)
    await storage.save_players(game, [Outgoing("The match is over")], 1.0)
    return game.game_id


def outbox(storage: Storage, messenger: Messenger) -> Outbox:
    service = SimpleNamespace(storage=storage, game=lambda game_id: None)
    return Outbox(messenger, service, Locks())  # type: ignore[arg-type]


@pytest.mark.parametrize("error", [asyncio.CancelledError(), StoppingError()])
async def test_a_stop_during_the_send_leaves_it_sent_at_most_once(
        database: Path | str, error: BaseException) -> None:
    """Cancelled mid-send (as a SIGKILL cuts the process there): perhaps shown. A stop
    before the call left (StoppingError): surely not, the next life sends it."""
    storage = Storage(database)
    await storage.open()
    game_id = await queued(storage)
    with pytest.raises(type(error)):
        await outbox(storage, Messenger(error)).drain(game_id)
    later = Messenger()  # the next life of the bot
    await outbox(storage, later).drain(game_id)
    assert later.sent == ([] if isinstance(error, asyncio.CancelledError)
                          else ["The match is over"])
    assert await storage.pending_outbox(game_id) == []
    await storage.close()
