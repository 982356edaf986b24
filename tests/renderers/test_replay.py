"""A hand's replay, decoded as a phone's app would: real hands of every game played through the
engine, told again by ``engine.hand_tables``, drawn by ``render_replay``.

The relation checked: the GIF has exactly ``len(tables) + 1`` frames, frame ``k`` (for ``k <
len(tables)``) being ``tables[k]`` (0: as dealt, ``k``: after the hand's ``k``-th move) and the
last frame the hand's result. Every frame's table is the group's table picture of its move,
halved and mapped to the replay's palette at the top of the frame (the background under a
shorter one), pixel for pixel, and differs from its neighbours'.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator
from dataclasses import replace
from functools import cache

import pytest
from PIL import Image, ImageChops, ImageSequence

import renderers.canvas
import renderers.palettes
import renderers.replay
from benchmarks.replay import played
from engine import VARIANTS, TableView
from goldens.samples import LABELS, names_for
from renderers import ViewMismatchError, render_replay
from renderers.frames import Frame
from renderers.replay import (
    DEALT_MS,
    MOST_BYTES,
    MOVE_MS,
    NARROWER,
    RESULT_MS,
    SCALE,
    STRIP,
    WIDTH,
)
from renderers.result import draw_hand_result
from renderers.table import table_picture
from renderers.themes import find_theme

GAMES = [(name, seats, 6) for name, variant in VARIANTS.items()
         for seats in sorted({variant.seat_counts[0], variant.seat_counts[-1]})]
# The longest hands: a double-12 set dealt to four, the stock drawn whenever it may be.
LONG = [("pair", 4, 12), ("gaple", 4, 9), ("muggins", 2, 6), ("bergen", 2, 6),
        ("french", 2, 6), ("matador", 2, 6), ("kolbasa", 2, 6), ("six-matador", 2, 6)]
# Every kind of move: plays, knocks, draws, cuts (Kolbasa), dead tiles (gaple-dead).
FOLLOWED = [("pair", 4, 12), ("muggins", 2, 6), ("kolbasa", 2, 6), ("gaple-dead", 5, 6),
            ("bergen", 3, 6)]


def _ids(cases: list[tuple[str, int, int]]) -> list[str]:
    return [f"{game}-{seats}-set{highest}" for game, seats, highest in cases]


@cache
def finished_hand(game: str, seats: int, highest: int) -> tuple[TableView, ...]:
    """The tables of a hand dealt from a fixed seed and played to its end by the benchmark's
    plain rule: draw whenever drawing is legal (the longest hands), else the first legal move."""
    return played(game, seats, highest, len(game) * 10 + seats)


@cache
def replay(game: str, seats: int, highest: int) -> bytes:
    return render_replay(finished_hand(game, seats, highest), names_for(seats), labels=LABELS)


def frames(gif: bytes) -> list[tuple[Image.Image, int]]:
    """Each frame as shown (RGB, the frames before it composed under it) and its duration."""
    with Image.open(io.BytesIO(gif)) as animation:
        assert animation.format == "GIF"
        assert animation.info.get("loop") == 0  # forever
        return [(frame.convert("RGB"), int(frame.info["duration"]))
                for frame in ImageSequence.Iterator(animation)]


def palette_of(gif: bytes) -> Image.Image:
    """The GIF's global colour table, less its transparent entry, as a palette to map to."""
    palette = Image.new("P", (1, 1))
    palette.putpalette(gif[13:13 + 255 * 3])
    return palette


def halved(picture: Image.Image, palette: Image.Image) -> Image.Image:
    """A full-size picture as a replay shows it: halved, in the replay's colours."""
    small = picture.convert("RGB").reduce(SCALE)
    return small.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")


def differing(one: Image.Image, other: Image.Image) -> int:
    """How many pixels of two same-size RGB pictures differ."""
    bands = ImageChops.difference(one, other).split()
    moved = ImageChops.lighter(ImageChops.lighter(bands[0], bands[1]), bands[2])
    return one.width * one.height - moved.histogram()[0]


def blocks(gif: bytes) -> Iterator[tuple[str, bytes]]:
    """The GIF's blocks after its screen and global table: ("extension", label and data),
    ("image", the descriptor's 9 bytes), then ("end", b"")."""
    assert gif[:6] == b"GIF89a" and gif[10] & 0x80  # a global colour table
    at = 13 + 3 * (2 << (gif[10] & 7))
    while True:
        kind = gif[at]
        if kind == 0x3B:
            yield "end", b""
            return
        if kind == 0x21:
            label, at = gif[at + 1:at + 2], at + 2
        else:
            assert kind == 0x2C
            label, at = gif[at + 1:at + 10], at + 11  # descriptor, then the LZW code size
            assert not label[8] & 0x80, "a frame with a colour table of its own"
        data = bytearray(label)
        while gif[at]:
            data += gif[at + 1:at + 1 + gif[at]]
            at += 1 + gif[at]
        at += 1
        yield ("extension" if kind == 0x21 else "image"), bytes(data)


