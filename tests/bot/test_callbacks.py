"""Callback data: every button round-trips; anything forged or garbled decodes to None."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.callbacks import MAX_BYTES, Button, Kind, decode
from engine import Discard, End, Play, Tile


def test_every_tile_button_round_trips_within_64_bytes() -> None:
    for high in range(13):
        for low in range(high + 1):
            for kind in (Kind.PLAY, Kind.CHOOSE_END, Kind.DISCARD, Kind.INERT):
                for end in (End.LEFT, End.RIGHT, None):
                    button = Button(kind, 10**17, 10**6, Tile(low, high), end)
                    data = button.encode()
                    assert len(data.encode()) <= MAX_BYTES
                    assert decode(data) == button


def test_game_buttons_round_trip() -> None:
    for kind in (Kind.JOIN, Kind.LEAVE, Kind.START, Kind.CANCEL, Kind.HAND, Kind.STOP_YES,
                 Kind.STOP_NO):
        assert decode(Button(kind, 42).encode()) == Button(kind, 42)
    assert decode(Button(Kind.BACK, 7, 3).encode()) == Button(Kind.BACK, 7, 3)
    assert decode("n:pair") == Button(Kind.PICK_GAME, word="pair")


def test_buttons_name_the_engine_action() -> None:
    assert Button(Kind.PLAY, 1, 2, Tile(3, 4), End.LEFT).action() == Play(Tile(3, 4), End.LEFT)
    assert Button(Kind.DISCARD, 1, 2, Tile(3, 4)).action() == Discard(Tile(3, 4))
    assert Button(Kind.INERT, 1, 2, Tile(3, 4)).action() is None


def test_garbled_and_forged_data_is_refused() -> None:
    for data in ("", "p", "p:1:2:3", "p:1:2:91:L", "p:1:2:3:X", "p:01:2:3:L", "p:-1:2:3:L",
                 "z:1", "j:", "j:1:2", "p:1:2:3:L:extra", "n:", "n:PAIR", "b:1", "j:1\n",
                 "p:1:2:3:L ", "x" * 65, None):
        assert decode(data) is None, data


@given(st.text(max_size=80))
def test_arbitrary_text_never_crashes_decoding(data: str) -> None:
    button = decode(data)
    if button is not None:
        assert button.encode() == data
