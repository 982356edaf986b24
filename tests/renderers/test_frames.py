"""A table picture drawn from the previous one's frame is the picture drawn whole, byte for
byte, in every game; only the changed rows are drawn again; the PNG is valid. The same for a
player's hand drawn from their seat's last hand picture."""

from __future__ import annotations

import io
import random
import zlib

import pytest
from PIL import Image

from engine import VARIANTS, Match, PlayerView, player_view
from goldens.positions import drawn_hand, hand_views, random_hand, with_line
from goldens.samples import LABELS, names_for
from renderers.backdrop import backdrop
from renderers.canvas import encode, learned_palette, rounded
from renderers.frames import BAND_ROWS, Frame, changed_bands, paint
from renderers.hand import draw_hand, hand_picture, render_hand
from renderers.png import adler32_combine
from renderers.strokes import sprite_stroke
from renderers.table import HEIGHT, WIDTH, draw_table, picture_height, table_picture
from renderers.themes import find_theme

GAMES = [(name, seats) for name, variant in VARIANTS.items()
         for seats in sorted({variant.seat_counts[0], variant.seat_counts[-1]})]


def pixels(png: bytes) -> bytes:
    with Image.open(io.BytesIO(png)) as picture:
        return picture.convert("RGB").tobytes()


@pytest.mark.parametrize(("game", "seats"), GAMES, ids=[f"{g}-{s}" for g, s in GAMES])
def test_a_picture_drawn_from_the_last_frame_is_the_picture_drawn_whole(
        game: str, seats: int) -> None:
    names = names_for(seats)
    since: Frame | None = None
    for move, view in enumerate(hand_views(game, seats, seed=len(game) + seats)):
        png, since = table_picture(view, names, labels=LABELS, since=since)
        whole, _ = table_picture(view, names, labels=LABELS)
        assert png == whole, f"move {move}"
        if move % 6 == 0:  # the pixels of the encoder every other picture uses
            drawn = encode(draw_table(view, names, find_theme("classic"), LABELS),
                           find_theme("classic"))
            assert pixels(png) == pixels(drawn), f"move {move}"


