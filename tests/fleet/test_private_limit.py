"""A private chat two workers send to: a person seated at tables whose groups are in shards of
different workers hears from each of them, none knowing the others' sends; each then keeps its
part of the chat's window, so that together they stay within Telegram's 3 in 3 seconds."""

from __future__ import annotations

import asyncio
import time
from contextlib import AsyncExitStack
from dataclasses import replace
from types import SimpleNamespace

import pytest
from fleet_kit import game_moves, seated
from fleet_pg import database  # noqa: F401  (a fixture)

from bot.app import build_application, running
from bot.config import BotConfig
from bot.fleet.routing import shard_of
from bot.fleet.settings import WORKER_KEY, FleetSettings
from bot.fleet.worker import FleetWorker
from bot.models import Game, Status
from bot.publishing.fleetshares import for_update
from bot.publishing.floodwindows import Limits
from bot.publishing.ratelimit import FloodLimiter
from bot.serving.webserver import HttpSettings
from bot.storage import Storage
from bot.storage import fleet as sql
from fakeapi import FakeTelegramServer

SHARDS = 4


async def test_each_of_two_senders_keeps_its_part_of_a_private_window() -> None:
    # A period of a second: the bounds below leave the loop most of a second of slack, so a
    # loaded machine does not fail them (the lower bounds hold on any machine: no wait ends
    # early).
    limiter = FloodLimiter(Limits(private=(3, 1.0)))
    senders = {42: 2, 43: 1}

    async def count(chat: int) -> int:
        return senders[chat]

    limiter.senders = count
    sent: list[tuple[int, float]] = []

    async def call(chat: int) -> bool:
        sent.append((chat, time.monotonic()))
        return True

    async def send(chat: int) -> object:
        return await limiter.process_request(call, (chat,), {}, "sendMessage",
                                             {"chat_id": chat}, None)

    started = time.monotonic()
    await asyncio.gather(*(send(43) for _ in range(3)), *(send(42) for _ in range(2)))
    alone = [at - started for chat, at in sent if chat == 43]
    shared = [at - started for chat, at in sent if chat == 42]
    assert max(alone) < 0.7  # this worker alone: the whole window at once
    # Two senders: one each in any second (replies made for no game: not held back, below).
    assert shared[0] < 0.7 and shared[1] > 0.95
    # The other table ended: the whole window again, but only a period later, since the
    # other worker may have sent its part just now (four in a window, once, in the fleet's
    # end-to-end run: a worker that took a dead one's shard over sent at once).
    senders[42] = 1
    before = len(sent)
    changed = time.monotonic()
    await asyncio.wait_for(asyncio.gather(*(send(42) for _ in range(3))), 4.0)
    again = sorted(at - changed for chat, at in sent[before:])
    assert len(again) == 3
    assert again[0] > 0.95  # the slot the other worker had is not used at once
    assert again[-1] - again[0] < 0.7  # then the whole window: three together


async def test_a_worker_counts_the_owners_of_a_persons_other_tables(
        database: str) -> None:  # noqa: F811
    async with FakeTelegramServer() as server, AsyncExitStack() as stack:
        config = BotConfig(token=server.token, api_base_url=server.api_root,
                           database_url=database)
        plain = HttpSettings(None, "fleet_secret", "127.0.0.1", None)
        workers: dict[str, FleetWorker] = {}
        for name in ("a", "b"):
            app = build_application(config, http=plain, fleet=FleetSettings(
                database, SHARDS, name, tick=0.2, poll=0.5))
            await stack.enter_async_context(running(app))
            workers[name] = app.bot_data[WORKER_KEY]
        deadline = time.monotonic() + 10
        while not all(len(w.keeper.owned) == SHARDS // 2 for w in workers.values()):
            assert time.monotonic() < deadline, "the shards were never split"
            await asyncio.sleep(0.05)
        a, b = workers["a"], workers["b"]
        in_a = next(-c for c in range(1000, 1100) if shard_of(-c, SHARDS) in a.keeper.owned)
        in_b = next(-c for c in range(1000, 1100) if shard_of(-c, SHARDS) in b.keeper.owned)
        storage = Storage(database)
        await storage.open()
        try:
            await storage.insert_game(seated(in_a, 7, 8), time.time())
            await storage.insert_game(seated(in_b, 7), time.time())
        finally:
            await storage.close()
        assert await sql.chats_of_player(a.pool, 7) == [in_b, in_a]
        assert await a._senders(7) == 2 and await b._senders(7) == 2  # seated in both
        assert await a._senders(8) == 1  # only at a's table
        assert await b._senders(8) == 2  # b may answer them too (their /start): a sends
        assert await a._senders(9) == 1  # seated nowhere
        # a takes b's shard (b died): while it loads the shard's games, the shard is its own
        # already (its keeper counts it owned only after), so the person of those tables
        # alone is one sender, not two for six seconds.
        a.holding |= {shard_of(in_b, SHARDS)}
        a._senders_of.clear()
        assert await a._senders(7) == 1
        # The database gone: the last count is kept for a period, not asked again by every
        # call waiting to go there.
        asked: list[int] = []

        async def down(pool: object, user_id: int) -> list[int]:
            asked.append(user_id)
            raise ConnectionRefusedError(111, "refused")

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sql, "chats_of_player", down)
            a._senders_of[7] = (2, time.monotonic() - 1)  # its period over
            assert [await a._senders(7) for _ in range(5)] == [2] * 5
            assert asked == [7]


