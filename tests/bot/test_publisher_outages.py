"""The publisher's syncs through outages, as the log tells them: PostgreSQL away is the
storage's one line (each sync's waits DEBUG, no traceback) and the sync waits for it, past its
retries for failures of its own; Telegram out of reach is one WARNING for all the games'
syncs, and its end one line."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import pytest
from bot_kit import Group
from telegram.error import BadRequest, NetworkError, TimedOut

from bot.app import build_application, running
from bot.handlers.runtime import KEY, Runtime
from bot.models import Game, Status
from bot.publishing.publisher import MAX_RETRIES, Publisher
from bot.storage import OutboxItem, Storage, StorageFailedError, StorageUnavailableError

AWAY = "PostgreSQL at 127.0.0.1:5432/domino is unavailable: connection refused"


def failing(publisher: Publisher, channel: str, error: Exception, times: int
            ) -> list[int]:
    """``channel``'s syncs (of every game) raise ``error`` ``times`` times each, then sync;
    the game ids of the calls."""
    sync = getattr(publisher, channel).sync
    calls: list[int] = []

    async def failing_sync(game_id: int) -> None:
        calls.append(game_id)
        if calls.count(game_id) <= times:
            raise error
        await sync(game_id)

    getattr(publisher, channel).sync = failing_sync
    return calls


def quick(monkeypatch: pytest.MonkeyPatch, publisher: Publisher) -> None:
    pause: Callable[[float], Awaitable[None]] = publisher._pause

    async def short(seconds: float) -> None:
        await pause(0.01)

    monkeypatch.setattr(publisher, "_pause", short)


async def test_a_sync_waits_for_the_database_in_one_line(
        group: Group, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.publishing.publisher")
    async with group.bot() as runtime:
        publisher = runtime.publisher
        quick(monkeypatch, publisher)
        calls = failing(publisher, "group", StorageUnavailableError(AWAY), MAX_RETRIES + 2)
        await group.open_table("pair", 2)
        await publisher.idle()
        game = group.game()
        assert game.messages.lobby is not None  # synced once the database answered
        assert group.lobby().message_id == game.messages.lobby
        assert calls.count(game.game_id) >= MAX_RETRIES + 3  # (past its own retries)
    told = [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name == "bot.publishing.publisher"]
    # (the storage says the outage once for all games: each sync's waits are DEBUG)
    assert {level for level, _ in told} == {"DEBUG"}
    assert (f"group sync of game {game.game_id} waits for the database: {AWAY}"
            in [message for _, message in told])
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_a_database_away_for_hours_is_waited_for_at_most_30_s_a_try(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over a thousand tries (some 17 hours away) the pause stays 30 s (review: its power
    of two overflowed, and the sync was lost)."""
    async with group.bot() as runtime:
        publisher = runtime.publisher
        asked: list[float] = []

        async def no_wait(seconds: float) -> None:
            asked.append(seconds)

        monkeypatch.setattr(publisher, "_pause", no_wait)
        failing(publisher, "group", StorageUnavailableError(AWAY), 1100)
        await group.open_table("pair", 2)
        await publisher.idle()
        assert group.game().messages.lobby is not None  # synced once the database answered
    assert len(asked) >= 1100 and asked[:5] == [2.0, 4.0, 8.0, 16.0, 30.0]
    assert set(asked[5:]) == {30.0}


