"""Telegram's flood limits end to end: the fake server's own accounting of every rolling
window, a 429 that holds back its own chat only, and a stop that neither waits out a failing
Telegram nor loses what was committed. Periods are shortened; every check is a count or an
order of the fake server's records, never a duration."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from bot_kit import Group, lobby_button, plain

from bot.app import begin_stop, build_application, running
from bot.handlers.runtime import KEY, Runtime
from bot.models import Status
from bot.publishing.floodwindows import counted
from fakeapi import FakeTelegramServer, RequestRecord
from fakeapi.players import Table, active_hand


def second_group(group: Group, title: str = "Second table") -> Group:
    """Another group with four people of its own, served by the same running bot."""
    server = group.server
    users = [server.add_user(f"{title[:3]}{n}", language_code="en") for n in range(4)]
    chat = server.add_group(title, members=users, admins=users[:1])
    other = Group(server, chat, users, group.database, group.seeds)
    other.runtime = group.runtime
    return other


def table_caption(group: Group) -> str:
    game = group.game()
    assert game.messages.table_message is not None
    return plain(group.server.message(group.chat, game.messages.table_message).caption or "")


def turn_shown(group: Group) -> bool:
    """The group's table names the player whose hand message is live: it is current."""
    table = Table(group.server, group.users)
    turn = table.whose_turn()
    return turn is not None and f"Your turn, {turn[0].first_name}" in table_caption(group)


async def test_no_rolling_window_holds_more_than_telegram_allows(group: Group) -> None:
    """Moves far faster than the budgets: every group, private chat and the whole bot stay
    within their windows by the fake's count, and the table still ends on the latest state."""
    other = None
    async with group.bot(group_messages_per_minute=3, group_rate_period=1.0,
                         messages_per_second=5, private_messages_per_period=2,
                         private_rate_period=1.0):
        other = second_group(group)
        tables = [await group.start("pair"), await other.start("pair")]
        for _ in range(6):
            for table in tables:
                await table.play_one(done=group.match_over)
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        await group.server.wait_for(lambda: turn_shown(group) and turn_shown(other))
    server = group.server
    worst = server.worst_windows(group_period=1.0, overall_period=1.0)
    assert set(worst.per_group) == {group.chat.id, other.chat.id}
    assert worst.group <= 3 and worst.overall <= 5, worst
    for user in group.users[:4] + other.users:
        assert server.max_requests_in_window(user.private_chat, 1.0) <= 2
    assert not server.errors, [(r.method, r.description) for r in server.errors]


async def test_a_groups_budget_is_spread_over_its_window_not_spent_at_once(
        group: Group) -> None:
    """Moves far faster than the budget: the group's calls go at most three in any pace
    window (a sixth of a budget of 6 in 3 s is 1.5 s: 3 calls), so its table keeps moving
    through the window instead of spending it all at once and then going dark."""
    async with group.bot(group_messages_per_minute=6, group_rate_period=3.0):
        table = await group.start("pair")
        for _ in range(10):
            await table.play_one(done=group.match_over)
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        await group.server.wait_for(lambda: turn_shown(group))
    server = group.server
    paced = server.worst_windows(group_period=1.5, overall_period=1.0)
    whole = server.worst_windows(group_period=3.0, overall_period=1.0)
    assert paced.group <= 3, paced
    assert whole.group <= 6, whole
    # More calls than one pace window holds, so the bound above did bite; how many more
    # depends on how many moves coalesced into one edit, which is the machine's timing.
    calls = [r.method for r in server.requests_for(chat=group.chat) if counted(r.method)]
    assert len(calls) > 3, calls


async def test_a_flood_wait_holds_back_its_own_group_only(group: Group) -> None:
    """A 429 in one group: nothing goes there until retry_after has passed, while the other
    group's taps are answered and its table edited, and taps in the paused group itself are
    answered too. Afterwards the paused table shows the latest state."""
    async with group.bot():
        other = second_group(group)
        first, second = await group.start("pair"), await other.start("pair")
        await first.play_one()
        await second.play_one()
        server = group.server
        server.flood_wait(group.chat, retry_after=4)
        tap_in_paused = await first.play_one()  # its table edit is answered 429
        flood = await server.wait_for(lambda: next(
            (r for r in server.requests_for(chat=group.chat) if r.status == 429), None))
        group.send(group.users[1], "/help")  # a command's reply waits out the pause
        taps = [await second.play_one(), await second.play_one()]
        await server.wait_for(lambda: turn_shown(other))
        other_edits = [r for r in server.requests_for(chat=other.chat)
                       if r.method.startswith("edit") and r.at > flood.at]
        await server.wait_for(lambda: turn_shown(group), timeout=15)
        await server.wait_for(lambda: group.said("Dominoes for your group"))
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
    after = [r for r in server.requests_for(chat=group.chat) if r.at > flood.at]
    resumed = after[0]
    assert server.early_calls == []  # retry_after honoured: nothing came during the pause
    assert [r.status for r in server.requests_for(chat=group.chat)].count(429) == 1
    answers = [answer_of(server, tap.id) for tap in (tap_in_paused, *taps) if tap is not None]
    assert len(answers) == 3 and all(a.at < resumed.at for a in answers)
    assert other_edits and all(r.at < resumed.at for r in other_edits)


