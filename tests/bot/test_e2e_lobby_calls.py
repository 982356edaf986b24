"""The lobby's call to start ("the table is ready: press Start") in the group: deleted once
the game starts or the lobby is cancelled, even when it was still on its way or the bot
restarted meanwhile; never sent once the lobby has closed (QA)."""

from __future__ import annotations

from typing import Any

from bot_kit import Group, die_after_commit, lobby_button

from bot.models import Game, Status
from fakeapi import StoredMessage

CALL = "the table is ready"


def calls(group: Group) -> list[StoredMessage]:
    """Every call to start the bot posted in the group, deleted ones too."""
    return [m for m in group.server.messages(group.chat, include_deleted=True)
            if m.from_bot and CALL in (m.text or "")]


async def posted_call(group: Group) -> StoredMessage:
    return await group.server.wait_for(lambda: next(iter(calls(group)), None),
                                       message="no call to start")


async def press_lobby(group: Group, kind: str) -> None:
    lobby = group.lobby()
    record = group.users[0].press(lobby, lobby_button(lobby, kind) or "")
    await group.server.wait_for(lambda: record.answered)


async def test_the_call_to_start_is_deleted_once_the_game_starts(group: Group) -> None:
    async with group.bot() as rt:
        await group.open_table("pair")
        call = await posted_call(group)
        await press_lobby(group, "s")
        assert group.game().status is Status.PLAYING
        await group.server.wait_for(lambda: call.deleted, message="the call stayed")
        await rt.publisher.idle()
        assert group.game().messages.calls == []
        assert group.game().messages.table_message is not None


async def test_the_call_to_start_is_deleted_once_the_lobby_is_cancelled(group: Group) -> None:
    async with group.bot():
        await group.open_table("pair")
        call = await posted_call(group)
        await press_lobby(group, "c")
        await group.server.wait_for(lambda: call.deleted, message="the call stayed")
        assert group.game().status is Status.CANCELLED


async def test_a_call_whose_send_is_answered_after_the_start_is_deleted(group: Group) -> None:
    """A very fast Start: the call was on its way when Start was pressed (its answer held):
    it arrives, and goes as soon as the bot learns its id."""
    async with group.bot():
        await group.open_table("pair", players=3)
        budi = group.users[3]
        budi.send_private("/start")
        held = group.server.hold("sendMessage", after_acting=True, chat=group.chat)
        lobby = group.lobby()
        record = budi.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_for(lambda: held.holding)
        call = group.server.message(group.chat, held.result["message_id"])
        assert CALL in (call.text or "")
        await press_lobby(group, "s")
        assert group.game().status is Status.PLAYING
        held.release()
        await group.server.wait_for(lambda: call.deleted, message="the call stayed")


async def test_a_call_not_sent_when_the_lobby_is_cancelled_is_never_sent(group: Group) -> None:
    async with group.bot() as rt:
        await group.open_table("pair", players=3)
        die_after_commit(rt)  # the call waits in the outbox
        budi = group.users[3]
        budi.send_private("/start")
        lobby = group.lobby()
        record = budi.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda: record.answered)
        game = group.game()
        assert any(CALL in item.text for item in await rt.storage.pending_outbox(game.game_id))
        await press_lobby(group, "c")
        assert game.status is Status.CANCELLED
        del rt.publisher.group.sync  # the group's syncs run again
        rt.publisher.request(game.game_id)
        await rt.publisher.idle()
        await group.server.wait_for(lambda: "closed" in (lobby.text or ""))
    assert calls(group) == []


async def test_a_call_left_at_a_restart_is_deleted_after_it(group: Group) -> None:
    async with group.bot() as rt:
        await group.open_table("pair")
        call = await posted_call(group)
        await rt.publisher.idle()
        die_after_commit(rt)  # the start is committed, and the bot dies before its sync
        await press_lobby(group, "s")
        assert group.game().status is Status.PLAYING
    assert not call.deleted
    async with group.bot():
        await group.server.wait_for(lambda: call.deleted, message="the call stayed")


async def test_a_newer_call_deletes_the_older_one(group: Group) -> None:
    """The table is ready (a call), a player leaves, comes back, and it is ready again (a
    second call): the group sees one call at a time, the newest, and it goes at the start."""
    dewi = group.users[3]
    async with group.bot() as rt:
        await group.open_table("pair")
        first = await posted_call(group)
        for kind in ("l", "j"):
            lobby = group.lobby()
            record = dewi.press(lobby, lobby_button(lobby, kind) or "")
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        second = await group.server.wait_for(
            lambda: next((m for m in calls(group) if m is not first), None),
            message="no second call to start")
        await group.server.wait_for(lambda: first.deleted, message="the older call stayed")
        await rt.publisher.idle()
        assert not second.deleted
        assert group.game().messages.calls == [second.message_id]
        await press_lobby(group, "s")
        await group.server.wait_for(lambda: second.deleted, message="the call stayed")


async def test_a_call_is_saved_as_soon_as_it_is_posted(group: Group) -> None:
    """The call's id is saved before the rest of its sync runs: a sync that posts the call
    and fails after would otherwise leave it in memory only, and a restart would never
    delete the call."""
    async with group.bot() as rt:
        sync = rt.publisher.group._sync_lobby
        stored: list[list[int]] = []

        async def noting(game: Game, *args: Any) -> bool:
            if game.messages.calls and not stored:
                saved = await rt.storage.load_game(game.game_id)
                assert saved is not None
                stored.append(list(saved.messages.calls))
            return await sync(game, *args)
        rt.publisher.group._sync_lobby = noting  # type: ignore[method-assign, assignment]
        await group.open_table("pair")
        call = await posted_call(group)
        await rt.publisher.idle()
    assert stored == [[call.message_id]]
