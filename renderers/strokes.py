"""What a picture is made of: the sprites and letters laid on it, in order, each with the box
of pixels it may change.

Every mark on a table picture is one of two strokes: a sprite pasted through its own alpha
(:func:`renderers.canvas.paste`) or a letter mask filled with a colour
(:func:`renderers.canvas.letter`). While a picture is being *recorded* they are kept instead
of drawn: comparing two pictures' strokes then says which rows a move changed, and replaying
the strokes over those rows alone gives them pixel for pixel (see :mod:`renderers.frames`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from PIL import Image

from .themes import Colour

Box = tuple[int, int, int, int]  # left, top, right, bottom: the pixels a stroke may change

# The picture being recorded (its pixel core: what ImageDraw draws on too) and its strokes.
_RECORDING: ContextVar[tuple[Any, list[Stroke]] | None] = ContextVar("recording", default=None)


@dataclass(frozen=True, slots=True, eq=False)
class Stroke:
    """One sprite (``colour`` None: its own pixels, through its alpha) or one mask filled with
    ``colour``, at ``box``. Two strokes are the same when they lay the same object (the caches'
    sprites and masks are shared) at the same place in the same colour: held here, the object
    cannot be freed and its identity taken by another."""

    box: Box
    ink: Any  # a sprite (Image.Image, mode RGBA) or a mask (a Pillow core, mode L)
    colour: Colour | None = None

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Stroke) and self.ink is other.ink and self.box == other.box
                and self.colour == other.colour)

    def __hash__(self) -> int:
        return hash((id(self.ink), self.box, self.colour))

    def __repr__(self) -> str:
        what = "sprite" if self.colour is None else f"mask filled {self.colour!r}"
        return f"<Stroke {what} at {self.box!r}>"

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


def sprite_stroke(sprite: Image.Image, x: int, y: int) -> Stroke:
    """``sprite`` with its top-left corner at (x, y)."""
    if sprite.mode != "RGBA":
        sprite = sprite.convert("RGBA")
    return Stroke((x, y, x + sprite.width, y + sprite.height), sprite)


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
