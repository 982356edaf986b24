"""What a picture is made of: the sprites and letters laid on it, in order, each with the box
of pixels it may change.

Every mark on a table picture is one of two strokes: a sprite pasted through its own alpha
(:func:`renderers.canvas.paste`) or a letter mask filled with a colour
(:func:`renderers.canvas.letter`). While a picture is being *recorded* they are kept instead
of drawn: comparing two pictures' strokes then says which rows a move changed, and replaying
the strokes over those rows alone gives them pixel for pixel (see :mod:`renderers.frames`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from .themes import Colour

Box = tuple[int, int, int, int]  # left, top, right, bottom: the pixels a stroke may change

# The picture being recorded (its pixel core: what ImageDraw draws on too) and its strokes.
_RECORDING: ContextVar[tuple[Any, list[Stroke]] | None] = ContextVar("recording", default=None)


Mark = tuple[Box, Colour | None, Hashable]  # what a kept picture remembers of a stroke


@dataclass(frozen=True, slots=True)
class _Same:
    """An unnamed ink, equal only to itself; held, so that its identity cannot be freed and
    taken by another object."""

    ink: Any = field(compare=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.ink is self.ink

    def __hash__(self) -> int:
        return id(self.ink)


@dataclass(frozen=True, slots=True, eq=False)
class Stroke:
    """One sprite (``colour`` None: its own pixels, through its alpha) or one mask filled with
    ``colour``, at ``box``. ``name`` says what the ink is (a cached sprite's or a label's key,
    see :func:`named`): two strokes with the same mark lay the same pixels, and a kept picture
    remembers its strokes' marks without holding their inks."""

    box: Box
    ink: Any  # a sprite (Image.Image, mode RGBA) or a mask (a Pillow core, mode L)
    colour: Colour | None = None
    name: Hashable | None = None

    @property
    def mark(self) -> Mark:
        return self.box, self.colour, self.name if self.name is not None else _Same(self.ink)

    def __repr__(self) -> str:
        what = "sprite" if self.colour is None else f"mask filled {self.colour!r}"
        return f"<Stroke {what} {self.name!r} at {self.box!r}>"

    def meets(self, top: int, bottom: int) -> bool:
        """Whether the stroke may change a pixel in rows ``top`` to ``bottom`` (excluded)."""
        return self.box[1] < bottom and self.box[3] > top

    def draw(self, core: Any, rows_above: int = 0) -> None:
        """Lay the stroke on a picture's pixel core, whose first row is the full picture's row
        ``rows_above`` (Pillow clips what falls outside)."""
        left, top, right, bottom = self.box
        box = (left, top - rows_above, right, bottom - rows_above)
        if self.colour is None:
            core.paste(self.ink.im, box, self.ink.im)
        else:
            core.paste(self.colour, box, self.ink)


def named(sprite: Image.Image, *name: Hashable) -> Image.Image:
    """``sprite``, a cache's, marked with the key it was made from: the same key always makes
    the same pixels, so strokes compare by it (see :attr:`Stroke.mark`)."""
    sprite.info["stroke"] = name
    return sprite


def sprite_stroke(sprite: Image.Image, x: int, y: int) -> Stroke:
    """``sprite`` with its top-left corner at (x, y)."""
    name = sprite.info.get("stroke")
    if sprite.mode != "RGBA":
        sprite = sprite.convert("RGBA")
    return Stroke((x, y, x + sprite.width, y + sprite.height), sprite, None, name)


def lay(core: Any, stroke: Stroke) -> None:
    """Draw ``stroke`` on the picture whose pixel core is ``core``, or keep it if that
    picture is being recorded."""
    state = _RECORDING.get()
    if state is not None and state[0] is core:
        state[1].append(stroke)
    else:
        stroke.draw(core)


@contextmanager
def recording(picture: Image.Image) -> Iterator[list[Stroke]]:
    """Within the block, strokes aimed at ``picture`` are kept in the list it gives, in
    order, and ``picture`` itself is left untouched."""
    strokes: list[Stroke] = []
    token = _RECORDING.set((picture.im, strokes))
    try:
        yield strokes
    finally:
        _RECORDING.reset(token)
