"""Colour themes, chosen by the caller by name."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownThemeError

Colour = tuple[int, int, int]


def hex_colour(code: str) -> Colour:
    value = int(code.lstrip("#"), 16)
    return (value >> 16 & 255, value >> 8 & 255, value & 255)


def _palette(*codes: str) -> tuple[Colour, ...]:
    return tuple(hex_colour(code) for code in codes)


@dataclass(frozen=True, slots=True)
class Theme:
    """A palette for every part of the pictures. Hashable: sprites are cached per theme."""

    name: str
    background: Colour  # the canvas around the table
    felt: Colour  # the table the line lies on
    felt_edge: Colour
    panel: Colour
    panel_edge: Colour
    text: Colour
    muted: Colour
    accent: Colour  # whose turn it is, the open ends
    on_accent: Colour
    knock: Colour
    winner: Colour
    tile_face: Colour
    tile_edge: Colour
    tile_divider: Colour
    tile_back: Colour
    tile_back_edge: Colour
    highlight: Colour  # the tile just played
    shadow: Colour
    dim: Colour  # laid over tiles that cannot be played
    pips: tuple[Colour, ...]  # one colour per number 0..12 (0 has no pips)
    sides: tuple[Colour, ...]  # one colour per side (team)


# Pips are coloured by number, as on double-12 sets: matching halves is then a glance, even on a
# small phone picture where 10, 11 and 12 pips are hard to count. At 400 px a pip is a dot of a
# pixel or two, so the colours are chosen far apart in CIEDE2000 (every pair of 1 to 12 at
# least 19 apart, and 35 from the tile's face): 7 mustard, 8 brown, 9 pink, 10 maroon, 11 pine,
# 12 grey-mauve on ivory; 7 amber, 8 tan, 9 magenta, 10 yellow, 11 olive, 12 rose on dark.
_DEEP_PIPS = _palette(
    "#000000", "#1c6fd1", "#2f9e44", "#e03131", "#7e3fd1", "#0c8599", "#1e1e1e",
    "#aa8800", "#774400", "#ff44cc", "#880044", "#005533", "#887788",
)
_BRIGHT_PIPS = _palette(
    "#ffffff", "#5eb0ff", "#69db7c", "#ff6b6b", "#b197fc", "#3bc9db", "#f1f3f5",
    "#bb7700", "#eebb99", "#ff00bb", "#ffee00", "#889900", "#ffbbdd",
)

CLASSIC = Theme(
    name="classic",
    background=hex_colour("#5b3a22"),
    felt=hex_colour("#1f6b3c"),
    felt_edge=hex_colour("#184f2d"),
    panel=hex_colour("#164a2a"),
    panel_edge=hex_colour("#2f8452"),
    text=hex_colour("#f6f1e3"),
    muted=hex_colour("#b5d1bd"),
    accent=hex_colour("#f5c542"),
    on_accent=hex_colour("#2a2000"),
    knock=hex_colour("#ef6a3a"),
    winner=hex_colour("#f5c542"),
    tile_face=hex_colour("#fbf7ea"),
    tile_edge=hex_colour("#bdb294"),
    tile_divider=hex_colour("#9a8f74"),
    tile_back=hex_colour("#7a2e22"),
    tile_back_edge=hex_colour("#c98d6b"),
    highlight=hex_colour("#ffd43b"),
    shadow=hex_colour("#0c301a"),
    dim=hex_colour("#1f6b3c"),
    pips=_DEEP_PIPS,
    sides=_palette("#4dabf7", "#ff8787", "#ffd43b", "#b197fc", "#63e6be"),
)

DARK = Theme(
    name="dark",
    background=hex_colour("#0f1216"),
    felt=hex_colour("#1b2027"),
    felt_edge=hex_colour("#2a313b"),
    panel=hex_colour("#232a33"),
    panel_edge=hex_colour("#3a4452"),
    text=hex_colour("#eef1f5"),
    muted=hex_colour("#9aa7b5"),
    accent=hex_colour("#4cc3ff"),
    on_accent=hex_colour("#04202e"),
    knock=hex_colour("#ff7a5c"),
    winner=hex_colour("#ffd43b"),
    tile_face=hex_colour("#313843"),
    tile_edge=hex_colour("#6a7583"),
    tile_divider=hex_colour("#6b7582"),
    tile_back=hex_colour("#3b4a63"),
    tile_back_edge=hex_colour("#6f84a6"),
    highlight=hex_colour("#4cc3ff"),
    shadow=hex_colour("#07090c"),
    dim=hex_colour("#1b2027"),
    pips=_BRIGHT_PIPS,
    sides=_palette("#4dabf7", "#ff8787", "#ffd43b", "#b197fc", "#63e6be"),
)

_THEMES = {theme.name: theme for theme in (CLASSIC, DARK)}
THEMES: tuple[str, ...] = tuple(_THEMES)


def find_theme(name: str) -> Theme:
    """The theme called ``name``. Raises :class:`UnknownThemeError` for any other name."""
    try:
        return _THEMES[name]
    except KeyError:
        raise UnknownThemeError(f"no theme {name!r}; choose one of {', '.join(THEMES)}") from None
