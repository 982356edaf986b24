"""An announcement is marked in flight before its send: a later life of the bot drops one it
finds so (perhaps shown), and a send surely not made leaves no mark."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_games import people_storage, service_for, started_game

from bot.gamemessages import Messages
from bot.models import Game, Outgoing, Player, Status
from bot.presentation.gamebuttons import ReplaceAway
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


async def test_an_offer_sent_while_its_group_moves_to_a_supergroup_is_not_kept_there(
        database: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review: an away offer posted in the old group while the group's move to a supergroup
    was being saved was kept with the moved game; its id named another message in the
    supergroup, which the offer's clean-up (its player back) would have deleted."""
    async with people_storage(database) as storage:
        service = service_for(storage)
        game = await started_game(service)
        old, new = game.chat_id, -100200300
        offer = ReplaceAway(game.game_id, 1).encode()
        await storage.save_players(game, [Outgoing("Bob seems to be away",
                                                   buttons=[[["Hand on", offer]]])], 1.0)
        messenger = Messenger()
        box = Outbox(messenger, service, Locks())  # type: ignore[arg-type]
        moved = asyncio.Event()
        migrate, done = storage.migrate_chat, storage.outbox_done
        draining: list[asyncio.Task[bool]] = []

        async def migrating(old: int, new: int) -> None:  # the offer goes out meanwhile
            draining.append(asyncio.create_task(box.drain(game.game_id)))
            while not messenger.sent:
                await asyncio.sleep(0)
            await migrate(old, new)

        async def marked_done(item_id: int) -> None:  # (its mark, a write, takes a moment)
            await moved.wait()
            await done(item_id)

        monkeypatch.setattr(storage, "migrate_chat", migrating)
        monkeypatch.setattr(storage, "outbox_done", marked_done)
        await service.migrate_chat(old, new)
        moved.set()
        await draining[0]
        assert game.chat_id == new
        assert game.messages.offers == [] and game.messages.offer_seats == {}