def answer_of(server: FakeTelegramServer, query_id: str) -> RequestRecord:
    return next(r for r in server.requests_for("answerCallbackQuery")
                if r.params.get("callback_query_id") == query_id and r.ok)


async def test_a_stop_while_telegram_fails_every_call_retries_nothing_and_loses_nothing(
    group: Group, tmp_path: Path
) -> None:
    """Telegram answers every call with an error: stopping retries no sync, and the restart
    sends what was committed meanwhile (a move, and the outbox's "table is ready")."""
    server = group.server
    lobby = second_group(group, "Lobby table")
    application = build_application(group.settings(), seed_source=group.seeds)
    async with running(application):
        runtime: Runtime = application.bot_data[KEY]
        group.runtime = lobby.runtime = runtime
        table = await group.start("pair")
        await lobby.open_table("pair", players=3)
        lobby.users[3].send_private("/start")
        await runtime.publisher.idle()
        before = table_caption(group)
        server.fail_every_call(except_methods=("getUpdates",))
        game = group.game()
        moves = game.move_no
        turn = table.whose_turn()
        assert turn is not None and game.match is not None
        # The hand's first move: each tile goes in one place, so one tap plays it.
        tile = next(str(a.tile) for a in game.match.legal_actions() if hasattr(a, "tile"))
        turn[0].press(turn[1], f"✅ {tile}")
        lobby.users[3].press(lobby.lobby(), lobby_button(lobby.lobby(), "j") or "")
        await server.wait_for(lambda: group.game().move_no > moves
                              and len(lobby.game().players) == 4)
        await server.wait_for(lambda: server.errors)
        begin_stop(application)
        mark = len(server.requests)
    assert not runtime.publisher._tasks
    late = [r for r in server.requests[mark:] if counted(r.method)]
    assert len(late) <= 4, [(r.method, r.chat_id) for r in late]  # one round per channel
    server.end_outage()
    async with group.bot():
        await server.wait_for(lambda: turn_shown(group) and table_caption(group) != before)
        await server.wait_for(lambda: lobby.said("the table is ready"))
        await server.wait_for(lambda: all(u.id in lobby.lobby().mentioned_user_ids
                                          for u in lobby.users))
        assert group.game().status is Status.PLAYING
        await server.wait_for(lambda: active_hand(server, turn[0]) is None)  # moved: waits


async def test_a_signal_during_a_long_poll_confirms_what_was_read_and_logs_no_error(
        telegram: FakeTelegramServer, tmp_path: Path) -> None:
    """``python -m bot`` stopped by SIGINT while its getUpdates is held open: the long poll is
    ended, so PTB's last getUpdates (offset past every update handled, no waiting) gets the
    connection, and the log has no error (it had a pool timeout and an orphaned task's
    "exception never retrieved" at every stop)."""
    server = telegram
    user = server.add_user("Ayu", language_code="en")
    user.send_private("/help")
    log = tmp_path / "bot.log"
    env = dict(os.environ, TELEGRAM_BOT_TOKEN=server.token,
               TELEGRAM_API_BASE_URL=server.api_root,
               DATABASE_PATH=str(tmp_path / "bot.sqlite3"), LOG_LEVEL="INFO",
               PYTHONPATH=os.pathsep.join(
                   filter(None, (str(Path(__file__).parents[2]), os.environ.get("PYTHONPATH")))))
    with log.open("wb") as out:
        bot = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path,
                                                   env=env, stdout=out, stderr=out)
        try:
            await server.wait_for(
                lambda: server.requests_for("sendMessage", chat=user.private_chat), timeout=30)
            await server.wait_for(lambda: server.world.updates.polls_waiting, timeout=30)
            bot.send_signal(signal.SIGINT)
            code = await asyncio.wait_for(bot.wait(), 30)
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
    text = log.read_text()
    assert code == 0 and " ERROR " not in text and "never retrieved" not in text, text
    last = server.requests_for("getUpdates")[-1]
    assert last.ok and int(last.params.get("timeout", 0)) == 0, last
    assert server.world.updates.pending == []  # /help is confirmed: not handled again after a start


async def test_a_table_edit_held_back_shows_the_latest_move_when_it_goes(group: Group) -> None:
    """The group is paused by a flood wait while three moves are made: the stale edit is not
    sent late (PTB's limiter retried it); the one edit after the pause shows the newest."""
    async with group.bot():
        table = await group.start("pair")
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        server = group.server
        table_id = group.game().messages.table_message
        assert table_id is not None
        shown = len(server.message(group.chat, table_id).versions)
        server.flood_wait(group.chat, retry_after=5)
        for _ in range(3):
            await table.play_one()
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        versions = server.message(group.chat, table_id).versions[shown:]
        assert turn_shown(group)
    assert len(versions) == 1, [v.caption for v in versions]
    assert server.early_calls == []
