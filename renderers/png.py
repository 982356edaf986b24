"""An 8-bit palette PNG written from bands of rows compressed one by one.

Each band is deflated by a compressor of its own and ends on a byte boundary (a sync flush),
so the bands' bytes simply follow one another in the one zlib stream PNG wants: a band that
did not change since the last picture keeps its bytes, and only the changed bands are
compressed again. The stream's Adler-32 is combined from the bands' own, so no band is read
twice. Rows carry PNG's filter type 0 (none), the type meant for palette pictures.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# zlib's level 3: about twice as fast as its default, about a quarter larger, which a server
# uploads in well under a millisecond (see renderers.canvas.COMPRESS_LEVEL).
LEVEL = 3
_ZLIB_HEADER = b"\x78\x5e"  # deflate, 32 KiB window, "fast" levels; a multiple of 31
_LAST_BLOCK = b"\x03\x00"  # an empty final block with fixed codes: ends the deflate stream
_ADLER_BASE = 65521


@dataclass(frozen=True, slots=True)
class Band:
    """Some rows of a picture, each led by its filter byte, deflated on their own."""

    deflated: bytes
    adler: int  # the Adler-32 of the rows as they were before deflating
    length: int  # how many bytes the rows were

    @classmethod
    def of(cls, rows: bytes) -> Band:
        compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        deflated = compressor.compress(rows) + compressor.flush(zlib.Z_SYNC_FLUSH)
        return cls(deflated, zlib.adler32(rows), len(rows))


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings one after the other, from each one's own (zlib's
    ``adler32_combine``, which Python does not expose)."""
    remainder = second_length % _ADLER_BASE
    low = first & 0xFFFF
    high = (remainder * low) % _ADLER_BASE
    low += (second & 0xFFFF) + _ADLER_BASE - 1
    high += (first >> 16) + (second >> 16) + _ADLER_BASE - remainder
    low %= _ADLER_BASE
    high %= _ADLER_BASE
    return low | (high << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    checksum = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", checksum)


def palette_png(width: int, height: int, palette: bytes, bands: Sequence[Band]) -> bytes:
    """The PNG of a ``width`` x ``height`` picture in ``palette`` (RGB triples) whose rows,
    top to bottom, are the ``bands``'."""
    adler = 1
    for band in bands:
        adler = adler32_combine(adler, band.adler, band.length)
    stream = b"".join((_ZLIB_HEADER, *(band.deflated for band in bands), _LAST_BLOCK,
                       struct.pack(">I", adler)))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit, palette
    return b"".join((SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette),
                     _chunk(b"IDAT", stream), _chunk(b"IEND", b"")))
