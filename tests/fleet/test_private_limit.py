"""A private chat two workers send to: a person seated at tables whose groups are in shards of
different workers hears from each of them, none knowing the others' sends; each then keeps its
part of the chat's window, so that together they stay within Telegram's 3 in 3 seconds."""

from __future__ import annotations

import asyncio
import math
import time
from contextlib import AsyncExitStack, nullcontext
from dataclasses import replace
from types import SimpleNamespace

import pytest
from fleet_pg import database  # noqa: F401  (a fixture)

from bot.app import build_application, running
from bot.config import BotConfig
from bot.fleet.moves import GameMoves
from bot.fleet.routing import shard_of
from bot.fleet.settings import WORKER_KEY, FleetSettings
from bot.fleet.worker import FleetWorker
from bot.models import Game, Messages, Player, Status
from bot.publishing.fleetshares import REFUSED_GAME_SECONDS, context_for_game, for_game, for_update
from bot.publishing.floodwindows import Limits
from bot.publishing.publisher import Publisher
from bot.publishing.ratelimit import FloodLimiter, StoppingError
from bot.publishing.tails import Tails
from bot.service.locks import Locks
from bot.serving.webserver import HttpSettings
from bot.storage import Storage
from bot.storage import fleet as sql
from fakeapi import FakeTelegramServer
from fakeapi.ratelimit import max_in_window

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


def seated(chat_id: int, *users: int) -> Game:
    players = [Player(user, f"P{user}") for user in users]
    return Game(0, chat_id, Status.LOBBY, "gaple", {}, 1, players, None, 0, "en", Messages())


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


async def test_a_hand_of_a_game_given_away_goes_no_more_once_the_next_owner_took_it() -> None:
    # Seen in the fleet's end-to-end run on a loaded machine: a worker gave a table's shard
    # away while a sync of its game was still drawing a hand (its group refused, but not its
    # players' private chats), evicted the game after the grace and let the lock go; the next
    # owner counted the person's window full as it took the shard, and sent its three a
    # window later, but the old owner's hand went out in between: four in 3 s.
    now = [0.0]
    arrived: list[tuple[str, float]] = []  # who sent to the person's chat, when
    old = FloodLimiter(Limits(), clock=lambda: now[0])
    new = FloodLimiter(Limits(), clock=lambda: now[0])
    group, person, game, other_game = -100, 7, 26, 27

    async def send(limiter: FloodLimiter, game_id: int | None = None) -> None:
        async def call() -> bool:
            arrived.append(("old" if limiter is old else "new", now[0]))
            return True

        with for_game(game_id) if game_id is not None else nullcontext():
            await limiter.process_request(call, (), {}, "sendPhoto", {"chat_id": person}, None)

    for _ in range(3):
        await send(old, game)
    hand = asyncio.create_task(send(old, game))  # the next round: waits for a slot
    await asyncio.sleep(0)
    now[0] = 1.0
    old.refuse({group}, {game: group})  # the shard given away
    new.taken_over(person)  # its next owner took it
    now[0] = 3.1  # the old owner's window has a slot again
    old._notify()
    with pytest.raises(StoppingError):  # (the hand went otherwise)
        await hand
    now[0] = 4.1
    for _ in range(3):
        await send(new, game)
    assert max_in_window(sorted(at for _, at in arrived), 3.0) == 3
    assert [who for who, _ in arrived] == ["old"] * 3 + ["new"] * 3

    # The old owner still serves the person otherwise: a reply, a table it keeps.
    now[0] = 10.0
    await send(old)
    await send(old, other_game)
    assert old.refused == {group}
    old.admit({group})  # the shard came back: its game's calls go again
    await send(old, game)
    assert len(arrived) == 9


async def test_a_games_syncs_make_their_calls_for_it_so_that_letting_it_go_stops_their_hands(
        ) -> None:
    # The publisher runs each sync of a game inside for_game: whatever chat its calls go to
    # (the hands: private chats, which this worker may still serve for other tables), a
    # worker that let the game go refuses them; the kept game's calls go.
    limiter = FloodLimiter(Limits())
    limiter.refuse(set(), {9: 1})  # game 9 let go (game 10 kept)
    results: dict[int, object] = {}

    async def answer() -> bool:
        return True

    class HandChannel:  # a game's hand sync: one hand to person 7
        async def sync(self, game_id: int) -> None:
            try:
                results[game_id] = await limiter.process_request(
                    answer, (), {}, "sendPhoto", {"chat_id": 7}, None)
            except StoppingError as refused:
                results[game_id] = refused
                raise

    publisher = SimpleNamespace(_dirty=set(), _channels={"hands": HandChannel()},
                                _tasks={(9, "hands"): None, (10, "hands"): None},
                                _stopping=asyncio.Event(), limiter=limiter)
    for game_id in (9, 10):
        await Publisher._run(publisher, (game_id, "hands"))  # type: ignore[arg-type]
    assert isinstance(results[9], StoppingError)
    assert results[10] is True


def _game_moves(limiter: FloodLimiter, service: object, requested: list[int]) -> GameMoves:
    """A worker's game moves over ``limiter`` and ``service``, holding every shard; the games
    whose syncs it requests go to ``requested``."""
    async def resume(games: object) -> None:
        return None

    moves = GameMoves()
    moves.rt = SimpleNamespace(  # type: ignore[assignment]
        status_lines=SimpleNamespace(loaded=lambda games: None), limiter=limiter,
        service=service, publisher=SimpleNamespace(request=requested.append),
        timers=SimpleNamespace(resume=resume))
    moves.settings = SimpleNamespace(shards=SHARDS)  # type: ignore[assignment]
    moves.holding = frozenset(range(SHARDS))
    return moves


