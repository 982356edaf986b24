"""Routing keys for every kind of update the bot receives: one group's updates (its games,
lobby, commands, and taps in private on its games' buttons) all share the group's key."""

from __future__ import annotations

from typing import Any

import pytest

from bot.fleet.routing import chat_key, named_game, route_key, shard_of
from bot.presentation.gamebuttons import (
    AddComputer,
    LeaveAnswer,
    LobbyAction,
    LobbyTap,
    PickGame,
    PlayAgain,
    ShowHand,
    StopAnswer,
)
from bot.presentation.tilebuttons import BackToHand, Lay, TileIntent, TileTap
from engine import End, Tile

GROUP = -1001234567890
USER = 777
GAME = 42
GAMES = {GAME: GROUP}


async def chat_of(game_id: int) -> int | None:
    return GAMES.get(game_id)


def user(uid: int = USER) -> dict[str, Any]:
    return {"id": uid, "is_bot": False, "first_name": "Ayu"}


def group_chat(chat: int = GROUP) -> dict[str, Any]:
    return {"id": chat, "type": "supergroup", "title": "Dominoes", "is_forum": True}


def private_chat(uid: int = USER) -> dict[str, Any]:
    return {"id": uid, "type": "private", "first_name": "Ayu"}


def message(chat: dict[str, Any], text: str = "", **extra: Any) -> dict[str, Any]:
    return {"update_id": 1, "message": {"message_id": 5, "date": 0, "chat": chat,
                                        "from": user(), "text": text, **extra}}


def tap(chat: dict[str, Any], data: str) -> dict[str, Any]:
    return {"update_id": 1, "callback_query": {
        "id": "1", "from": user(), "chat_instance": "x", "data": data,
        "message": {"message_id": 9, "date": 0, "chat": chat}}}


def member(chat: dict[str, Any]) -> dict[str, Any]:
    return {"update_id": 1, "my_chat_member": {
        "chat": chat, "from": user(), "date": 0,
        "old_chat_member": {"status": "member", "user": user(1)},
        "new_chat_member": {"status": "left", "user": user(1)}}}


async def key(update: dict[str, Any]) -> int | None:
    return await route_key(update, chat_of)


@pytest.mark.parametrize("text", ["/newgame gaple", "/stop", "/leave", "/hand@dominobot",
                                  "/settings", "/scoreboard", "/rules", "just talk"])
async def test_a_groups_messages_keep_its_order(text: str) -> None:
    assert await key(message(group_chat(), text)) == GROUP


@pytest.mark.parametrize("extra", [{"migrate_to_chat_id": -100999}, {"forum_topic_closed": {}},
                                   {"message_thread_id": 4, "is_topic_message": True}])
async def test_a_groups_service_messages_keep_its_order(extra: dict[str, Any]) -> None:
    assert await key(message(group_chat(), **extra)) == GROUP


@pytest.mark.parametrize("button", [
    LobbyTap(GAME, LobbyAction.JOIN), AddComputer(GAME, "easy"), PlayAgain(GAME),
    StopAnswer(GAME, True), LeaveAnswer(GAME, 1, True), ShowHand(GAME), PickGame("gaple", 5),
    Lay(GAME, 3, Tile(2, 5), End.LEFT),
])
async def test_taps_in_the_group_keep_its_order(button: Any) -> None:
    assert await key(tap(group_chat(), button.encode())) == GROUP


@pytest.mark.parametrize("button", [
    Lay(GAME, 3, Tile(2, 5), End.LEFT), TileTap(GAME, 3, Tile(1, 1), TileIntent.CHOOSE_END),
    BackToHand(GAME, 3), LeaveAnswer(GAME, 0, False),
])
async def test_taps_on_a_hand_in_private_keep_the_games_group_order(button: Any) -> None:
    assert named_game(tap(private_chat(), button.encode())) == GAME
    assert await key(tap(private_chat(), button.encode())) == GROUP


async def test_a_private_tap_on_a_game_gone_from_the_database_stays_private() -> None:
    assert await key(tap(private_chat(), Lay(99, 1, Tile(0, 0), None).encode())) == USER
    assert await key(tap(private_chat(), "garbled:data")) == USER


@pytest.mark.parametrize("text", ["/start join42", "/start hand42", "/start@dominobot join42"])
async def test_deep_links_to_a_table_keep_its_groups_order(text: str) -> None:
    assert await key(message(private_chat(), text)) == GROUP


@pytest.mark.parametrize("text", ["/start", "/start join", "/start join042", "/hand", "/stats",
                                  "/rules gaple", "/help", "hello"])
async def test_other_private_messages_follow_their_chat(text: str) -> None:
    assert await key(message(private_chat(), text)) == USER


async def playing_in_group(user_id: int) -> int | None:
    return GROUP if user_id == USER else None


@pytest.mark.parametrize("text", ["/start", "/hand", "/stats", "hello"])
async def test_a_seated_players_private_chat_follows_their_games_group(text: str) -> None:
    """Its hands come from the group's worker: so do its replies (one window per chat)."""
    assert await route_key(message(private_chat(), text), chat_of, playing_in_group) == GROUP
    assert await route_key(member(private_chat()), chat_of, playing_in_group) == GROUP
    other = message(private_chat(USER + 1), text)
    other["message"]["from"] = user(USER + 1)
    assert await route_key(other, chat_of, playing_in_group) == USER + 1
    # A group's own updates never ask who plays where.
    assert await route_key(message(group_chat(), text), chat_of, playing_in_group) == GROUP


async def test_membership_follows_its_chat() -> None:
    assert await key(member(group_chat())) == GROUP
    assert await key(member(private_chat())) == USER


async def test_anything_else_follows_its_chat_or_sender() -> None:
    edited = {"update_id": 1, "edited_message": message(group_chat())["message"]}
    assert chat_key(edited) == GROUP
    inline = {"update_id": 1, "callback_query": {"id": "1", "from": user(), "data": "x",
                                                 "chat_instance": "c", "inline_message_id": "i"}}
    assert chat_key(inline) == USER
    poll_answer = {"update_id": 1,
                   "poll_answer": {"poll_id": "p", "user": user(), "option_ids": []}}
    assert chat_key(poll_answer) == USER
    assert chat_key({"update_id": 1}) is None


def test_shards_are_the_same_for_negative_ids_as_in_sql() -> None:
    # PostgreSQL's % keeps the dividend's sign, as C does: ((k % S) + S) % S is never negative
    for k, expected in ((GROUP, (GROUP % 64)), (-1, 63), (-64, 0), (65, 1), (0, 0)):
        assert 0 <= shard_of(k, 64) == expected < 64
