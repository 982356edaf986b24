"""A player's tiles drawn for a turn that is over before the drawing is done (the hand ended,
a timer played for them) are not sent: it would be one more private message, with a stale
picture and a notification, replaced at once by the message of the state that followed."""

from __future__ import annotations

import copy
import threading

import pytest
from bot_kit import Group
from test_e2e_hand_change import gate_drawings, lay_first_actions_until, move, up_to_the_last_move

from bot.handlers.runtime import Runtime
from engine import Action, Match, PlayerView


def gate_turn_drawings(runtime: Runtime, seat: int, monkeypatch: pytest.MonkeyPatch
                       ) -> tuple[threading.Event, threading.Event]:
    """(entered, go): the next drawing of ``seat``'s tiles on its turn waits until ``go``."""
    return gate_drawings(runtime, monkeypatch, "hand_drawing",
                         lambda view, language: view.seat == seat and view.my_turn)


def two_seats_end_it(match: Match, seat: int, action: Action
                     ) -> tuple[tuple[int, Action], tuple[int, Action]] | None:
    """This action and the next seat's first one end the hand, by two different seats."""
    trial = copy.deepcopy(match)
    trial.step(seat, action)
    if trial.hand.over or trial.to_move in (None, seat):
        return None
    last_seat = trial.to_move
    last = trial.legal_actions()[0]
    trial.step(last_seat, last)
    return ((seat, action), (last_seat, last)) if trial.hand.over else None


async def test_tiles_drawn_for_a_turn_that_ended_meanwhile_are_not_sent(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    async with group.bot() as runtime:
        await group.start("pair")
        await group.server.wait_idle()
        game = group.game()
        (first_seat, first), (last_seat, last) = await lay_first_actions_until(
            runtime, game, two_seats_end_it)
        player = group.users[[u.id for u in group.users].index(game.players[last_seat].user_id)]
        entered, go = gate_turn_drawings(runtime, last_seat, monkeypatch)
        await move(runtime, game, first_seat, first)  # last_seat's turn: its tiles are drawn
        await group.server.wait_for(entered.is_set, message="the turn's tiles were not drawn")
        mark = len(group.server.requests)
        await move(runtime, game, last_seat, last)  # the hand ends while they are drawn
        go.set()
        await runtime.publisher.idle()
        await group.server.wait_idle()
        sent = [r for r in group.server.requests[mark:]
                if r.method in ("sendPhoto", "sendMessage") and r.chat_id == player.id]
        assert game.match is not None and len(game.match.hands) == 2
        captions = [str(r.params.get("caption", r.params.get("text", ""))) for r in sent]
        assert len(sent) == 1, captions  # hand 2's tiles only
        assert "· hand 2" in captions[0], captions


async def test_tiles_drawn_for_a_turn_of_a_game_stopped_meanwhile_are_not_sent(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    """A /stop changes no move number: the turn's picture, done after it, must not go out as
    a new "your turn" message with live tiles for a game that has ended."""
    async with group.bot() as runtime:
        await group.start("pair")
        await group.server.wait_idle()
        game = group.game()
        match = game.match
        assert match is not None and match.to_move is not None
        mover = match.to_move
        action = match.legal_actions()[0]
        after = copy.deepcopy(match)
        after.step(mover, action)
        assert after.to_move not in (None, mover)
        turn_seat = after.to_move
        player = group.users[[u.id for u in group.users].index(game.players[turn_seat].user_id)]
        entered, go = gate_turn_drawings(runtime, turn_seat, monkeypatch)
        await move(runtime, game, mover, action)
        await group.server.wait_for(entered.is_set, message="the turn's tiles were not drawn")
        mark = len(group.server.requests)
        async with runtime.locks.game(game.game_id):
            await runtime.service.stop(game, game.creator_id, is_admin=True)
        go.set()
        await runtime.publisher.idle()
        await group.server.wait_idle()
        sent = [r for r in group.server.requests[mark:]
                if r.method in ("sendPhoto", "sendMessage") and r.chat_id == player.id]
        assert sent == [], [r.params.get("caption") for r in sent]
        last = group.server.messages(player.private_chat)[-1]
        assert last.button_texts == [], "the player's last message still has tiles to tap"


async def test_a_turn_played_while_the_old_hand_is_told_its_end_is_not_sent_after_it(
        group: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    """The next hand's leader first has their old message edited to show how the hand ended.
    Their turn may be played while that waits (a flood limit, a timer): the turn's message,
    drawn before, must not follow it as a new "your lead" message with live tiles."""
    async with group.bot() as runtime:
        await group.start("pair")
        await group.server.wait_idle()
        game = group.game()
        last_seat, last = await up_to_the_last_move(runtime, game)

        def leaders_ended_hand(view: PlayerView, language: str) -> bool:
            match = game.match
            return view.table.result is not None and match is not None \
                and view.seat == match.to_move
        entered, go = gate_drawings(runtime, monkeypatch, "hand_drawing", leaders_ended_hand)
        mark = len(group.server.requests)
        await move(runtime, game, last_seat, last)  # hand 1 ends: hand 2's leader is told
        await group.server.wait_for(entered.is_set, message="hand 1's end was not drawn")
        match = game.match
        assert match is not None and len(match.hands) == 2 and match.to_move is not None
        leader = match.to_move
        player = group.users[[u.id for u in group.users].index(game.players[leader].user_id)]
        await move(runtime, game, leader, match.legal_actions()[0])  # their lead, meanwhile
        go.set()
        await runtime.publisher.idle()
        await group.server.wait_idle()
        sent = [str(r.params.get("caption", r.params.get("text", "")))
                for r in group.server.requests[mark:]
                if r.method in ("sendPhoto", "sendMessage") and r.chat_id == player.id]
        assert len(sent) == 1 and "Your lead" not in sent[0], sent
        assert "· hand 2" in sent[0] and "Not your turn yet" in sent[0], sent
