"""The font: Roboto from the ``font-roboto`` package (Latin with every accent, Cyrillic, Greek),
or DejaVu Sans where the system has it (the Docker image's ``fonts-dejavu-core``); and, for
the letters it lacks, the :data:`FALLBACKS` in ``renderers/typefaces/`` with their licences:
Noto Sans Arabic (Arabic, Persian, Urdu; it needs Pillow's complex text layout, libraqm with
FriBiDi, the Docker image's ``libfribidi0``, to join its letters and run right to left) and
WenQuanYi Micro Hei (Chinese, Japanese kana, Korean Hangul; one weight, 5 MB, 2.3 MB in the
wheel: Noto Sans CJK would take 16 MB a weight).

Names come from players and may hold anything. A glyph no font has would be drawn as a box
("tofu"), so :func:`printable` keeps only characters a font's character map covers, and
:func:`fit` shortens what is too wide with an ellipsis. A text the UI font cannot draw whole is
cut into :func:`runs` by the font that draws each part, in the order they are seen (an Arabic
name's runs from right to left).
"""

from __future__ import annotations

import struct
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import ImageFont, features

from .errors import FontNotFoundError

ELLIPSIS = "\u2026"
# No text on a picture is smaller: a phone shows a 1280-px picture about 400 px wide, where
# 40 px becomes 12.5 (its capitals 9), the least that reads. Names and scores are drawn larger.
SMALLEST_TEXT = 40
SYSTEM_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"))
TYPEFACES = Path(__file__).parent / "typefaces"


@dataclass(frozen=True, slots=True)
class Fallback:
    """A font for letters the UI font lacks: a file (a collection's ``index``-th font), the
    weights of a variable font for regular and bold (None: one weight for both), and whether
    its script must be shaped and ordered by the complex layout."""

    path: Path
    index: int = 0
    weights: tuple[int, int] | None = None
    shaped: bool = False


# In order of preference after the UI font. Noto Sans Arabic 2.012 is the variable font as
# Google Fonts ships it (ofl/notosansarabic), drawn at Regular and, as Roboto's bold is,
# Medium; WenQuanYi Micro Hei 0.2.0-beta as Debian ships it (fonts-wqy-microhei).
FALLBACKS = (
    Fallback(TYPEFACES / "NotoSansArabic-VF.ttf", weights=(400, 500), shaped=True),
    Fallback(TYPEFACES / "wqy-microhei.ttc"),
)
ARABIC = FALLBACKS[0].path
RIGHT_TO_LEFT = frozenset({"R", "AL"})
STRONG = RIGHT_TO_LEFT | {"L"}  # letters: the rest (digits, spaces, marks) take a side


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


def shaping() -> bool:
    """Whether Pillow can join and order Arabic letters (libraqm with FriBiDi). Without it
    they would stand apart and left to right, unreadable: then they are not drawn at all."""
    return bool(features.check_feature("raqm"))


@cache
def fallback(size: int, bold: bool = False, which: int = 1) -> ImageFont.FreeTypeFont:
    """Fallback font number ``which`` (1 for the first of :data:`FALLBACKS`) at ``size``."""
    chosen = FALLBACKS[which - 1]
    layout = ImageFont.Layout.RAQM if chosen.shaped else ImageFont.Layout.BASIC
    face = ImageFont.truetype(str(chosen.path), size, index=chosen.index, layout_engine=layout)
    if chosen.weights is not None:
        weight = chosen.weights[bold]
        face.set_variation_by_axes([float(weight) if axis["name"] == b"Weight" else
                                    float(axis["default"] or 0)
                                    for axis in face.get_variation_axes()])
    return face


