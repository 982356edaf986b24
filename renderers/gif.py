"""An animated GIF written from palette-index pictures that all share one palette.

Pillow's own writer picks a palette per frame where it sees fit, merges equal frames and
decides for itself which pixels may be transparent. A replay knows better: its frames share
one palette (no flicker, one colour table for the whole file), each frame after the first is
only the rectangle that changed, and in it the pixels that did not change are the
:data:`TRANSPARENT` index, which the decoder leaves as they were (disposal 1): long runs of
one index, which LZW stores in a few codes. The pixels' LZW coding is Pillow's
(:func:`PIL.GifImagePlugin.getdata`).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import GifImagePlugin, Image, ImageChops

# The palette's last entry is never a colour: it marks a pixel left as the previous frame had it.
TRANSPARENT = 255
_KEEP = 1  # disposal method: leave the frame in place, the next one is drawn over it
_LOOP_FOREVER = b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"


@dataclass(frozen=True, slots=True)
class Piece:
    """What one frame lays: ``image`` (mode L: palette indices) with its top-left corner at
    ``offset``, shown for ``duration`` ms."""

    image: Image.Image
    offset: tuple[int, int]
    duration: int


def changes(previous: Image.Image, current: Image.Image, duration: int) -> Piece | None:
    """The rectangle where ``current`` differs from ``previous`` (two index pictures of one
    size), its unchanged pixels :data:`TRANSPARENT`; None where nothing differs."""
    delta = ImageChops.subtract_modulo(current, previous)
    box = delta.getbbox()
    if box is None:
        return None
    piece = current.crop(box)
    unchanged = delta.crop(box).point([255, *(0,) * 255], "1")
    piece.paste(TRANSPARENT, mask=unchanged)
    return Piece(piece, (box[0], box[1]), duration)


def animated_gif(size: tuple[int, int], colours: bytes, pieces: Sequence[Piece]) -> bytes:
    """The GIF of ``pieces`` in turn on a ``size`` screen, looping forever. ``colours``: up to
    255 RGB triples (the index :data:`TRANSPARENT` is kept free); the first piece covers the
    whole screen."""
    if len(colours) > 3 * TRANSPARENT or len(colours) % 3:
        raise ValueError("a replay's palette holds at most 255 colours")
    table = colours.ljust(768, b"\0")
    width, height = size
    out = [b"GIF89a", struct.pack("<HHBBB", width, height, 0xF7, 0, 0), table, _LOOP_FOREVER]
    for number, piece in enumerate(pieces):
        params: dict[str, int] = {"duration": piece.duration, "disposal": _KEEP}
        if number:
            params["transparency"] = TRANSPARENT
        out.extend(GifImagePlugin.getdata(piece.image, piece.offset, **params))
    out.append(b";")
    return b"".join(out)
