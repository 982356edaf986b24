"""The font: Roboto from the ``font-roboto`` package (Latin with every accent, Cyrillic, Greek),
or DejaVu Sans where the system has it (the Docker image's ``fonts-dejavu-core``).

Names come from players and may hold anything. A glyph the font lacks would be drawn as a box
("tofu"), so :func:`printable` keeps only characters the font's character map covers, and
:func:`fit` shortens what is too wide with an ellipsis.
"""

from __future__ import annotations

import struct
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import ImageFont

from .errors import FontNotFoundError

ELLIPSIS = "\u2026"
# No text on a picture is smaller: a phone shows a 1280-px picture about 400 px wide, where
# 32 px becomes 10, the least that reads. Names and scores are drawn larger.
SMALLEST_TEXT = 32
SYSTEM_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))


@dataclass(frozen=True, slots=True)
class FontFiles:
    regular: Path
    bold: Path
    source: str  # where they came from, for error messages and the bench


def _package_fonts() -> FontFiles | None:
    try:
        import font_roboto  # type: ignore[import-untyped]
    except ImportError:
        return None
    folder = Path(font_roboto.__file__).parent / "files"
    regular, bold = folder / "Roboto-Regular.ttf", folder / "Roboto-Medium.ttf"
    if regular.is_file() and bold.is_file():
        return FontFiles(regular, bold, "font-roboto")
    return None


def _system_fonts() -> FontFiles | None:
    for folder in SYSTEM_FONT_DIRS:
        regular, bold = folder / "DejaVuSans.ttf", folder / "DejaVuSans-Bold.ttf"
        if regular.is_file() and bold.is_file():
            return FontFiles(regular, bold, "DejaVu Sans")
    return None


@cache
def font_files() -> FontFiles:
    """The fonts to draw with: the PyPI package first, then the system's DejaVu."""
    found = _package_fonts() or _system_fonts()
    if found is None:
        raise FontNotFoundError(
            "no font with Cyrillic and accents: install font-roboto (pip) or fonts-dejavu-core"
        )
    return found


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The UI font at ``size`` pixels. Basic layout: the same pixels whatever libraqm is."""
    files = font_files()
    path = files.bold if bold else files.regular
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


def _cmap_groups(data: bytes) -> list[tuple[int, int]]:
    """The (first, last) code point ranges of a TrueType font's Unicode character map."""
    (tables,) = struct.unpack_from(">H", data, 4)
    offset = next(
        struct.unpack_from(">I", data, 12 + 16 * i + 8)[0]
        for i in range(tables)
        if data[12 + 16 * i : 16 + 16 * i] == b"cmap"
    )
    (subtables,) = struct.unpack_from(">H", data, offset + 2)
    formats: dict[tuple[int, int, int], int] = {}
    for i in range(subtables):
        platform, encoding, sub = struct.unpack_from(">HHI", data, offset + 4 + 8 * i)
        (kind,) = struct.unpack_from(">H", data, offset + sub)
        formats[(platform, encoding, kind)] = offset + sub
    full = formats.get((3, 10, 12)) or formats.get((0, 4, 12))
    if full is not None:
        (groups,) = struct.unpack_from(">I", data, full + 12)
        return [struct.unpack_from(">II", data, full + 16 + 12 * g)[:2] for g in range(groups)]
    bmp = formats.get((3, 1, 4)) or formats.get((0, 3, 4))
    if bmp is None:
        return []
    (doubled,) = struct.unpack_from(">H", data, bmp + 6)
    count = doubled // 2
    ends = struct.unpack_from(f">{count}H", data, bmp + 14)
    starts = struct.unpack_from(f">{count}H", data, bmp + 16 + doubled)
    # Ranges whose glyph id resolves to 0 are rare in real fonts; format 4 is only a fallback.
    return [(start, end) for start, end in zip(starts, ends, strict=True) if start != 0xFFFF]


@cache
def covered(path: Path) -> frozenset[int]:
    """Every code point the font at ``path`` has a glyph for."""
    points: set[int] = set()
    for first, last in _cmap_groups(path.read_bytes()):
        points.update(range(first, last + 1))
    return frozenset(points)


@cache
def drawable() -> frozenset[int]:
    """The code points both weights of the UI font can draw."""
    files = font_files()
    return covered(files.regular) & covered(files.bold)


def printable(text: str) -> str:
    """``text`` with what the font cannot draw left out (emoji, joiners, unknown scripts)."""
    have = drawable()
    kept = []
    for char in unicodedata.normalize("NFC", text):
        if char.isspace():
            kept.append(" ")
        elif unicodedata.category(char)[0] != "C" and ord(char) in have:
            kept.append(char)
    return " ".join("".join(kept).split())


def fit(text: str, face: ImageFont.FreeTypeFont, max_width: float) -> str:
    """``text`` shortened with an ellipsis until it is at most ``max_width`` wide."""
    if face.getlength(text) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits together with the ellipsis
        middle = (low + high + 1) // 2
        if face.getlength(text[:middle].rstrip() + ELLIPSIS) <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS if low else ELLIPSIS
