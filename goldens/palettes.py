"""``python -m goldens.palettes``: learn each theme's 256 colours from the samples.

The pictures are drawn in full colour and stored as 8-bit PNG. Searching a palette for every
picture (an octree over a million pixels) cost more than drawing it; the renderers know their
colours instead: each theme's palette is learned once, here, from every sample drawn in that
theme, and kept in :mod:`renderers.palettes`, so that encoding a picture only maps its pixels
to the nearest of those colours. Run this after a change of a theme's colours or of what the
pictures draw; the golden tests and ``tests/renderers/test_encoding.py`` check the result.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from PIL import Image

from goldens.samples import SCOREBOARD_TITLE, Sample, labels_for, samples
from renderers.hand import draw_hand
from renderers.labels import TableLabels
from renderers.matchend import draw_match_end
from renderers.result import draw_hand_result
from renderers.scoreboard import ENGLISH_SCOREBOARD, draw_scoreboard
from renderers.table import draw_table
from renderers.themes import THEMES, find_theme

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "renderers" / "palettes.py"
COLOURS = 256


def drawn(sample: Sample) -> Image.Image:
    """The sample's picture in full colour, before it is encoded."""
    theme = find_theme(sample.theme)
    if sample.kind == "hand":
        assert sample.player is not None
        return draw_hand(sample.player, theme, TableLabels())
    if sample.kind == "scoreboard":
        return draw_scoreboard(sample.board, *SCOREBOARD_TITLE, theme, ENGLISH_SCOREBOARD)
    assert sample.table is not None
    labels = labels_for(sample.table.game)
    if sample.kind == "match-end":
        return draw_match_end(sample.table, sample.names, sample.ratings, theme, labels)
    if sample.kind == "result":
        return draw_hand_result(sample.table, sample.names, theme, labels)
    return draw_table(sample.table, sample.names, theme, labels)


def learn(theme: str) -> bytes:
    """The theme's palette (RGB triplets): an octree over every sample drawn in it."""
    pictures = [drawn(replace(sample, theme=theme)) for sample in samples()]
    sheet = Image.new("RGB", (max(p.width for p in pictures), sum(p.height for p in pictures)))
    top = 0
    for picture in pictures:
        sheet.paste(picture, (0, top))
        top += picture.height
    indexed = sheet.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette = indexed.getpalette() or []
    return bytes(palette[: 3 * COLOURS]).ljust(3 * COLOURS, b"\0")


def module_text(palettes: dict[str, bytes]) -> str:
    lines = ['"""Each theme\'s 256 colours, learned from the golden samples by',
             "``python -m goldens.palettes`` (generated: do not edit by hand).\"\"\"", "",
             "PALETTES: dict[str, bytes] = {"]
    for theme, data in palettes.items():
        text = data.hex()
        lines.append(f'    "{theme}": bytes.fromhex(')
        lines += [f'        "{text[i:i + 88]}"' for i in range(0, len(text), 88)]
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    TARGET.write_text(module_text({theme: learn(theme) for theme in THEMES}))
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
