"""A match played to its end in a basic group, which then becomes a supergroup: the finished
game's rows follow the group to its new chat id, and the next start of the bot (which syncs
the games closed lately) must find nothing of that match to change. Its messages stay as they
are, in the old group and in private, and its winners are cheered once (QA: a restart after
the upgrade edited every player's result again and cheered the winner a second time, in the
middle of the next game)."""

from __future__ import annotations

import pytest
from bot_kit import Group, complaints, plain

from bot.models import Status
from fakeapi import FakeUser
from fakeapi.players import Table

#: What the winner's cheer says (bot.publishing.cheers).
CHEER = "You won the match"


def _private(group: Group, user: FakeUser) -> dict[int, int]:
    """The user's private messages from the bot, by id, with how often each was edited."""
    return {m.message_id: m.edit_count for m in group.server.bot_messages(user.private_chat)}


def _cheers(group: Group, user: FakeUser) -> int:
    return sum(CHEER in (m.text or "") for m in group.server.bot_messages(user.private_chat))


@pytest.mark.parametrize("next_game", [False, True])
async def test_a_match_over_before_the_upgrade_is_left_alone_by_the_next_start(
        group: Group, caplog: pytest.LogCaptureFixture, next_game: bool) -> None:
    """``next_game``: a new table was started before the upgrade (the tester's way); it is
    played on in the supergroup after the restart."""
    players = group.users[:4]
    async with group.bot() as runtime:
        table = await group.start("gaple target=1")
        await table.play_until(group.match_over)
        await runtime.publisher.idle()
        finished = group.game()
        assert finished.status is Status.FINISHED
        before = {user.id: _private(group, user) for user in players}
        cheered = {user.id: _cheers(group, user) for user in players}
        assert sum(cheered.values()) >= 1  # the winners', once each
        if next_game:
            await group.start("pair")
            await Table(group.server, players).play_one()
            await runtime.publisher.idle()
        old = group.chat
        group.chat = group.server.migrate_group(old, by=players[0])
        await group.server.wait_for(lambda: group._newest(None) is not None)
        await runtime.publisher.idle()
    in_old = {m.message_id: m.edit_count for m in group.server.bot_messages(old)}
    async with group.bot() as runtime:  # the same database: the finished game closed lately
        await runtime.publisher.idle()
        if next_game:
            await Table(group.server, players).play_one()  # the new table plays on
            await runtime.publisher.idle()
    for user in players:
        assert _cheers(group, user) == cheered[user.id], user.first_name
        now = _private(group, user)  # the match's results as they were, none edited again
        assert {m: now[m] for m in before[user.id]} == before[user.id], user.first_name
    assert {m.message_id: m.edit_count for m in group.server.bot_messages(old)} == in_old
    if not next_game:  # nothing of the finished match is posted again in the supergroup
        assert group.server.bot_messages(group.chat) == []
    assert not complaints(caplog)


async def test_a_winner_whose_result_is_edited_after_a_restart_is_not_cheered_again(
        group: Group, caplog: pytest.LogCaptureFixture) -> None:
    """The group renamed after the match (learnt at its next /newgame), then a restart: the
    finished match's results name the group as it is now, and its winners are not cheered a
    second time (they were, at each such edit)."""
    players = group.users[:4]
    async with group.bot() as runtime:
        table = await group.start("gaple target=1")
        await table.play_until(group.match_over)
        await runtime.publisher.idle()
        cheered = {user.id: _cheers(group, user) for user in players}
        assert sum(cheered.values()) >= 1
        group.chat.title = "Domino night"
        group.send(players[0], "/newgame pair")
        await group.server.wait_for(group._lobby_or_none)
        await runtime.publisher.idle()
    async with group.bot() as runtime:
        await runtime.publisher.idle()
    for user in players:
        assert _cheers(group, user) == cheered[user.id], user.first_name
        results = [plain(m.caption or "") for m in group.server.bot_messages(user.private_chat)
                   if "The match is over" in (m.caption or "")]
        assert results and all("Domino night" in r for r in results), user.first_name
    assert not complaints(caplog)