async def test_a_chat_taken_over_waits_a_window_whatever_this_worker_sent_long_ago() -> None:
    # Seen in the fleet's end-to-end run: worker 1 had sent to a person long before (the
    # lobby, when it held every shard), gave the table's shard away, and took it back when
    # its new owner died right after three sends there. Those old sends, expired but still
    # kept, made its window look full already, so nothing was counted for the dead owner's
    # and it sent a fourth within 3 s.
    now = [0.0]
    limiter = FloodLimiter(Limits(), clock=lambda: now[0])

    async def call(chat: int) -> bool:
        return True

    for _ in range(3):
        await limiter.process_request(call, (7,), {}, "sendMessage", {"chat_id": 7}, None)
    limiter.share_private(7, 2)  # (and its part was one of two then)
    now[0] = 30.0  # long after: the new owner sent three just now, and died
    limiter.taken_over(7)
    limiter.share_private(7, 1)  # now this worker's alone
    assert not limiter.free_now(7)
    now[0] = 32.9
    assert not limiter.free_now(7)
    now[0] = 33.1
    assert limiter.free_now(7)


async def test_a_finished_game_taken_with_its_last_words_left_counts_its_chats_full() -> None:
    # A game that ended just before its owner died (its last hands and announcement left to
    # send) is synced by the shard's next owner too: that owner's window of each of its
    # chats starts full, as an open game's does.
    limiter = FloodLimiter(Limits())
    ended = replace(seated(-1001, 7, 8), game_id=5, status=Status.FINISHED)

    async def reload(game_id: int) -> Game:
        return ended

    requested: list[int] = []
    moves = game_moves(limiter, SimpleNamespace(game=lambda game_id: None, reload=reload),
                       requested, SHARDS)
    assert limiter.free_now(7) and limiter.free_now(-1001)
    await moves._run_games([], {5})
    assert requested == [5]
    assert not any(limiter.free_now(chat) for chat in (7, 8, -1001))


async def test_a_worker_taking_a_shard_counts_the_private_chats_in_it_full() -> None:
    # The shard's last owner answered its people's commands until it let it go (a /start's
    # greeting in flight as it gave the shard away): their windows here, kept or made within
    # a period, count the whole window used as of the take; those of other shards do not.
    now = [0.0]
    limiter = FloodLimiter(Limits(), clock=lambda: now[0])

    async def none(*args: object, **kwargs: object) -> list[Game]:
        return []

    async def answer() -> bool:
        return True
    worker = FleetWorker.__new__(FleetWorker)
    worker.rt = SimpleNamespace(  # type: ignore[assignment]
        limiter=limiter, service=SimpleNamespace(load_open_games=none, outbox_games=none,
                                                 closed_lately=none),
        status_lines=SimpleNamespace(loaded=lambda games: None),
        timers=SimpleNamespace(resume=none))
    worker.settings = SimpleNamespace(shards=SHARDS)  # type: ignore[assignment]
    worker.feeder = SimpleNamespace(own=lambda shards: None)  # type: ignore[assignment]
    worker.keeper = SimpleNamespace(owned=frozenset())  # type: ignore[assignment]
    worker.holding, worker._senders_of = frozenset(), {}
    kept, made, elsewhere = 9, 13, 8  # (shards 1, 1 and 0)
    await limiter.process_request(answer, (), {}, "sendPhoto", {"chat_id": kept}, None)
    now[0] = 1.0
    limiter.refuse_handlers({1})  # (given away before)
    await worker.take(frozenset({1}))
    now[0] = 2.0
    assert not limiter.free_now(kept) and not limiter.free_now(made)
    with for_update(1):
        assert limiter.free_now(elsewhere)
    now[0] = 4.0
    assert limiter.free_now(kept) and limiter.free_now(made)
