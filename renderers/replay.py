"""A finished hand told again as a short animation: the table as dealt, after each move in
turn (plays, knocks, draws, cuts, dead tiles), then the hand's result with every hand open.

One GIF frame per table and one for the result, all on one canvas: the table pictures are the
group's own (:mod:`renderers.table`), halved to :data:`WIDTH` px (a phone shows them some 400
wide), above a strip with the move's number and a bar of how far the hand has gone (which
also makes every frame differ from the one before it). Each picture is the one the group
saw, at the top of the frame: a long line makes the group's picture taller, so the canvas is
as tall as the hand's tallest picture, and a shorter one (most often the result) leaves the
theme's background under it.

Drawing is cheap because a move changes few of the table's rows: each table is drawn from
the previous one's frame (:func:`renderers.table.table_picture`), and only the bands of rows
whose PNG bytes changed are decoded, halved and mapped to the palette again. Every frame is
in one palette, the theme's learned colours (:func:`renderers.canvas.learned_palette`) less
the one most like another, whose index marks the pixels a frame leaves as they were
(:mod:`renderers.gif`).
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Generator, Iterator, Sequence
from functools import cache
from itertools import chain

from PIL import Image, ImageDraw

from engine import TableView

from .backdrop import MARGIN
from .backdrop import WIDTH as FULL_WIDTH
from .canvas import learned_palette, paste, rounded, text
from .errors import ViewMismatchError
from .fonts import SMALLEST_TEXT
from .frames import BAND_ROWS, Frame
from .gif import TRANSPARENT, Piece, animated_gif, changes
from .labels import ENGLISH, TableLabels
from .result import draw_hand_result
from .table import picture_height, table_picture
from .themes import Theme, find_theme

SCALE = 2  # each 2 x 2 pixels of the 1280 px pictures averaged into one
WIDTH = FULL_WIDTH // SCALE
DEALT_MS, MOVE_MS, RESULT_MS = 1500, 800, 4000  # how long each frame shows
STRIP = 64  # the counter's strip below the table, in the full pictures' pixels
MOST_BYTES = 1_000_000  # what a phone should download for a replay, at most
NARROWER = (512, 400, 320)  # the widths a replay over MOST_BYTES is tried at, in turn


# For a theme without learned colours: 6 x 7 x 6 levels of red, green and blue.
_CUBE = bytes(round(level * 255 / (steps - 1))
              for r in range(6) for g in range(7) for b in range(6)
              for level, steps in ((r, 6), (g, 7), (b, 6)))


@cache
def _colours(theme_name: str) -> tuple[bytes, Image.Image]:
    """The replay's 255 colours (RGB triples) and the same as a palette picture to map to:
    the theme's learned palette less the colour nearest another one."""
    learned = learned_palette(theme_name)
    rgb = bytes(learned.getpalette() or ())[:768] if learned is not None else _CUBE
    triples = [tuple(rgb[i:i + 3]) for i in range(0, len(rgb), 3)]
    if len(triples) > TRANSPARENT:
        _, redundant = min(
            (sum((a - b) ** 2 for a, b in zip(one, other, strict=True)), later)
            for first, one in enumerate(triples)
            for later, other in enumerate(triples[first + 1:], first + 1)
        )
        del triples[redundant]
    colours = b"".join(bytes(triple) for triple in triples[:TRANSPARENT])
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return colours, palette


def _indices(image: Image.Image, theme_name: str) -> Image.Image:
    """An RGB picture halved and mapped to the replay's palette, as an index picture (L)."""
    _, palette = _colours(theme_name)
    halved = image.reduce(SCALE) if SCALE > 1 else image
    mapped = halved.quantize(palette=palette, dither=Image.Dither.NONE)
    return Image.frombytes("L", mapped.size, mapped.tobytes())


def _band_rows(frame: Frame, first: int, last: int, full: Image.Image) -> Image.Image:
    """Bands ``first`` to ``last`` (excluded) of the frame's PNG as an RGB picture."""
    width = frame.base[1]
    data = b"".join(zlib.decompressobj(-zlib.MAX_WBITS).decompress(band.deflated)
                    for band in frame.bands[first:last])
    rows = len(data) // (width + 1)
    picture = Image.frombytes("P", (width + 1, rows), data)
    picture.putpalette(full.getpalette() or ())
    return picture.crop((1, 0, width + 1, rows)).convert("RGB")


