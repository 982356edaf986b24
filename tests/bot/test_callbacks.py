"""Callback data: every button round-trips; anything forged or garbled decodes to None."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot.computers import COMPUTER_LEVELS
from bot.gamebook import GAMES
from bot.presentation.buttonforms import MAX_BYTES
from bot.presentation.callbacks import PATTERNS, Button, decode, kinds_of
from bot.presentation.gamebuttons import (
    AddComputer,
    CheckDeal,
    LeaveAnswer,
    LobbyAction,
    LobbyTap,
    PickGame,
    PlayAgain,
    ReplaceAway,
    ReplayHand,
    SettingTap,
    ShowHand,
    ShowRules,
    StopAnswer,
    TakeSeatBack,
)
from bot.presentation.tilebuttons import BackToHand, Lay, TileIntent, TileTap, Way
from engine import Cut, Discard, End, Play, Tile

BIG = 10**17


def test_every_tile_button_round_trips_within_64_bytes() -> None:
    for high in range(13):
        for low in range(high + 1):
            for intent in TileIntent:
                button = TileTap(BIG, 10**6, Tile(low, high), intent)
                data = button.encode()
                assert len(data.encode()) <= MAX_BYTES
                assert decode(data) == button


def every_kind_of_button() -> list[Button]:
    buttons: list[Button] = [LobbyTap(42, action) for action in LobbyAction]
    buttons += [AddComputer(BIG, level) for level in COMPUTER_LEVELS]
    buttons += [BackToHand(7, 3), ShowHand(BIG), StopAnswer(5, True), StopAnswer(5, False),
                LeaveAnswer(5, 3, True), LeaveAnswer(5, 0, False), ReplaceAway(BIG, 4)]
    buttons += [PickGame(game, BIG) for game in GAMES] + [ShowRules(game) for game in GAMES]
    buttons += [PlayAgain(BIG), CheckDeal(BIG, 0), CheckDeal(7, 12)]
    buttons += [SettingTap(), SettingTap("", "done"), SettingTap("", "turn_seconds", 6),
                SettingTap("gaple-dead", "blank_double_25", 1), SettingTap("pair")]
    buttons += [ReplayHand(BIG, 0), ReplayHand(7, 12), TakeSeatBack(BIG, 3)]
    return buttons


def test_every_kind_round_trips_and_carries_only_its_own_fields() -> None:
    for button in every_kind_of_button():
        data = button.encode()
        assert len(data.encode()) <= MAX_BYTES
        assert decode(data) == button, data


def test_each_family_pattern_claims_exactly_its_own_buttons() -> None:
    from bot.handlers.buttons import ROUTES

    assert set(ROUTES) == set(PATTERNS)
    for button in [*every_kind_of_button(), TileTap(1, 2, Tile(3, 4), TileIntent.INERT),
                   Lay(1, 2, Tile(3, 4), End.LEFT)]:
        families = [f for f, pattern in PATTERNS.items() if re.match(pattern, button.encode())]
        assert len(families) == 1, button
        assert isinstance(button, kinds_of(families[0])), (button, families)


def test_buttons_name_the_engine_action() -> None:
    tile = Tile(3, 4)
    assert Lay(1, 2, tile, End.LEFT).action() == Play(tile, End.LEFT)
    assert TileTap(1, 2, tile, TileIntent.DISCARD).action() == Discard(tile)
    assert TileTap(1, 2, tile, TileIntent.INERT).action() is None
    assert TileTap(1, 2, tile, TileIntent.CHOOSE_END).action() is None


def test_garbled_and_forged_data_is_refused() -> None:
    for data in ("", "p", "p:1:2:3", "p:1:2:91:L", "p:1:2:3:X", "p:01:2:3:L", "p:-1:2:3:L",
                 "z:1", "j:", "j:1:2", "p:1:2:3:L:extra", "n:", "n:PAIR", "b:1", "j:1\n",
                 "p:1:2:3:L ", "x" * 65, None, "a:1:4", "a:1", "r:1", "v:1", "o:", "o:a:b",
                 "o:a:b:x", "o:a:b:01", "o:" + "a" * 25 + "::", "V:1", "V:1:01", "V:1:2:3",
                 "V:-1:2", "n:pair:", "n:pair:01"):
        assert decode(data) is None, data


def test_a_game_picker_that_does_not_name_its_asker_is_out_of_date() -> None:
    """Anyone could take the table with it: a tap on one is answered as out of date."""
    assert decode("n:pair") is None
    assert decode(PickGame("pair", 42).encode()) == PickGame("pair", 42)


@given(st.text(max_size=80))
def test_arbitrary_text_never_crashes_decoding(data: str) -> None:
    button = decode(data)
    if button is not None:  # (an earlier form is written the current way)
        assert decode(button.encode()) == button


def test_lay_buttons_round_trip_within_64_bytes_and_decode_strictly() -> None:
    for high in range(13):
        for low in range(high + 1):
            tile = Tile(low, high)
            for end in (*End, None):
                for way, cross in ((Way.ANY, None), (Way.ALONG, False), (Way.ACROSS, True)):
                    lay = Lay(BIG, 10**6, tile, end, way)
                    assert len(lay.encode().encode()) <= MAX_BYTES
                    assert decode(lay.encode()) == lay
                    assert lay.action() == Play(tile, end, None, cross)
            for give in (End.LEFT, End.RIGHT):
                cut = Lay(BIG, 10**6, tile, give, Way.CUT)
                assert decode(cut.encode()) == cut and cut.action() == Cut(tile, give)
                assert Lay.of(BIG, 10**6, Cut(tile, give)) == cut
    for forged in ("q:1:2:3:U:y", "q:1:2:3:X:x", "q:1:2:99:L:x", "q:1:2:3:L", "z:1:2:3:U",
                   "z:1:2:3:-", "z:1:2:99:L", "z:01:2:3:L", "q:1:2:3:L:x:", "q:1:2:3:L:c",
                   "p:1:2:3:U:c", "p:1:2:3:-:c", "p:1:2:3:L:y", "e:1:2:3:U", "p:1:2:3:U"):
        assert decode(forged) is None, forged
    assert re.match(PATTERNS["play"], Lay(1, 2, Tile(0, 1), End.UP, Way.ACROSS).encode())
    assert re.match(PATTERNS["play"], Lay(1, 2, Tile(0, 1), End.LEFT, Way.CUT).encode())


# What the encoder before the one lay button wrote (buttons still sitting in chats), and the
# value each now stands for: it acts as it did.
EARLIER_FORMS = {
    "p:7:3:4:L": Lay(7, 3, Tile(1, 2), End.LEFT),
    "p:7:3:4:-": Lay(7, 3, Tile(1, 2), None),
    "q:7:3:4:U:x": Lay(7, 3, Tile(1, 2), End.UP, Way.ACROSS),
    "q:7:3:4:L:a": Lay(7, 3, Tile(1, 2), End.LEFT, Way.ALONG),
    "q:7:3:4:D:-": Lay(7, 3, Tile(1, 2), End.DOWN),
    "z:7:3:4:R": Lay(7, 3, Tile(1, 2), End.RIGHT, Way.CUT),
    "e:7:3:4:-": TileTap(7, 3, Tile(1, 2), TileIntent.CHOOSE_END),
    "d:7:3:4:-": TileTap(7, 3, Tile(1, 2), TileIntent.DISCARD),
    "f:7:3:4:-": TileTap(7, 3, Tile(1, 2), TileIntent.ASK_DISCARD),
    "i:7:3:4:-": TileTap(7, 3, Tile(1, 2), TileIntent.INERT),
}


def test_buttons_written_before_the_one_lay_button_decode_to_the_same_action() -> None:
    assert Tile(1, 2).index == 4
    for data, button in EARLIER_FORMS.items():
        assert decode(data) == button, data
        families = [f for f, pattern in PATTERNS.items() if re.match(pattern, data)]
        assert families == ["play"], data
    assert EARLIER_FORMS["p:7:3:4:L"].action() == Play(Tile(1, 2), End.LEFT)
    assert EARLIER_FORMS["q:7:3:4:U:x"].action() == Play(Tile(1, 2), End.UP, None, True)
    assert EARLIER_FORMS["z:7:3:4:R"].action() == Cut(Tile(1, 2), End.RIGHT)
    assert EARLIER_FORMS["d:7:3:4:-"].action() == Discard(Tile(1, 2))


def test_take_my_seat_back_is_the_take_back_family_and_its_data_is_unchanged() -> None:
    """The family is named as the button and its route (review: "reclaim"); the data its
    buttons carry, on messages already sent, keeps its "T" prefix and decodes as before."""
    from bot.handlers.buttons import ROUTES
    from bot.handlers.returns import take_back_tapped

    button = TakeSeatBack(42, 3)
    assert kinds_of("take_back") == (TakeSeatBack,)
    assert ROUTES["take_back"] is take_back_tapped
    assert button.encode().startswith("T") and decode(button.encode()) == button
    assert re.match(PATTERNS["take_back"], button.encode())