def _cmap_groups(data: bytes, index: int = 0) -> list[tuple[int, int]]:
    """The (first, last) code point ranges of a TrueType font's Unicode character map (the
    ``index``-th font's of a collection)."""
    start = struct.unpack_from(">I", data, 12 + 4 * index)[0] if data[:4] == b"ttcf" else 0
    (tables,) = struct.unpack_from(">H", data, start + 4)
    offset = next(
        struct.unpack_from(">I", data, start + 12 + 16 * i + 8)[0]
        for i in range(tables)
        if data[start + 12 + 16 * i : start + 16 + 16 * i] == b"cmap"
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
def covered(path: Path, index: int = 0) -> frozenset[int]:
    """Every code point the font at ``path`` (a collection's ``index``-th) has a glyph for."""
    points: set[int] = set()
    for first, last in _cmap_groups(path.read_bytes(), index):
        points.update(range(first, last + 1))
    return frozenset(points)


@cache
def drawable() -> frozenset[int]:
    """The code points both weights of the UI font can draw, and the fallbacks' (the Arabic
    font's where Pillow can shape them)."""
    return ui_covers().union(*(_fallback_covers(which)
                               for which in range(1, len(FALLBACKS) + 1)))


@cache
def ui_covers() -> frozenset[int]:
    """The code points both weights of the UI font can draw in its basic layout: not the
    letters written right to left (DejaVu has Arabic and Hebrew), which it would lay
    unjoined and from the left."""
    files = font_files()
    return frozenset(point for point in covered(files.regular) & covered(files.bold)
                     if not _right_to_left(point))


def _right_to_left(point: int) -> bool:
    return 0x0591 <= point <= 0x08FF or unicodedata.bidirectional(chr(point)) in RIGHT_TO_LEFT


@cache
def _fallback_covers(which: int) -> frozenset[int]:
    chosen = FALLBACKS[which - 1]
    if not chosen.path.is_file() or (chosen.shaped and not shaping()):
        return frozenset()
    return covered(chosen.path, chosen.index)


def _covers(which: int) -> frozenset[int]:
    return ui_covers() if which == 0 else _fallback_covers(which)


def face_for(char: str) -> int:
    """Which font draws ``char``: 0, the UI font; 1 and on, :data:`FALLBACKS`' in turn."""
    point = ord(char)
    return next((which for which in range(len(FALLBACKS) + 1) if point in _covers(which)), 0)


def runs(text: str) -> tuple[tuple[str, int], ...]:
    """``text`` (printable) as (words, the font that draws them: see :func:`face_for`) runs,
    in the order they are seen from the left: a letter goes to the first font that has it;
    spaces, digits and marks go with the letters before them (after them at the start) where
    that font has them, so a name in Arabic script is one run, which the layout shapes and
    orders itself; a text whose first letter is written right to left shows its runs from
    the right."""
    chosen: list[int | None] = [face_for(c) if unicodedata.bidirectional(c) in STRONG
                                else None for c in text]
    first = next((kind for kind in map(unicodedata.bidirectional, text) if kind in STRONG),
                 "L")
    # In a line read from the left, what follows a right-to-left name (" 30 · ") is the
    # line's, not the name's: the name keeps its direction to itself ("Budi 7 · عبد 30").
    keep = _isolated(text, chosen) if first not in RIGHT_TO_LEFT else [False] * len(text)
    for order in (range(len(text)), range(len(text) - 1, -1, -1)):
        last: int | None = None
        for i in order:
            if chosen[i] is not None:
                last = chosen[i]
            elif last is not None and not keep[i] and ord(text[i]) in _covers(last):
                chosen[i] = last
    pieces: list[tuple[str, int]] = []
    for char, which in zip(text, chosen, strict=True):
        face = which if which is not None else face_for(char)
        if pieces and pieces[-1][1] == face:
            pieces[-1] = (pieces[-1][0] + char, face)
        else:
            pieces.append((char, face))
    return tuple(reversed(pieces)) if first in RIGHT_TO_LEFT else tuple(pieces)


def _isolated(text: str, chosen: list[int | None]) -> list[bool]:
    """Which of ``text``'s neutrals (spaces, digits, marks) follow a right-to-left letter with
    no right-to-left letter after them: they stay out of its run."""
    kept = [False] * len(text)
    after_rtl = False
    for i, char in enumerate(text):
        if chosen[i] is not None:
            after_rtl = unicodedata.bidirectional(char) in RIGHT_TO_LEFT
        kept[i] = after_rtl and chosen[i] is None
    later_rtl = False
    for i in range(len(text) - 1, -1, -1):
        if chosen[i] is not None:
            later_rtl = unicodedata.bidirectional(text[i]) in RIGHT_TO_LEFT
        elif later_rtl:
            kept[i] = False  # between two right-to-left letters: inside the name
    return kept


def printable(text: str) -> str:
    """``text`` with what the font cannot draw left out (emoji, joiners, unknown scripts)."""
    ui = ui_covers()  # the fallbacks' maps (CJK: 30,000 points) are read only when needed
    kept = []
    for char in unicodedata.normalize("NFC", text):
        if char.isspace():
            kept.append(" ")
        elif unicodedata.category(char)[0] != "C" and (ord(char) in ui
                                                       or ord(char) in drawable()):
            kept.append(char)
    return " ".join("".join(kept).split())


def fit(text: str, face: ImageFont.FreeTypeFont | Callable[[str], float],
        max_width: float) -> str:
    """``text`` shortened with an ellipsis until it is at most ``max_width`` wide, measured
    with ``face`` (or a function that measures)."""
    measure = face.getlength if isinstance(face, ImageFont.FreeTypeFont) else face
    if measure(text) <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits together with the ellipsis
        middle = (low + high + 1) // 2
        if measure(text[:middle].rstrip() + ELLIPSIS) <= max_width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + ELLIPSIS if low else ELLIPSIS


def fit_name(name: str, face: ImageFont.FreeTypeFont | Callable[[str], float],
             max_width: float, *, first_shared: bool = False) -> str:
    """A person's ``name`` within ``max_width``: whole if it fits, else its later words cut
    to their initials, last first ("Hólmfríður Þórdís G.", then "Hólmfríður Þ. G."): the
    first name is what people call each other by (Icelandic QA: "H. Þ. Guðmu…" named
    nobody). Where another at the table shares its first word (``first_shared``), the
    first words go to initials instead ("M. Rizky Pratama", then "M. R. Pratama"), so that
    the words that tell them apart stay (player QA: two "Muhammad ..." both read "Muham…").
    When no form fits, the first shortened one with an ellipsis."""
    measure = face.getlength if isinstance(face, ImageFont.FreeTypeFont) else face
    if measure(name) <= max_width:
        return name
    words = name.split()
    if len(words) < 2:
        return fit(name, measure, max_width)
    forms = [" ".join([f"{word[0]}." for word in words[:cut]] + words[cut:])
             if first_shared else
             " ".join(words[:len(words) - cut] + [f"{word[0]}." for word in words[-cut:]])
             for cut in range(1, len(words))]
    return next((form for form in forms if measure(form) <= max_width), None) or fit(
        forms[0] if first_shared else words[0], measure, max_width)