def test_a_move_draws_only_the_rows_it_changed() -> None:
    views = list(hand_views("pair", 4, seed=5))
    names = names_for(4)
    base = ("classic", WIDTH, HEIGHT)
    changed = []
    since: Frame | None = None
    for view in views[:12]:
        _, frame = table_picture(view, names, labels=LABELS)
        changed.append(len(changed_bands(frame.marks, base, HEIGHT, since)))
        since = frame
    total = -(-HEIGHT // BAND_ROWS)
    assert changed[0] == total  # nothing to draw from: every band
    assert max(changed[1:]) < total * 3 // 4
    assert sum(changed[1:]) / len(changed[1:]) < total / 2


def test_the_same_table_again_changes_no_band_and_gives_the_same_bytes() -> None:
    view = list(hand_views("gaple", 4, seed=2))[6]
    first, frame = table_picture(view, names_for(4), labels=LABELS)
    again, same = table_picture(view, names_for(4), labels=LABELS, since=frame)
    assert again == first
    assert changed_bands(same.marks, same.base, HEIGHT, frame) == []


def test_a_frame_of_another_theme_is_not_drawn_from() -> None:
    view = list(hand_views("gaple", 4, seed=2))[3]
    _, classic = table_picture(view, names_for(4), labels=LABELS)
    dark, _ = table_picture(view, names_for(4), theme="dark", labels=LABELS, since=classic)
    assert dark == table_picture(view, names_for(4), theme="dark", labels=LABELS)[0]


def test_a_frame_of_a_shorter_picture_is_not_drawn_from() -> None:
    """A growing line makes the picture taller: the taller one is drawn whole, the same."""
    base = hand_views("pair", 4, seed=2)[1]
    short, tall = with_line(base, 22), with_line(base, 25)
    assert picture_height(short, LABELS) == HEIGHT < picture_height(tall, LABELS)
    _, frame = table_picture(short, names_for(4), labels=LABELS)
    png, taller = table_picture(tall, names_for(4), labels=LABELS, since=frame)
    assert png == table_picture(tall, names_for(4), labels=LABELS)[0]
    height = picture_height(tall, LABELS)
    assert taller.base == ("classic", WIDTH, height)
    assert len(changed_bands(taller.marks, taller.base, height, frame)) == -(-height // BAND_ROWS)


def test_recording_leaves_the_empty_table_untouched() -> None:
    empty = backdrop("classic", WIDTH, HEIGHT)
    before = empty.tobytes()
    for view in list(hand_views("muggins", 3, seed=4))[:8]:
        table_picture(view, names_for(3), labels=LABELS)
    assert empty.tobytes() == before


def test_strokes_laid_in_another_order_are_drawn_again() -> None:
    """Two overlapping discs swapped: the same strokes, another picture."""
    canvas = Image.new("RGB", (200, 64), (20, 90, 40))
    palette = learned_palette("classic")
    assert palette is not None
    red = sprite_stroke(rounded(40, 40, 20, (220, 40, 40)), 50, 10)
    blue = sprite_stroke(rounded(40, 40, 20, (40, 40, 220)), 70, 14)
    base = ("test", 200, 64)
    _, before = paint((red, blue), canvas, base, palette)
    png, _ = paint((blue, red), canvas, base, palette, since=before)
    assert png == paint((blue, red), canvas, base, palette)[0]
    assert png != paint((red, blue), canvas, base, palette)[0]


def test_the_png_is_valid_and_its_checksum_combined_right() -> None:
    rng = random.Random(1)
    for _ in range(50):
        first = rng.randbytes(rng.randrange(0, 70_000))
        second = rng.randbytes(rng.choice([0, 1, 65_521, rng.randrange(1, 200_000)]))
        assert adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == (
            zlib.adler32(first + second))
    view = list(hand_views("bergen", 2, seed=3))[5]
    png, _ = table_picture(view, names_for(2), labels=LABELS)
    with Image.open(io.BytesIO(png)) as picture:
        picture.verify()  # chunk checksums
    with Image.open(io.BytesIO(png)) as picture:
        assert (picture.mode, picture.size) == ("P", (WIDTH, HEIGHT))
        picture.load()  # the zlib stream, its Adler-32 included


@pytest.mark.parametrize(("game", "seats"), [("pair", 4), ("kolbasa", 3), ("gaple-dead", 5)])
def test_a_kept_frame_holds_no_sprite_alive(game: str, seats: int) -> None:
    """Every mark names its ink (a sprite's or a label's key), so the frames the bot keeps
    hold no sprite the caches have let go: their memory is their bands."""
    for view in hand_views(game, seats, seed=3)[::4]:
        _, frame = table_picture(view, names_for(seats), labels=LABELS)
        held = [mark for mark in frame.marks if not isinstance(mark[2], tuple)]
        assert held == [], held[:3]


HAND_GAMES = [("pair", 4), ("muggins", 2), ("kolbasa", 3), ("gaple-dead", 5)]


def seat_views(game: str, seats: int, seed: int) -> list[PlayerView]:
    """The hand pictures a bot draws through one hand: after each move, the mover's and the
    next player's."""
    rng = random.Random(seed)
    match = Match(game, seats, {"target": 500})
    match.deal_hand(rng)
    views = []
    for seat, _ in random_hand(match, rng):
        views.append(player_view(match, seat))
        if match.to_move is not None:
            views.append(player_view(match, match.to_move))
    return views


@pytest.mark.parametrize(("game", "seats"), HAND_GAMES, ids=[f"{g}-{s}" for g, s in HAND_GAMES])
def test_a_hand_drawn_from_its_seats_last_frame_is_the_hand_drawn_whole(
        game: str, seats: int) -> None:
    frames: dict[int, Frame] = {}
    palette = find_theme("classic")
    for number, view in enumerate(seat_views(game, seats, seed=len(game))):
        png, frames[view.seat] = hand_picture(view, labels=LABELS, since=frames.get(view.seat))
        assert png == render_hand(view, labels=LABELS), f"picture {number}"
        if number % 4 == 0:  # the pixels of the encoder a whole picture used before frames
            assert pixels(png) == pixels(encode(draw_hand(view, palette, LABELS), palette))


def test_a_hand_of_another_size_is_drawn_whole_and_right() -> None:
    """A hand that wraps into a second row is a taller picture: its last frame, of one row,
    is no use to it."""
    short = drawn_hand(0)
    long = drawn_hand(12)
    _, frame = hand_picture(short, labels=LABELS)
    png, taller = hand_picture(long, labels=LABELS, since=frame)
    assert taller.base != frame.base
    assert png == render_hand(long, labels=LABELS)