def test_a_game_let_go_goes_again_when_it_runs_here_and_is_forgotten_after_a_while() -> None:
    now = [1000.0]
    limiter = FloodLimiter(Limits(), clock=lambda: now[0])
    limiter.refuse((), {9: -1001, 10: -1002})
    with for_game(9):
        assert not limiter.free_now(7)  # a hand of game 9, to person 7
    limiter.admit_games([9])  # (a supergroup's new id in a shard held here: runs here)
    with for_game(9):
        assert limiter.free_now(7)
    with for_game(10):
        assert not limiter.free_now(7)
    assert not context_for_game(10).run(limiter.free_now, 7)  # (a /notify delivery's task)
    now[0] += REFUSED_GAME_SECONDS  # long after game 10's giving away ended
    limiter.refuse((), {11: -1003})  # the next handover forgets it
    with for_game(10):
        assert limiter.free_now(7)
    with for_game(11):
        assert not limiter.free_now(7)
    assert limiter.refused == frozenset({-1003})


async def test_games_a_worker_runs_are_admitted_though_it_let_them_go_before() -> None:
    # Game 9 was let go from here (to another shard's owner, or its shard given away); now
    # it runs here again (its shard taken, or adopted under a supergroup's new id): its
    # syncs' calls go, or its players would see a table and hands that never move.
    limiter = FloodLimiter(Limits())
    limiter.refuse((), {9: -1001})
    requested: list[int] = []
    game = SimpleNamespace(game_id=9, chat_id=-1009, players=[], seat_changes=[])
    moves = _game_moves(limiter, SimpleNamespace(game=lambda game_id: game), requested)
    await moves._run_games([game], set())  # type: ignore[list-item]
    assert requested == [9]
    with for_game(9):
        assert limiter.free_now(7)


async def test_a_worker_giving_a_table_away_stops_its_hands_and_shrinks_a_part_it_keeps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A person at two tables of this worker's shards: it alone sends to them (their whole
    # window, and the count it asked says so for a period). One table's shard goes to another
    # worker, which sends that table's hands from the lock's release on: this worker's part is
    # one of two from then, not when it asks again. The given table's hands being sent go on
    # until its syncs settle, then no call for it goes any more.
    kept_chat = next(-c for c in range(1000, 1100) if shard_of(-c, SHARDS) == 0)
    given_chat = next(-c for c in range(1000, 1100) if shard_of(-c, SHARDS) == 1)
    kept, given = replace(seated(kept_chat, 7), game_id=1), replace(seated(given_chat, 7, 8),
                                                                    game_id=2)
    memory = [kept, given]
    limiter = FloodLimiter(Limits())

    async def chats_of_player(pool: object, person: int) -> list[int]:
        return [c for c in (kept_chat, given_chat) if person == 7 or c == given_chat]

    async def release(shards: object, grace: float) -> None:
        return None  # (the feeder lets the shards go)

    during: list[bool] = []

    async def settled(game_ids: object, grace: float) -> bool:
        with for_game(given.game_id):  # the given game's hands go until its syncs settle
            during.append(limiter.free_now(8))
        return True
    monkeypatch.setattr(sql, "chats_of_player", chats_of_player)
    worker = FleetWorker.__new__(FleetWorker)
    worker.rt = SimpleNamespace(  # type: ignore[assignment]
        limiter=limiter, locks=Locks(), timers=SimpleNamespace(cancel=lambda game_id: None),
        publisher=SimpleNamespace(settled=settled, forget_reposts=lambda game_ids: None,
                                  group=SimpleNamespace(tails=Tails())),
        service=SimpleNamespace(
            games_in=lambda shards, count: [g for g in memory
                                            if shard_of(g.chat_id, count) in shards],
            open_games=lambda: memory, evict=lambda shards, count: None),
        status_lines=SimpleNamespace(forget=lambda game_ids: None))
    worker.settings = SimpleNamespace(shards=SHARDS)  # type: ignore[assignment]
    worker.feeder = SimpleNamespace(release=release)  # type: ignore[assignment]
    worker.keeper = SimpleNamespace(owned=frozenset({0, 1}))  # type: ignore[assignment]
    worker.holding = frozenset({0, 1})
    worker.pool = None
    worker._giving = frozenset()
    worker._senders_of = {7: (1, math.inf), 8: (1, math.inf)}  # asked a moment ago

    async def answer() -> bool:
        return True
    limiter.share_private(7, await worker._senders(7))
    await limiter.process_request(answer, (), {}, "sendPhoto", {"chat_id": 7}, None)
    assert limiter.free_now(7)  # the whole window: two more may go
    await worker.give(frozenset({1}))
    with for_update(1):  # (a handler of its updates left behind)
        assert not limiter.free_now(8)
    with for_game(given.game_id):
        assert during == [True] and not limiter.free_now(8)  # then none goes any more
    assert limiter.free_now(8) and limiter.refused == {given_chat}  # (a reply still goes)
    assert not limiter.free_now(7)  # one of two, and used
    assert worker._senders_of[7][0] == 2
    assert worker._senders_of[8] == (1, math.inf)  # (seated here no more: not asked)


async def test_a_finished_game_taken_with_its_last_words_left_counts_its_chats_full() -> None:
    # A game that ended just before its owner died (its last hands and announcement left to
    # send) is synced by the shard's next owner too: that owner's window of each of its
    # chats starts full, as an open game's does.
    limiter = FloodLimiter(Limits())
    ended = replace(seated(-1001, 7, 8), game_id=5, status=Status.FINISHED)

    async def reload(game_id: int) -> Game:
        return ended

    requested: list[int] = []
    moves = _game_moves(limiter, SimpleNamespace(game=lambda game_id: None, reload=reload),
                        requested)
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
        limiter=limiter, service=SimpleNamespace(load_open_games=none, outbox_games=none),
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
