"""The group's table when a hand ends while the table's picture is still being drawn: the
drawing shows the hand before its last move, and the sync that sends it must not take it for
the next hand's table (a new message with a stale picture above the hand's result)."""

from __future__ import annotations

import asyncio
import copy
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from bot_kit import Group

from bot.handlers.runtime import Runtime
from bot.models import Game
from bot.presentation.pictures import Drawing
from engine import Action, Match

T = TypeVar("T")

HAND_OVER = "Hand 1 is over."


def gate_drawings(runtime: Runtime, monkeypatch: pytest.MonkeyPatch, maker: str,
                  held: Callable[..., bool]) -> tuple[threading.Event, threading.Event]:
    """(entered, go): the next drawing ``runtime.pictures.<maker>`` makes for arguments that
    ``held`` accepts waits in the picture thread (``entered`` is set) until ``go``."""
    entered, go = threading.Event(), threading.Event()
    make: Callable[..., Drawing] = getattr(runtime.pictures, maker)

    def gated(*args: Any) -> Drawing:
        drawing = make(*args)
        if go.is_set() or not held(*args):
            return drawing

        def draw() -> bytes:
            entered.set()
            go.wait(10)
            return drawing()
        return draw

    monkeypatch.setattr(runtime.pictures, maker, gated)
    return entered, go


def gate_table_drawings(runtime: Runtime, monkeypatch: pytest.MonkeyPatch
                        ) -> tuple[threading.Event, threading.Event, threading.Event]:
    """(arm, entered, go): once armed, the next table drawing waits until ``go``."""
    arm = threading.Event()
    entered, go = gate_drawings(runtime, monkeypatch, "table_drawing",
                                lambda game, view: arm.is_set())
    return arm, entered, go


def ends_the_hand(game: Game, seat: int, action: Action) -> bool:
    assert game.match is not None
    trial = copy.deepcopy(game.match)
    trial.step(seat, action)
    return trial.hand.over


async def move(runtime: Runtime, game: Game, seat: int, action: Action) -> None:
    async with runtime.locks.game(game.game_id):
        await runtime.service.act(game, game.players[seat].user_id, game.move_no, action)


async def lay_first_actions_until(runtime: Runtime, game: Game,
                                  found: Callable[[Match, int, Action], T | None]) -> T:
    """The players make their first legal action until ``found`` (the match, the seat to
    move and that action) says what it was looking for; that action is not made."""
    while True:
        assert game.match is not None and len(game.match.hands) == 1
        seat = game.match.to_move
        assert seat is not None
        action = game.match.legal_actions()[0]
        if (result := found(game.match, seat, action)) is not None:
            return result
        await move(runtime, game, seat, action)
        await runtime.publisher.idle()


async def up_to_the_last_move(runtime: Runtime, game: Game) -> tuple[int, Action]:
    """Up to the move that would end the hand: that seat and that move, not made."""
    return await lay_first_actions_until(
        runtime, game, lambda match, seat, action: (seat, action)
        if ends_the_hand(game, seat, action) else None)


async def test_a_hand_that_ends_while_its_table_is_drawn_keeps_its_table_above_the_result(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    async with group.bot() as runtime:
        await group.start("pair")
        await group.server.wait_idle()
        game = group.game()
        arm, entered, go = gate_table_drawings(runtime, monkeypatch)
        seat, action = await up_to_the_last_move(runtime, game)
        table = group.messages()[-1]
        assert table.photo is not None and "hand 1" in (table.caption or "")
        arm.set()
        async with runtime.locks.game(game.game_id):  # half the turn's time: the table changes
            assert await runtime.service.warn(game, game.move_no)
        await group.server.wait_for(entered.is_set, message="the table was not drawn again")
        await move(runtime, game, seat, action)  # the hand ends while its table is drawn
        go.set()
        await runtime.publisher.idle()
        await group.server.wait_idle()
        after = group.messages()[group.messages().index(table) + 1:]
        texts = [m.caption or m.text or "" for m in after]
        assert texts[0].startswith(HAND_OVER), texts  # no table sent before the result
        assert [m.photo is not None and "hand 2" in t for m, t in zip(after, texts, strict=True)
                ][1:] == [True], texts
        assert "hand 1" in (table.caption or "") and table.button_texts == []


async def test_a_hand_that_ends_while_the_table_waits_for_its_budget_is_told_before_the_next(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    """The group's sync waits for its budget before drawing; a hand ending meanwhile puts its
    result in the outbox and deals the next hand: the result goes first, then the next
    hand's table (not the new table above the old hand's result)."""
    async with group.bot() as runtime:
        await group.start("pair")
        await group.server.wait_idle()
        game = group.game()
        seat, action = await up_to_the_last_move(runtime, game)
        table = group.messages()[-1]
        limiter = runtime.limiter
        assert limiter is not None
        entered, go = asyncio.Event(), asyncio.Event()
        ready = limiter.ready

        async def held(chat_id: int) -> None:
            if chat_id == group.chat.id and not go.is_set():
                entered.set()
                await go.wait()
            await ready(chat_id)

        monkeypatch.setattr(limiter, "ready", held)
        async with runtime.locks.game(game.game_id):  # half the turn's time: the table changes
            assert await runtime.service.warn(game, game.move_no)
        await asyncio.wait_for(entered.wait(), 10)
        await move(runtime, game, seat, action)  # the hand ends while the sync waits
        go.set()
        await runtime.publisher.idle()
        await group.server.wait_idle()
        after = group.messages()[group.messages().index(table) + 1:]
        texts = [m.caption or m.text or "" for m in after]
        assert texts[0].startswith(HAND_OVER), texts
        assert ["hand 2" in t for t in texts[1:]] == [True], texts
