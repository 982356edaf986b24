"""/scoreboard and /stats after real matches in the group."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from bot_kit import Group, lobby_button

from bot.handlers import boards
from bot.i18n import translator
from bot.service.settings import GroupSettings
from fakeapi import StoredMessage


async def play_short_match(group: Group) -> None:
    for user in group.users[:4]:
        user.send_private("/start")
    group.users[0].send(group.chat, "/newgame pair target=30")
    lobby = await group.server.wait_for(group._lobby_or_none)
    for user in group.users[1:4]:
        record = user.press(lobby, lobby_button(lobby, "j") or "")
        await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
    await group.server.wait_for(lambda: all(u.id in lobby.mentioned_user_ids
                                            for u in group.users[:4]))
    record = group.users[0].press(lobby, lobby_button(lobby, "s") or "")
    await group.server.wait_for(lambda: record.answered)
    from fakeapi.players import Table

    await Table(group.server, group.users[:4]).play_until(group.match_over)


async def test_the_scoreboard_ranks_the_groups_players(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    drawn_in: list[str] = []
    draw = boards.scoreboard_picture

    def recorded(*args: Any, **kwargs: Any) -> bytes:
        drawn_in.append(threading.current_thread().name)
        return draw(*args, **kwargs)

    monkeypatch.setattr(boards, "scoreboard_picture", recorded)
    async with group.bot():
        group.users[0].send(group.chat, "/scoreboard")
        await group.server.wait_for(lambda: group.said("No finished matches yet"))
        await play_short_match(group)
        game = group.game()
        group.users[4].send(group.chat, "/scoreboard pair")
        board = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if m.photo and "Scoreboard" in (m.caption or "")), None))
        group.users[4].send(group.chat, "/scoreboard chess")
        await group.server.wait_for(lambda: group.said("I don't know the filter chess"))
        group.users[0].send_private("/stats")
        stats = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.users[0].private_chat)
             if "figures across groups" in (m.text or "")), None))
    assert game.match is not None and game.match.winner is not None
    winners = [group.users[s].first_name for s in game.match.sides[game.match.winner]]
    caption = board.caption or ""
    first_line = next(line for line in caption.splitlines() if line.startswith("1."))
    assert any(name in first_line for name in winners)
    assert "Dewi" not in caption  # an onlooker has no place on the board
    assert "Pair dominoes" in (stats.text or "")
    # Drawn where every picture is: one thread uses the shared FreeType faces.
    assert drawn_in == ["pictures"]


async def test_a_filter_given_twice_is_refused_not_taken_last(group: Group) -> None:
    async with group.bot():
        group.users[0].send(group.chat, "/scoreboard week month")
        await group.server.wait_for(lambda: group.said(
            "month is a second period: give one of week, month or all."))
        group.users[0].send(group.chat, "/scoreboard pair gaple")
        await group.server.wait_for(lambda: group.said(
            "gaple is a second game: name one game at most."))
        assert not any(m.photo for m in group.server.bot_messages(group.chat))


def said(group: Group, fragment: str) -> StoredMessage | None:
    return next((m for m in reversed(group.messages()) if fragment in m.content), None)


async def test_a_russian_group_asks_for_its_board_in_its_own_words(group: Group) -> None:
    """The game by its Russian name, of two words, and the period in Russian; a filter the
    bot does not know is answered with the games' Russian names."""
    t = translator("ru")
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language="ru").to_json())
        group.users[0].send(group.chat, "/scoreboard Домино парами неделя")
        board = await group.server.wait_for(lambda: said(
            group, t("No finished matches yet: open a table with /newgame.")))
        assert "Домино парами" in board.content
        group.users[0].send(group.chat, "/scoreboard шахматы")
        refusal = await group.server.wait_for(lambda: said(group, "шахматы"))
        assert "Домино парами" in refusal.content and "неделя, месяц или все" in refusal.content