def _changed_runs(frame: Frame, since: Frame | None) -> Iterator[tuple[int, int]]:
    """Runs of bands, (first, past the last), whose bytes differ from ``since``'s."""
    same_shape = since is not None and since.base == frame.base
    changed = [number for number, band in enumerate(frame.bands)
               if not same_shape or since is None or band.deflated != since.bands[number].deflated]
    start = None
    for number, band in enumerate(changed):
        if start is None:
            start = band
        if number + 1 == len(changed) or changed[number + 1] != band + 1:
            yield start, band + 1
            start = None


def _tables(tables: Sequence[TableView], names: Sequence[str], palette: Theme,
            labels: TableLabels) -> Iterator[Image.Image]:
    """Each table's picture halved, as palette indices, each drawn from the one before."""
    learned = learned_palette(palette.name)
    since: Frame | None = None
    shown: Image.Image | None = None
    for view in tables:
        png, frame = table_picture(view, names, theme=palette.name, labels=labels,
                                   since=since)
        size = (WIDTH, -(-frame.base[2] // SCALE))
        # A picture of another height is drawn whole (every band differs).
        shown = shown.copy() if shown is not None and shown.size == size else \
            Image.new("L", size)
        if learned is None:  # a theme without learned colours: its pictures are drawn whole
            with Image.open(io.BytesIO(png)) as whole:
                shown.paste(_indices(whole.convert("RGB"), palette.name), (0, 0))
        else:
            for first, last in _changed_runs(frame, since):
                part = _indices(_band_rows(frame, first, last, learned), palette.name)
                shown.paste(part, (0, first * BAND_ROWS // SCALE))
        since = frame
        yield shown


def _strip(number: int, moves: int, palette: Theme, labels: TableLabels) -> Image.Image:
    """The strip under a table: which move it shows ("dealt" before the first) and a bar of
    the hand's moves, filled to it."""
    strip = Image.new("RGB", (FULL_WIDTH, STRIP), palette.background)
    draw = ImageDraw.Draw(strip)
    words = labels.replay_move.format(number=number, moves=moves) if number else \
        labels.replay_dealt
    left, right, middle = MARGIN + 8, FULL_WIDTH - MARGIN - 8, STRIP // 2
    used = text(draw, (left, middle), words, SMALLEST_TEXT, palette.text, bold=True,
                anchor="lm", max_width=FULL_WIDTH // 3)
    bar_left, bar_h = round(left + used + 24), 16
    length = right - bar_left
    paste(strip, rounded(length, bar_h, bar_h // 2, palette.panel, palette.panel_edge, 2),
          bar_left, middle - bar_h // 2)
    done = round(length * number / max(moves, 1))
    if done >= bar_h:
        paste(strip, rounded(done, bar_h, bar_h // 2, palette.accent), bar_left,
              middle - bar_h // 2)
    return _indices(strip, palette.name)


def _frames(tables: Sequence[TableView], names: Sequence[str], palette: Theme,
            labels: TableLabels) -> Iterator[tuple[Image.Image, int]]:
    """Each frame's picture (palette indices, :data:`WIDTH` wide) and how long it shows."""
    result = _indices(draw_hand_result(tables[-1], names, palette, labels), palette.name)
    tallest = max(-(-max(picture_height(view, labels) for view in tables) // SCALE),
                  result.height)
    size = (WIDTH, tallest + STRIP // SCALE)
    background = _indices(Image.new("RGB", (SCALE, SCALE), palette.background),
                          palette.name).tobytes()[0]
    moves = len(tables) - 1
    strip: Image.Image | None = None
    pictures = chain(_tables(tables, names, palette, labels), [result])
    for number, picture in enumerate(pictures):
        canvas = Image.new("L", size, background)
        canvas.paste(picture, (0, 0))
        if number <= moves:  # the result keeps the last move's strip
            strip = _strip(number, moves, palette, labels)
        assert strip is not None
        canvas.paste(strip, (0, tallest))
        yield canvas, DEALT_MS if number == 0 else MOVE_MS if number <= moves else RESULT_MS


def _narrower(frames: Iterator[tuple[Image.Image, int]], width: int,
              theme_name: str) -> Iterator[tuple[Image.Image, int]]:
    """The frames made ``width`` px wide, mapped to the palette again: a box filter, whose
    few new colours keep the GIF smaller than Lanczos' ringing does."""
    colours, palette = _colours(theme_name)
    for canvas, duration in frames:
        height = round(canvas.height * width / canvas.width)
        coloured = Image.frombytes("P", canvas.size, canvas.tobytes())
        coloured.putpalette(colours)
        smaller = coloured.convert("RGB").resize((width, height), Image.Resampling.BOX)
        mapped = smaller.quantize(palette=palette, dither=Image.Dither.NONE)
        yield Image.frombytes("L", mapped.size, mapped.tobytes()), duration


def _gif(frames: Iterator[tuple[Image.Image, int]], colours: bytes
         ) -> Generator[None, None, bytes]:
    """The GIF of ``frames``: the first whole, each next one as what changed; a step (a
    ``yield``) after each frame, so that the thread drawing it can draw something more urgent
    in between (see :func:`replay_steps`)."""
    pieces: list[Piece] = []
    previous: Image.Image | None = None
    for canvas, duration in frames:
        piece = Piece(canvas, (0, 0), duration) if previous is None else \
            changes(previous, canvas, duration)
        assert piece is not None, "the counter tells every frame from the one before"
        pieces.append(piece)
        previous = canvas
        yield
    assert previous is not None
    return animated_gif(previous.size, colours, pieces)


def replay_steps(tables: Sequence[TableView], names: Sequence[str], *, theme: str = "classic",
                 labels: TableLabels = ENGLISH) -> Generator[None, None, bytes]:
    """:func:`render_replay` one frame at a time: the generator yields after each frame it
    draws and returns the GIF. A replay takes a few hundred milliseconds, and the bot's one
    picture thread must not keep every group's table waiting that long.
    Raises :class:`ViewMismatchError` unless the last table is the hand's end (at once, not
    at the first step)."""
    if not tables or tables[-1].result is None:
        raise ViewMismatchError("a replay is of a finished hand: its last table has the result")
    return _replay(tables, names, find_theme(theme), labels)


def _replay(tables: Sequence[TableView], names: Sequence[str], palette: Theme,
            labels: TableLabels) -> Generator[None, None, bytes]:
    colours, _ = _colours(palette.name)
    gif = yield from _gif(_frames(tables, names, palette, labels), colours)
    # The bytes go about as the pixels: the steps surely too wide are not tried.
    wide = len(gif)
    for width in NARROWER:
        if len(gif) <= MOST_BYTES:
            break
        if width != NARROWER[-1] and wide * (width / WIDTH) ** 2 > MOST_BYTES * 0.9:
            continue
        gif = yield from _gif(
            _narrower(_frames(tables, names, palette, labels), width, palette.name), colours)
    return gif


def _finished(steps: Generator[None, None, bytes]) -> bytes:
    """What ``steps`` returns, all its steps taken at once."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: bytes = done.value
            return result


def render_replay(tables: Sequence[TableView], names: Sequence[str], *, theme: str = "classic",
                  labels: TableLabels = ENGLISH) -> bytes:
    """The animated GIF of a finished hand from its tables (``engine.hand_tables``),
    :data:`WIDTH` px wide, looping forever: exactly ``len(tables) + 1`` frames, frame ``k``
    showing ``tables[k]`` (0: as dealt, :data:`DEALT_MS`; ``k``: after the ``k``-th move,
    :data:`MOVE_MS`) and the last the hand's result with every hand open
    (:data:`RESULT_MS`). A hand whose GIF would pass :data:`MOST_BYTES` is drawn narrower,
    a step of :data:`NARROWER` at a time (skipping those its size says are still too wide;
    the narrowest is returned whatever its size).
    Raises :class:`ViewMismatchError` unless the last table is the hand's end."""
    return _finished(replay_steps(tables, names, theme=theme, labels=labels))
