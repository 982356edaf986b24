"""Buttons already sitting in chats when the bot is upgraded: the tile buttons written before
the one lay button (``p:`` with two ends, ``e:``/``d:``/``f:``/``i:`` with an end) still act
as they did, on a deliberate deal."""

from __future__ import annotations

import pytest
from bot_kit import Group

import engine.match
from bot.models import Game
from engine import Action, Deal, End, Play, Tile, full_set
from fakeapi import StoredMessage
from fakeapi.players import active_hand


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile(int(a), int(b)) for a, b in (t.split("-") for t in text.split()))


# Ayu must lead 6-6, Budi can only lay 3-6, Sergei only 4-6: the ends are then 3 and 4, and
# Þóra's 3-4 fits both.
HANDS = (tiles("6-6 0-0 0-1 0-2 1-1 1-2 2-2"), tiles("3-6 0-3 1-3 0-4 1-4 2-3 0-5"),
         tiles("4-6 2-4 1-5 2-5 5-5 4-4 4-5"))
DEAL = Deal((*HANDS, tuple(t for t in full_set(6) if not any(t in h for h in HANDS))))


def hand_of(group: Group, seat: int) -> StoredMessage | None:
    """The hand message of the player in ``seat``, once it is theirs to move."""
    return active_hand(group.server, group.users[seat])


def last_move_of(game: Game, seat: int) -> Action:
    """The last action of ``seat`` in the hand (the bot may have knocked for others since)."""
    assert game.match is not None
    return [move.action for move in game.match.hand.moves if move.seat == seat][-1]


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.match, "seeded_deal", lambda *args, **kwargs: DEAL)


async def test_tile_buttons_in_the_earlier_form_still_play(group: Group, dealt: None) -> None:
    async with group.bot():
        await group.start("pair")
        game = group.game()
        assert game.match is not None
        for seat, tile, end in ((0, Tile(6, 6), "-"), (1, Tile(3, 6), "L"), (2, Tile(4, 6), "-")):
            user = group.users[seat]
            message = await group.server.wait_for(lambda s=seat: hand_of(group, s))  # type: ignore[misc]
            before = game.move_no
            record = user.press_raw(message, f"p:{game.game_id}:{before}:{tile.index}:{end}")
            await group.server.wait_for(
                lambda r=record, b=before: r.answered and game.move_no > b)  # type: ignore[misc]
            assert record.answer_text is None
            move = last_move_of(game, seat)
            assert isinstance(move, Play) and move.tile == tile
            assert end == "-" or move.end is End.LEFT
        thora = group.users[3]
        message = await group.server.wait_for(lambda: hand_of(group, 3))
        # The tile that fits both ends, as the earlier form asked which: "e:...:-".
        ask = thora.press_raw(message, f"e:{game.game_id}:{game.move_no}:{Tile(3, 4).index}:-")
        await group.server.wait_for(lambda: "Where does 3-4 go? Tap an end." in
                                    (message.caption or ""))
        assert ask.answer_text is None
        before = game.move_no
        lay = thora.press_raw(message, f"p:{game.game_id}:{before}:{Tile(3, 4).index}:R")
        await group.server.wait_for(lambda: lay.answered and game.move_no > before)
        assert last_move_of(game, 3) == Play(Tile(3, 4), End.RIGHT)
        await group.server.wait_idle()
    assert all(c.answered for c in group.server.callbacks)