async def test_telegram_out_of_reach_is_one_line_for_every_sync(
        group: Group, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with group.bot() as runtime:
        publisher = runtime.publisher
        quick(monkeypatch, publisher)
        failing(publisher, "group", NetworkError("Bad Gateway"), 2)
        failing(publisher, "hands", NetworkError("Bad Gateway"), 2)
        await group.open_table("pair", 2)
        await publisher.idle()
        await asyncio.sleep(0)
        assert group.game().messages.lobby is not None
    said = [r.getMessage() for r in caplog.records if r.name == "bot.publishing.publisher"]
    assert len(said) == 2 and said[0].endswith("failed (1): Bad Gateway"), said
    assert said[1] == "Telegram answers the syncs again after 0 s"
    assert not [r for r in caplog.records if r.name == "bot.reach"]


async def test_telegram_away_past_a_syncs_retries_is_waited_out(
        group: Group, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Telegram's 5xx for longer than a sync's own retries last (some 60 s): the sync is
    not given up (it was, and the lobby or the player to move's hand stayed unsent until
    the game changed again), and the outage is still one WARNING and one end line."""
    caplog.set_level(logging.INFO)
    async with group.bot() as runtime:
        publisher = runtime.publisher
        quick(monkeypatch, publisher)
        calls = failing(publisher, "group", NetworkError("Bad Gateway"), MAX_RETRIES + 3)
        failing(publisher, "hands", NetworkError("Bad Gateway"), MAX_RETRIES + 3)
        await group.open_table("pair", 2)
        await publisher.idle()
        game = group.game()
        assert calls.count(game.game_id) >= MAX_RETRIES + 4  # (past its own retries)
        assert game.messages.lobby is not None
        assert group.lobby().message_id == game.messages.lobby
    assert [r.levelname for r in caplog.records if r.name == "bot.publishing.publisher"] \
        == ["WARNING", "INFO"]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_telegram_failing_every_send_while_it_answers_the_polls_is_waited_out(
        group: Group, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Review: every send failing with a 5xx while the long polls are answered, retried at
    the publisher's own pauses (a poll answered between two tries): the polls' answers
    counted as Telegram heard, so each sync was given up after its retries, the lobby never
    posted, with "reached Telegram again" and a line a try. Only syncs getting through
    tell that Telegram answers them."""
    caplog.set_level(logging.INFO)
    async with group.bot() as runtime:
        publisher = runtime.publisher
        pause: Callable[[float], Awaitable[None]] = publisher._pause

        async def tenth(seconds: float) -> None:
            runtime.reach.answered()  # a long poll answered meanwhile
            await pause(min(seconds / 10, 0.05))

        monkeypatch.setattr(publisher, "_pause", tenth)
        calls = failing(publisher, "group", NetworkError("Bad Gateway"), MAX_RETRIES + 3)
        failing(publisher, "hands", NetworkError("Bad Gateway"), MAX_RETRIES + 3)
        await group.open_table("pair", 2)
        await asyncio.wait_for(publisher.idle(), 30)
        game = group.game()
        assert calls.count(game.game_id) >= MAX_RETRIES + 4
        assert group.lobby().message_id == game.messages.lobby
    said = [r for r in caplog.records if r.name == "bot.publishing.publisher"]
    assert [r.levelname for r in said] == ["WARNING", "INFO"], [r.getMessage() for r in said]
    assert not [r for r in caplog.records if r.getMessage().startswith("reached Telegram")]


async def test_a_sync_failing_alone_while_telegram_answers_is_given_up_after_its_retries(
        group: Group, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Review: a NetworkError no retry cures (Telegram's 413, a request the transport
    cannot make) while Telegram answers every other call was taken for an outage and tried
    every 30 s for ever, with "reached Telegram again" between the tries. Once Telegram is
    heard meanwhile, it is the sync's own failure: given up after its retries."""
    caplog.set_level(logging.INFO)
    async with group.bot() as runtime:
        publisher = runtime.publisher
        quick(monkeypatch, publisher)
        calls = failing(publisher, "hands", NetworkError("Request Entity Too Large (413)"),
                        10_000)
        await group.start("pair", 2)
        await asyncio.wait_for(publisher.idle(), 30)
        game = group.game()
        assert MAX_RETRIES + 1 <= calls.count(game.game_id) <= MAX_RETRIES + 3
    again = [r for r in caplog.records if r.getMessage().startswith("reached Telegram again")]
    assert len(again) <= 1
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


FULL = ("cannot use the database /srv/dominoes.sqlite3: database or disk is full "
        "(free some disk space)")


class FullDisk:
    """The storage's writes of a sync (``save``: its messages' ids) or its reads of the
    outbox (``outbox``) raising what :mod:`bot.storage.sqlite` raises on a full disk,
    while ``full`` names them; how many times each failed."""

    def __init__(self, storage: Storage) -> None:
        self.full: set[str] = set()
        self.failed = {"save": 0, "outbox": 0}
        save, pending = storage.save_messages, storage.pending_outbox

        async def save_messages(game: Game) -> None:
            self._check("save")
            await save(game)

        async def pending_outbox(game_id: int) -> list[OutboxItem]:
            self._check("outbox")
            return await pending(game_id)

        storage.save_messages = save_messages  # type: ignore[method-assign]
        storage.pending_outbox = pending_outbox  # type: ignore[method-assign]

    def _check(self, what: str) -> None:
        if what in self.full:
            self.failed[what] += 1
            raise StorageFailedError(FULL)


async def test_a_full_disk_stops_no_game_and_its_syncs_wait_in_one_line(
        group: Group, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Operator QA: a sync meeting a full disk was an ERROR with a traceback each time, and
    given up after its retries. It waits for the disk, however long (here past its
    retries), the game goes on, the log says it once and its end once."""
    caplog.set_level(logging.INFO)
    async with group.bot() as runtime:
        await group.start("gaple")
        publisher = runtime.publisher
        await publisher.idle()
        game = group.game()
        old = game.messages.table_message
        quick(monkeypatch, publisher)
        disk = FullDisk(runtime.service.storage)
        caplog.clear()
        disk.full = {"outbox"}
        publisher.tables.bring_down(game.game_id)  # a sync with something to save
        await group.server.wait_for(lambda: disk.failed["outbox"] > MAX_RETRIES + 2)
        disk.full = {"save"}  # (the table is posted again: its id is not saved)
        await group.server.wait_for(lambda: disk.failed["save"] > MAX_RETRIES + 2)
        assert game.status is Status.PLAYING
        disk.full = set()
        await publisher.idle()
        stored = await runtime.service.storage.load_game(game.game_id)
        assert stored is not None and stored.status is Status.PLAYING
        assert stored.messages.table_message == game.messages.table_message != old
        assert group.messages()[-1].message_id == game.messages.table_message
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    told = [(r.levelname, r.getMessage()) for r in caplog.records
            if r.name == "bot.publishing.publisher" and r.levelno >= logging.INFO]
    assert told == [
        ("WARNING", f"group sync of game {game.game_id} waits for the database: {FULL}"),
        ("INFO", "the database works again after 0 s: the syncs waiting for it went through"),
    ]


async def test_a_start_that_fails_after_resuming_games_leaves_no_sync_running(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    """Operator QA: a start on a full disk failed in its resume (the one CRITICAL line) after
    it had asked for the games' syncs, which went on once the storage was closed: an ERROR
    and a traceback each ("storage is not open") before that line. They stop first."""
    async with group.bot():
        await group.open_table("pair", 2)
    application = build_application(group.settings(), seed_source=group.seeds)
    runtime: Runtime = application.bot_data[KEY]
    publisher = runtime.publisher
    gate = asyncio.Event()
    asked: list[int] = []
    for channel in (publisher.group, publisher.hands):
        async def held(game_id: int, sync: Callable[[int], Awaitable[None]] = channel.sync
                       ) -> None:
            asked.append(game_id)
            await gate.wait()  # (past the start's failure)
            await sync(game_id)

        channel.sync = held  # type: ignore[method-assign]

    async def full() -> None:
        await asyncio.sleep(0.05)  # (the syncs asked for begin meanwhile)
        raise StorageFailedError(FULL)

    runtime.timers.resume = full  # type: ignore[method-assign]
    caplog.clear()
    with pytest.raises(StorageFailedError):
        async with running(application):
            pass
    gate.set()
    await asyncio.sleep(0.2)  # a sync still running meets the storage closed
    assert asked == [group.game().game_id] * 2
    assert not publisher._tasks
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]


async def test_a_group_gone_while_the_disk_is_full_stops_its_game_once_it_works(
        group: Group, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Operator QA: the stop of a game whose group Telegram says is gone met the full disk,
    an ERROR with a traceback ("stopping game 4 after its group went failed"), and was not
    tried again. The disk is waited for as every sync waits for it; the group being gone
    (not the disk) stops the game once the stop can be saved."""
    caplog.set_level(logging.INFO)
    async with group.bot() as runtime:
        table = await group.start("pair")
        publisher = runtime.publisher
        await publisher.idle()
        game = group.game()
        quick(monkeypatch, publisher)
        service = runtime.service
        abandon, refused = service.abandon, [0]

        async def full(*args: object, **kwargs: object) -> None:
            refused[0] += 1
            raise StorageFailedError(FULL)

        service.abandon = full  # type: ignore[method-assign]
        caplog.clear()
        group.server.delete_group(group.chat)
        await table.play_one()  # its sync finds the group gone
        await group.server.wait_for(lambda: refused[0] > MAX_RETRIES + 2)
        assert game.status is Status.PLAYING
        service.abandon = abandon  # type: ignore[method-assign]
        await group.server.wait_for(lambda: game.status is Status.STOPPED)
        await publisher.idle()
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warned == [f"group sync of game {game.game_id} waits for the database: {FULL}"]


async def test_a_syncs_own_failure_names_its_cause_in_its_line(
        group: Group, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Not only in the traceback's last line (operator QA: 'hands sync of game 2 failed (1)'
    said neither the chat nor the cause)."""
    async with group.bot() as runtime:
        publisher = runtime.publisher
        quick(monkeypatch, publisher)
        failing(publisher, "group", BadRequest("Message is too long"), 1)
        await group.open_table("pair", 2)
        await publisher.idle()
        game_id = group.game().game_id
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert said == [f"group sync of game {game_id} failed (1): BadRequest: Message is too long"]


async def test_a_sync_that_calls_nobody_does_not_end_telegrams_outage(
        group: Group, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Operator QA (Telegram frozen, no answer at all): 3 ms after 'group sync of game 1
    failed (1): Timed out' came 'Telegram answers the syncs again after 0 s' (the game's
    hands sync, with nothing to send, had ended), then 'failed (1) while Telegram answers
    other calls'. Only a call Telegram answers ends the outage."""
    caplog.set_level(logging.INFO)
    async with group.bot() as runtime:
        publisher = runtime.publisher
        await group.open_table("pair", 2)
        await publisher.idle()
        quick(monkeypatch, publisher)
        game_id = group.game().game_id
        caplog.clear()
        failing(publisher, "group", TimedOut(), 3)
        publisher.repost_lobby(game_id)  # (both channels: the hands' has nothing to send)
        await publisher.idle()
    said = [r.getMessage() for r in caplog.records
            if r.name == "bot.publishing.publisher" and r.levelno >= logging.INFO]
    assert said == [f"group sync of game {game_id} failed (1): Timed out",
                    "Telegram answers the syncs again after 0 s"], said