@pytest.mark.parametrize(("game", "seats", "highest"), GAMES + LONG, ids=_ids(GAMES + LONG))
def test_a_replay_is_a_frame_per_table_and_the_result_within_a_phones_budget(
        game: str, seats: int, highest: int) -> None:
    tables = finished_hand(game, seats, highest)
    gif = replay(game, seats, highest)
    shown = frames(gif)
    assert len(shown) == len(tables) + 1
    durations = [duration for _, duration in shown]
    assert durations == [DEALT_MS, *[MOVE_MS] * (len(tables) - 1), RESULT_MS]
    assert all(duration <= 1000 for duration in durations[1:-1])
    assert len(gif) <= MOST_BYTES
    assert {picture.size for picture, _ in shown} == {shown[0][0].size}
    assert shown[0][0].width == WIDTH
    images = [data for kind, data in blocks(gif) if kind == "image"]
    assert len(images) == len(shown)  # one picture a frame, all in the global colours
    width, height = struct.unpack("<HH", gif[6:10])
    assert (width, height) == shown[0][0].size


@pytest.mark.parametrize(("game", "seats", "highest"), FOLLOWED, ids=_ids(FOLLOWED))
def test_each_frame_is_its_moves_table_and_the_last_the_result(
        game: str, seats: int, highest: int) -> None:
    tables = finished_hand(game, seats, highest)
    names = names_for(seats)
    gif = replay(game, seats, highest)
    shown = [picture for picture, _ in frames(gif)]
    palette = palette_of(gif)
    region = (0, 0, WIDTH, shown[0].height - STRIP // SCALE)  # above the counter's strip
    theme = find_theme("classic")
    background = halved(Image.new("RGB", (SCALE, SCALE), theme.background), palette)

    def framed(picture: Image.Image) -> Image.Image:
        """A full-size picture halved at the top of the frame, the background under it."""
        canvas = Image.new("RGB", region[2:], background.getpixel((0, 0)))
        canvas.paste(halved(picture, palette), (0, 0))
        return canvas

    expected = []
    since: Frame | None = None
    for view in tables:  # the group's pictures, each drawn as the bot draws it after a move
        png, since = table_picture(view, names, labels=LABELS, since=since)
        with Image.open(io.BytesIO(png)) as picture:
            expected.append(framed(picture))
    for k in range(len(tables)):
        table = shown[k].crop(region)
        assert differing(table, expected[k]) == 0, f"frame {k}"
        for neighbour in (k - 1, k + 1):
            if 0 <= neighbour < len(tables):
                assert differing(table, expected[neighbour]) > 0, f"frame {k} ~ {neighbour}"
        assert differing(shown[k], shown[k + 1]) > 0
    result = framed(draw_hand_result(tables[-1], names, theme, LABELS))
    assert differing(shown[-1].crop(region), result) == 0
    assert differing(shown[-2].crop(region), result) > 0
    strip = (0, region[3], WIDTH, shown[0].height)
    assert differing(shown[-1].crop(strip), shown[-2].crop(strip)) == 0  # the last count stays


def test_the_counter_and_dealt_words_come_from_the_labels(drawn_text: list[str]) -> None:
    tables = finished_hand("french", 2, 6)
    labels = replace(LABELS, replay_move="Zug {number} von {moves}", replay_dealt="Anfang")
    render_replay(tables, names_for(2), labels=labels)
    moves = len(tables) - 1
    assert "Anfang" in drawn_text
    assert [f"Zug {k} von {moves}" for k in range(1, moves + 1)] == \
        [words for words in drawn_text if words.startswith("Zug ")]


def test_the_dark_theme_and_the_same_bytes_every_time() -> None:
    tables = finished_hand("muggins", 2, 6)
    dark = render_replay(tables, names_for(2), theme="dark", labels=LABELS)
    assert dark == render_replay(tables, names_for(2), theme="dark", labels=LABELS)
    assert dark != replay("muggins", 2, 6)
    assert len(frames(dark)) == len(tables) + 1


def test_a_replay_over_the_budget_is_drawn_narrower(monkeypatch: pytest.MonkeyPatch) -> None:
    tables = finished_hand("muggins", 2, 6)
    whole = replay("muggins", 2, 6)
    budget = len(whole) * 6 // 10
    monkeypatch.setattr("renderers.replay.MOST_BYTES", budget)
    smaller = render_replay(tables, names_for(2), labels=LABELS)
    assert len(smaller) <= budget
    shown = frames(smaller)
    assert len(shown) == len(tables) + 1
    assert shown[0][0].width in NARROWER
    monkeypatch.setattr("renderers.replay.MOST_BYTES", 1)  # out of reach: the narrowest
    narrowest = frames(render_replay(tables, names_for(2), labels=LABELS))
    assert len(narrowest) == len(tables) + 1
    assert narrowest[0][0].width == NARROWER[-1]


def test_only_a_finished_hand_is_replayed() -> None:
    tables = finished_hand("pair", 4, 6)
    with pytest.raises(ViewMismatchError):
        render_replay(tables[:-1], names_for(4))
    with pytest.raises(ViewMismatchError):
        render_replay((), names_for(4))


def test_a_theme_without_learned_colours_is_replayed_too(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tables = finished_hand("gaple-dead", 4, 6)

    def forget() -> None:
        renderers.canvas.learned_palette.cache_clear()
        renderers.replay._colours.cache_clear()

    monkeypatch.delitem(renderers.palettes.PALETTES, "dark")
    forget()
    try:
        gif = render_replay(tables, names_for(4), theme="dark", labels=LABELS)
    finally:
        monkeypatch.undo()
        forget()
    shown = frames(gif)
    assert len(shown) == len(tables) + 1
    assert len(gif) <= MOST_BYTES
    assert shown[0][0].width == WIDTH
