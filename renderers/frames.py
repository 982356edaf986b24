"""A picture drawn again after a move: only the rows that changed (the group's table, and
each player's hand in their private chat).

A move changes a few places of the table (the new tile and the one it no longer highlights,
the ends' badges, two seats' counts and turn marks), yet drawing, reducing to the palette and
compressing the whole picture again was most of a move's cost. So a picture is recorded as
its strokes (:mod:`renderers.strokes`) and kept as a :class:`Frame`: the strokes' marks (what
each lays where, by name: no pixels, no sprites) and the PNG's bands of :data:`BAND_ROWS`
rows, each compressed on its own (:mod:`renderers.png`). The next picture's strokes are
compared with the previous one's; a band where the two differ is drawn
from the empty table by replaying, clipped to its rows, every stroke that meets it; every other
band keeps its bytes.

That is exact, not an approximation: the strokes common to both pictures are matched in order
(a longest common subsequence), so outside the rows of the unmatched ones every pixel is laid
by the same strokes in the same order on the same backdrop. A picture drawn from a frame is
byte for byte the picture drawn from nothing.

:func:`framed` is how a renderer draws this way: it hands over what lays the picture's strokes.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from PIL import Image

from .backdrop import backdrop
from .canvas import encode, learned_palette
from .png import Band, palette_png
from .strokes import Box, Mark, Stroke, recording
from .themes import Theme

# 16 rows: a tile is some 5 bands high, a seat's panel 8. Taller bands compress a little better
# (each band starts with an empty window) but redraw more rows around a change.
BAND_ROWS = 16

Base = tuple[str, int, int]  # what strokes are laid on: the backdrop's theme, width and height


@dataclass(frozen=True, slots=True, eq=False)
class Frame:
    """What a picture was made of, to draw the next picture of the same table from: its
    strokes' marks and its PNG's bands (some 40 KB in all), not its pixels, nor the sprites
    it laid (a mark names them)."""

    marks: tuple[Mark, ...]
    bands: tuple[Band, ...]
    base: Base


def _drawn_on(since: Frame | None, base: Base, count: int) -> bool:
    """Whether ``since`` is a picture of ``count`` bands on the same backdrop."""
    return since is not None and since.base == base and len(since.bands) == count


def changed_bands(marks: Sequence[Mark], base: Base, height: int,
                  since: Frame | None) -> list[int]:
    """The bands whose pixels may differ from ``since``'s, in order."""
    count = -(-height // BAND_ROWS)
    if not _drawn_on(since, base, count):
        return list(range(count))
    assert since is not None
    matcher = difflib.SequenceMatcher(None, since.marks, marks, autojunk=False)
    dirty: set[int] = set()
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for box, _, _ in (*since.marks[i1:i2], *marks[j1:j2]):
            top, bottom = max(box[1], 0), min(box[3], height)
            if top < bottom:
                dirty.update(range(top // BAND_ROWS, (bottom - 1) // BAND_ROWS + 1))
    return sorted(dirty)


def _runs(bands: list[int]) -> Iterator[tuple[int, int]]:
    """Consecutive bands as (first, past the last): each run is drawn as one strip."""
    start = previous = None
    for band in bands:
        if previous is not None and band == previous + 1:
            previous = band
            continue
        if start is not None and previous is not None:
            yield start, previous + 1
        start = previous = band
    if start is not None and previous is not None:
        yield start, previous + 1


# base -> (the empty picture, the palette, the empty picture mapped to it): a few sizes of
# hands and one of tables per theme.
_INDEXED: dict[Base, tuple[Image.Image, Image.Image, Image.Image]] = {}
INDEXED_KEPT = 16


def _indexed_backdrop(base: Base, backdrop: Image.Image, palette: Image.Image) -> Image.Image:
    """The empty picture in the palette's indices, each row led by its filter byte (0), as
    a picture one column wider: mapped to the palette once, not under every move."""
    kept = _INDEXED.get(base)
    if kept is not None and kept[0] is backdrop and kept[1] is palette:
        return kept[2]
    palette.load()
    filtered = Image.new("P", (backdrop.width + 1, backdrop.height), 0)
    filtered.paste(backdrop.quantize(palette=palette, dither=Image.Dither.NONE), (1, 0))
    if len(_INDEXED) >= INDEXED_KEPT:
        _INDEXED.pop(next(iter(_INDEXED)))
    _INDEXED[base] = (backdrop, palette, filtered)
    return filtered


def _outermost(areas: list[Box]) -> list[Box]:
    """``areas`` without those inside another (a tile's label, a badge on a panel)."""
    return [area for number, area in enumerate(areas)
            if not any(other[0] <= area[0] and other[1] <= area[1] and other[2] >= area[2]
                       and other[3] >= area[3] and (other != area or before < number)
                       for before, other in enumerate(areas) if before != number)]


def _strip(strokes: Sequence[Stroke], backdrop: Image.Image, base: Base, palette: Image.Image,
           top: int, bottom: int) -> bytes:
    """Rows ``top`` to ``bottom`` of the picture, in the palette's indices, each row led by
    its filter byte (0).

    Only the strokes' boxes are mapped to the palette (a pixel's index depends on its colour
    alone): every other pixel is the empty picture's, whose indices are kept. Most of a hand
    and much of a table's changed rows are bare felt."""
    width = backdrop.width
    rows = backdrop.crop((0, top, width, bottom))
    core = rows.im
    areas: list[Box] = []
    for stroke in strokes:
        if stroke.meets(top, bottom):
            stroke.draw(core, top)
            left, above, right, below = stroke.box
            area = (max(left, 0), max(above - top, 0), min(right, width),
                    min(below, bottom) - top)
            if area[0] < area[2] and area[1] < area[3]:
                areas.append(area)
    indexed = _indexed_backdrop(base, backdrop, palette).crop((0, top, width + 1, bottom))
    target = indexed.im
    for left, above, right, below in _outermost(areas):
        mapped = core.crop((left, above, right, below)).convert("P", 0, palette.im)
        target.paste(mapped, (left + 1, above, right + 1, below))
    return indexed.tobytes()


def paint(strokes: Sequence[Stroke], backdrop: Image.Image, base: Base, palette: Image.Image,
          since: Frame | None = None) -> tuple[bytes, Frame]:
    """The PNG of the picture ``strokes`` lay on ``backdrop``, in ``palette`` (a palette
    picture), drawn where it differs from ``since``; and its own frame."""
    width, height = backdrop.size
    marks = tuple(stroke.mark for stroke in strokes)
    count = -(-height // BAND_ROWS)
    bands: list[Band | None] = (
        list(since.bands) if since is not None and _drawn_on(since, base, count)
        else [None] * count
    )
    stride = (width + 1) * BAND_ROWS
    for first, last in _runs(changed_bands(marks, base, height, since)):
        top, bottom = first * BAND_ROWS, min(last * BAND_ROWS, height)
        rows = _strip(strokes, backdrop, base, palette, top, bottom)
        for band in range(first, last):
            start = (band - first) * stride
            bands[band] = Band.of(rows[start:start + stride])
    done = tuple(band for band in bands if band is not None)
    assert len(done) == len(bands), "every band is drawn or kept"
    colours = bytes(palette.getpalette() or ())
    return palette_png(width, height, colours, done), Frame(marks, done, base)


def framed(palette: Theme, width: int, height: int, compose: Callable[[Image.Image], None],
           since: Frame | None = None) -> tuple[bytes, Frame]:
    """The PNG of the picture ``compose`` lays on the theme's empty ``width`` x ``height``
    backdrop, drawn only where it differs from ``since`` (the same picture's previous
    frame), and its frame. A theme without a learned palette is drawn whole, its palette
    searched for (and its frame draws nothing next time)."""
    empty = backdrop(palette.name, width, height)
    base = (palette.name, width, height)
    colours = learned_palette(palette.name)
    if colours is None:
        canvas = empty.copy()
        compose(canvas)
        return encode(canvas, palette), Frame((), (), base)
    with recording(empty) as strokes:
        compose(empty)
    return paint(strokes, empty, base, colours, since)
