"""Callback data: every button round-trips; anything forged or garbled decodes to None."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.callbacks import (
    MAX_BYTES,
    PATTERNS,
    AddComputer,
    BackToHand,
    Button,
    LeaveAnswer,
    LobbyAction,
    LobbyTap,
    PickGame,
    PlayAgain,
    ReplaceAway,
    SettingTap,
    ShowHand,
    ShowRules,
    StopAnswer,
    TileIntent,
    TileTap,
    decode,
)
from bot.gamebook import GAMES
from bot.models import COMPUTER_LEVELS
from engine import Discard, End, Play, Tile

BIG = 10**17


def test_every_tile_button_round_trips_within_64_bytes() -> None:
    for high in range(13):
        for low in range(high + 1):
            for intent in TileIntent:
                for end in (End.LEFT, End.RIGHT, None):
                    button = TileTap(BIG, 10**6, Tile(low, high), intent, end)
                    data = button.encode()
                    assert len(data.encode()) <= MAX_BYTES
                    assert decode(data) == button


def every_kind_of_button() -> list[Button]:
    buttons: list[Button] = [LobbyTap(42, action) for action in LobbyAction]
    buttons += [AddComputer(BIG, level) for level in COMPUTER_LEVELS]
    buttons += [BackToHand(7, 3), ShowHand(BIG), StopAnswer(5, True), StopAnswer(5, False),
                LeaveAnswer(5, 3, True), LeaveAnswer(5, 0, False), ReplaceAway(BIG, 4)]
    buttons += [PickGame(game) for game in GAMES] + [ShowRules(game) for game in GAMES]
    buttons += [PlayAgain(BIG)]
    buttons += [SettingTap(), SettingTap("", "done"), SettingTap("", "turn_seconds", 6),
                SettingTap("gaple-dead", "blank_double_25", 1), SettingTap("pair")]
    return buttons


def test_every_kind_round_trips_and_carries_only_its_own_fields() -> None:
    for button in every_kind_of_button():
        data = button.encode()
        assert len(data.encode()) <= MAX_BYTES
        assert decode(data) == button, data


def test_each_family_pattern_claims_exactly_its_own_buttons() -> None:
    from bot.buttons import ROUTES

    assert set(ROUTES) == set(PATTERNS)
    for button in [*every_kind_of_button(), TileTap(1, 2, Tile(3, 4), TileIntent.PLAY)]:
        families = [f for f, pattern in PATTERNS.items() if re.match(pattern, button.encode())]
        assert len(families) == 1, button
        kinds, _ = ROUTES[families[0]]
        assert isinstance(button, kinds), (button, families)


def test_buttons_name_the_engine_action() -> None:
    tile = Tile(3, 4)
    assert TileTap(1, 2, tile, TileIntent.PLAY, End.LEFT).action() == Play(tile, End.LEFT)
    assert TileTap(1, 2, tile, TileIntent.DISCARD).action() == Discard(tile)
    assert TileTap(1, 2, tile, TileIntent.INERT).action() is None
    assert TileTap(1, 2, tile, TileIntent.CHOOSE_END).action() is None


def test_garbled_and_forged_data_is_refused() -> None:
    for data in ("", "p", "p:1:2:3", "p:1:2:91:L", "p:1:2:3:X", "p:01:2:3:L", "p:-1:2:3:L",
                 "z:1", "j:", "j:1:2", "p:1:2:3:L:extra", "n:", "n:PAIR", "b:1", "j:1\n",
                 "p:1:2:3:L ", "x" * 65, None, "a:1:3", "a:1", "r:1", "v:1", "o:", "o:a:b",
                 "o:a:b:x", "o:a:b:01", "o:" + "a" * 25 + "::"):
        assert decode(data) is None, data


@given(st.text(max_size=80))
def test_arbitrary_text_never_crashes_decoding(data: str) -> None:
    button = decode(data)
    if button is not None:
        assert button.encode() == data
