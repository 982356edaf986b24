"""Table pictures: time to draw and encode, bytes, against the floor of encoding a blank canvas.

    python -m benchmarks.render [--rounds N] [--theme NAME]

Renders the table with lines of 0, 14, 28, 55 and 91 tiles (a pair game, doubles across) at the
default size. Per line length it reports the median time to draw and encode, the bytes, and, in
the same run and interleaved with it, the floor: a blank canvas of the same size through the
same encoder (same palette reduction, same PNG settings), the cost no drawing can avoid. The
first picture after the sprite cache is emptied is reported too (each tile is drawn once, then
pasted). Then the same figures for the layouts beyond a plain line: the longest Muggins cross
and the longest Kolbasa ribbons seeded hands laid (goldens.positions.long_tables), and the
longest Six-matador line (crosswise matadors) of one seeded hand. These are whole pictures,
as the bot draws a table it has no earlier picture of.

Then, per game of ``MOVE_GAMES``, every move of one seeded hand drawn as the bot draws a table
after a move, from the previous picture's frame (renderers.frames), interleaved with the same
picture drawn whole: both medians, their ratio, and how many of the picture's bands a move drew
again on average. The last line is one JSON object (see README): ``tables`` per line length,
``layouts`` per named layout, ``moves`` per game.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import time
from typing import Any

from PIL import Image

from engine import TableView, table_view
from goldens.positions import hand_views, line_length, long_tables, most_tiles, played, with_line
from goldens.samples import LABELS, names_for
from renderers.canvas import COMPRESS_LEVEL, encode, learned_palette
from renderers.frames import BAND_ROWS, Frame, changed_bands, paint
from renderers.sprites import clear_cache
from renderers.table import draw_table, table_picture
from renderers.themes import THEMES, find_theme

LINE_LENGTHS = (0, 14, 28, 55, 91)
MOVE_GAMES = (("pair", 4), ("gaple-dead", 5), ("muggins", 3), ("kolbasa", 2), ("matador", 4))


def _since(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def _view(tiles: int) -> TableView:
    return with_line(table_view(played("pair", 4, 1, seed=3)), tiles)


def cold_ms(tiles: int, theme_name: str) -> float:
    """One picture with an empty sprite cache: every tile drawn from scratch."""
    clear_cache()
    start = time.perf_counter()
    encode(draw_table(_view(tiles), names_for(4), find_theme(theme_name), LABELS))
    return _since(start)


def rgb_png_ms(rounds: int, theme_name: str) -> float:
    """For context only: a blank canvas saved as plain RGB PNG, without the palette step."""
    blank = Image.new("RGB", (1280, 960), find_theme(theme_name).background)
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        blank.save(io.BytesIO(), format="PNG", compress_level=COMPRESS_LEVEL)
        times.append(_since(start))
    return statistics.median(times)


def measure(tiles: int, rounds: int, theme_name: str) -> dict[str, Any]:
    return {"tiles": tiles, **timed(_view(tiles), rounds, theme_name)}


def layouts() -> dict[str, TableView]:
    """The tables beyond a plain line the benchmark times, by name."""
    cross, ribbons = long_tables()
    six = most_tiles("six-matador", 2, 2, line_length)
    return {"muggins-cross": cross, "kolbasa-long": ribbons, "six-matador": table_view(six)}


def laid_tiles(view: TableView) -> int:
    layout = view.layout
    return len(layout.line) + len(layout.up) + len(layout.down)


def timed(view: TableView, rounds: int, theme_name: str) -> dict[str, Any]:
    """Median draw+encode of ``view``'s whole table (as the bot draws a table it has no
    frame of) against a blank canvas through the same encoder, interleaved."""
    palette = find_theme(theme_name)
    names = names_for(view.seats)
    picture = draw_table(view, names, palette, LABELS)  # warm: sprites and fonts cached
    blank = Image.new("RGB", picture.size, palette.background)
    colours = learned_palette(palette.name)
    assert colours is not None
    drawn, floor = [], []
    png = b""
    for _ in range(rounds):
        start = time.perf_counter()
        png, _ = table_picture(view, names, theme=theme_name, labels=LABELS)
        drawn.append(_since(start))
        start = time.perf_counter()
        paint((), blank, ("blank", *blank.size), colours)
        floor.append(_since(start))
    return {
        "median_ms": round(statistics.median(drawn), 2),
        "floor_ms": round(statistics.median(floor), 2),
        "bytes": len(png),
        "width": picture.width,
        "height": picture.height,
    }


def moves(game: str, seats: int, rounds: int, theme_name: str) -> dict[str, Any]:
    """Every move of a seeded hand drawn from the previous picture's frame (as the bot draws
    a table after a move) and drawn whole, interleaved: medians over all moves and rounds,
    and how many of the picture's bands a move drew again."""
    views = hand_views(game, seats, seed=7)
    names = names_for(seats)
    from_frame, whole, bands = [], [], []
    tallest = 0
    for _ in range(rounds):
        since: Frame | None = None
        for view in views:
            start = time.perf_counter()
            _, frame = table_picture(view, names, theme=theme_name, labels=LABELS, since=since)
            if since is not None:  # the hand's first picture has nothing to be drawn from
                from_frame.append(_since(start))
                height = frame.base[2]  # a long line's picture grows taller
                tallest = max(tallest, height)
                bands.append(len(changed_bands(frame.marks, frame.base, height, since)))
                start = time.perf_counter()
                table_picture(view, names, theme=theme_name, labels=LABELS)
                whole.append(_since(start))
            since = frame
    return {
        "game": game, "seats": seats, "moves": len(views) - 1,
        "from_frame_ms": round(statistics.median(from_frame), 2),
        "whole_ms": round(statistics.median(whole), 2),
        "ratio": round(statistics.median(from_frame) / statistics.median(whole), 2),
        "bands_drawn": round(statistics.mean(bands), 1),
        "bands": -(-tallest // BAND_ROWS),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--theme", choices=THEMES, default="classic")
    args = parser.parse_args(argv)
    cold = cold_ms(28, args.theme)
    tables = [measure(tiles, args.rounds, args.theme) for tiles in LINE_LENGTHS]
    for row in tables:
        ratio = row["median_ms"] / row["floor_ms"]
        print(
            f"{row['tiles']:3} tiles: {row['median_ms']:6.2f} ms draw+encode, floor "
            f"{row['floor_ms']:6.2f} ms ({ratio:.2f}x), {row['bytes'] / 1000:6.1f} KB, "
            f"{row['width']}x{row['height']}"
        )
    print(f" 28 tiles with an empty sprite cache: {cold:.1f} ms")
    laid = [{"name": name, "tiles": laid_tiles(view), **timed(view, args.rounds, args.theme)}
            for name, view in layouts().items()]
    for row in laid:
        ratio = row["median_ms"] / row["floor_ms"]
        print(
            f"{row['name']:>13} ({row['tiles']:2} tiles): {row['median_ms']:6.2f} ms draw+encode,"
            f" floor {row['floor_ms']:6.2f} ms ({ratio:.2f}x), {row['bytes'] / 1000:6.1f} KB"
        )
    played = [moves(game, seats, max(1, args.rounds // 5), args.theme)
              for game, seats in MOVE_GAMES]
    for row in played:
        print(
            f"{row['game']:>13} x{row['seats']}, {row['moves']:2} moves: "
            f"{row['from_frame_ms']:6.2f} ms from the last frame, {row['whole_ms']:6.2f} ms "
            f"whole ({row['ratio']:.2f}x), {row['bands_drawn']:.1f} of {row['bands']} bands"
        )
    rgb = rgb_png_ms(args.rounds, args.theme)
    print(f"for context, the blank canvas as plain RGB PNG (no palette step): {rgb:.2f} ms")
    print(json.dumps({"tables": tables, "layouts": laid, "moves": played}))


if __name__ == "__main__":
    main()
