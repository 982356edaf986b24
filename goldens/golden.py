"""Golden pictures: compare renderings with the stored ones, or regenerate them on purpose.

    python -m goldens            # compare every sample, print what differs
    python -m goldens --update   # rewrite tests/renderers/golden/*.png
    python -m goldens --update table-muggins-2 ...   # rewrite only the samples named
    python -m goldens --docs     # rewrite the example pictures in docs/images/, and every
                                 # sample as a phone shows it (docs/images/phone/)

Goldens are stored at half size with 256 colours (small files; the comparison looks at shapes,
not single pixels). Both pictures are blurred slightly before they are compared, so that a Pillow or
FreeType update that moves a glyph's edge by a pixel passes, while a missing pip, a moved tile
or a changed word, colour or label does not.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageChops, ImageFilter

from goldens.samples import Sample, render, samples

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = ROOT / "tests" / "renderers" / "golden"
DOCS_DIR = ROOT / "docs" / "images"
PHONE_DIR = DOCS_DIR / "phone"
PHONE_WIDTH = 400  # how wide a phone's chat shows a picture
SCALE = 2  # goldens are stored at 1/SCALE of the size
BLUR = 1.0
THRESHOLD = 56  # a pixel differs when a channel moves by more than this after the blur
ALLOWED = 4  # differing pixels tolerated (at stored size): one changed letter is ~10

# The example pictures for the README and docs: sample name -> file in docs/images.
EXAMPLES = {
    "table-pair-opening": "table-opening.png",
    "table-pair-28": "table-snake.png",
    "table-dead-91": "table-double-12.png",
    "table-gaple-dead-5": "table-five-seats.png",
    "result-pair": "hand-result.png",
    "hand-pair": "hand.png",
    "table-muggins-4": "table-muggins.png",
    "table-kolbasa-4": "table-kolbasa-cut.png",
    "table-six-matador-3": "table-six-matador.png",
    "table-french-5": "table-french-five-seats.png",
    "table-bergen-3": "table-bergen.png",
    "match-end-pair": "match-end.png",
    "scoreboard-hands": "scoreboard.png",
}


@dataclass(frozen=True, slots=True)
class Difference:
    pixels: int  # pixels that differ beyond the threshold
    worst: int  # the largest channel difference seen
    size_changed: bool

    @property
    def acceptable(self) -> bool:
        return not self.size_changed and self.pixels <= ALLOWED


def stored_size(png: bytes) -> Image.Image:
    """A rendering as it is stored for comparison: RGB at half size (box filter)."""
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB").reduce(SCALE)


def compare(actual: Image.Image, golden: Image.Image) -> Difference:
    """How far ``actual`` is from ``golden`` (both at stored size)."""
    if actual.size != golden.size:
        return Difference(actual.width * actual.height, 255, True)
    blur = ImageFilter.GaussianBlur(BLUR)
    diff = ImageChops.difference(actual.filter(blur), golden.filter(blur))
    worst = ImageChops.lighter(
        ImageChops.lighter(diff.getchannel(0), diff.getchannel(1)), diff.getchannel(2)
    )
    histogram = worst.histogram()
    extreme = max(value for value, count in enumerate(histogram) if count)
    return Difference(sum(histogram[THRESHOLD + 1 :]), extreme, False)


def golden_path(sample: Sample) -> Path:
    return GOLDEN_DIR / f"{sample.name}.png"


def check(sample: Sample) -> Difference:
    """Render ``sample`` and compare it with its stored golden picture."""
    with Image.open(golden_path(sample)) as stored:
        golden = stored.convert("RGB")
    return compare(stored_size(render(sample)), golden)


def update(names: Sequence[str] = ()) -> list[Path]:
    """Rewrite the golden pictures of the samples ``names`` (every sample if none): a
    rewritten file differs in bytes even where the picture did not change, so a change
    rewrites only the goldens it alters."""
    known = {sample.name for sample in samples()}
    unknown = sorted(set(names) - known)
    if unknown:
        raise SystemExit(f"no such sample: {', '.join(unknown)}")
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    written = []
    for sample in samples():
        if names and sample.name not in names:
            continue
        path = golden_path(sample)
        small = stored_size(render(sample)).quantize(256, method=Image.Quantize.FASTOCTREE)
        small.save(path, format="PNG", optimize=True)
        written.append(path)
    return written


def docs() -> list[Path]:
    DOCS_DIR.mkdir(parents=True, exist_ok=True)
    by_name = {sample.name: sample for sample in samples()}
    written = []
    for name, file in EXAMPLES.items():
        path = DOCS_DIR / file
        path.write_bytes(render(by_name[name]))
        written.append(path)
    return written


def phone_view(png: bytes) -> Image.Image:
    """The picture as a phone shows it: 400 px wide, reduced with Lanczos."""
    with Image.open(io.BytesIO(png)) as image:
        rgb = image.convert("RGB")
    height = round(rgb.height * PHONE_WIDTH / rgb.width)
    return rgb.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS)


def phone_views() -> list[Path]:
    """Every sample at phone size, to look at (and to keep looking at) before a change."""
    PHONE_DIR.mkdir(parents=True, exist_ok=True)
    written = []
    for sample in samples():
        path = PHONE_DIR / f"{sample.name}.png"
        small = phone_view(render(sample)).quantize(256, method=Image.Quantize.FASTOCTREE)
        small.save(path, format="PNG", optimize=True)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="rewrite the golden pictures")
    parser.add_argument("names", nargs="*", help="with --update: only these samples")
    parser.add_argument("--docs", action="store_true", help="rewrite the docs/images examples")
    args = parser.parse_args(argv)
    if args.update or args.docs:
        made = update(args.names) if args.update else []
        made += docs() + phone_views() if args.docs else []
        for path in made:
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    failed = 0
    for sample in samples():
        difference = check(sample)
        failed += not difference.acceptable
        verdict = "ok" if difference.acceptable else "DIFFERS"
        print(f"{sample.name:24} {verdict:8} {difference.pixels} px (worst {difference.worst})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
