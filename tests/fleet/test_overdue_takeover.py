"""The QA restart (tests/bot/test_e2e_overdue_restart.py) in a fleet: no worker runs a game on
a person's turn (the whole fleet down), the person taps meanwhile (the receiver stores the tap
in the queue), and the turn's time runs out before a worker takes the game's shard. That
worker plays the tap waiting in the queue, not the time-out (``Timers.resume``).

In-process (a receiver and one worker after the other in this test's event loop), against a
real PostgreSQL and the fake Bot API server delivering by webhook."""

from __future__ import annotations

import asyncio
import random
import time

import asyncpg  # type: ignore[import-untyped]
from fleet_kit import in_process, until

from bot.app import running
from bot.fleet.settings import WORKER_KEY
from bot.handlers.runtime import KEY, Runtime
from fakeapi import FakeTelegramServer, WebhookTiming
from fakeapi.players import live_buttons, second_taps
from testservers.tables import Table

SHARDS = 4
SECRET = "overdue_secret"


async def test_a_tap_queued_while_no_worker_ran_the_game_counts_though_its_turn_ran_out(
        postgres_url: str) -> None:
    async with FakeTelegramServer() as server:
        server.webhook.timing = WebhookTiming(timeout=5.0, first_retry=0.02, max_retry=0.2)
        setup = in_process(server, postgres_url, SECRET, SHARDS, computer_pause=0.2)
        users = [server.add_user(name, language_code="en", started=True)
                 for name in ("Ayu", "Budi")]
        chat = server.add_group("Dominoes", members=users, admins=users[:1])
        table = Table(server, chat, users, "kolbasa", random.Random(5))
        async with setup.receiver():
            async with running(setup.worker("a")) as first:
                # (a receiver registers once the first worker has made the fleet's tables)
                await server.wait_for(lambda: server.webhook.target is not None)
                keeper = first.bot_data[WORKER_KEY].keeper
                await until(lambda: len(keeper.owned) == SHARDS, timeout=20)
                await table.open()
                user, message = await server.wait_for(table.whose_turn, timeout=30)
                rt: Runtime = first.bot_data[KEY]
                game = rt.service.open_game_in(chat.id)
                assert game is not None
                game_id, before = game.game_id, game.move_no
                await rt.publisher.idle()
            # Nobody runs the game: the tap waits in the queue, and the turn runs out.
            shown = live_buttons(message)
            record = user.press(message, shown[0])
            db = await asyncpg.connect(postgres_url)
            try:
                async def queued() -> int:
                    return int(await db.fetchval(
                        "SELECT count(*) FROM fleet_updates WHERE done_at IS NULL"))
                deadline = time.monotonic() + 20
                while not await queued():
                    assert time.monotonic() < deadline, "the tap was not stored"
                    await asyncio.sleep(0.05)
                await db.execute("UPDATE games SET deadline=$1 WHERE game_id=$2",
                                 time.time() - 10, game_id)
            finally:
                await db.close()
            async with running(setup.worker("b")) as second:
                await server.wait_for(lambda: record.answered, timeout=20)
                assert not record.answer_text, record.answer_text  # no "It is Ayu's turn"
                await server.wait_for(lambda: message.deleted or live_buttons(message) != shown)
                follow = second_taps(live_buttons(message))
                if follow:  # the tile fits both ends: which one
                    record = user.press(message, follow[0])
                    await server.wait_for(lambda: record.answered)
                    assert not record.answer_text, record.answer_text
                rt = second.bot_data[KEY]
                await until(lambda: (g := rt.service.game(game_id)) is not None
                            and g.move_no > before, timeout=20)
                taken = rt.service.game(game_id)
                assert taken is not None
                assert taken.timer.timeouts == {} and not taken.timer.auto_moves
                await rt.publisher.idle()
        server.assert_no_violations()
