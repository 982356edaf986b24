"""The sprite cache: a tile is its numbers' halves, each drawn once while it is in use, and
the cache is bounded well below every half the renderers can reach, so a running bot's
memory stops growing after its first matches."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.i18n import LANGUAGES
from bot.presentation.pictures import labels_for
from engine import PlayerView
from renderers import cutoff, hand, result, sprites
from renderers.snake import SIDES
from renderers.sprites import Look, tile_sprite
from renderers.themes import THEMES, find_theme

NUMBERS = range(13)  # the double-twelve set, the largest
PAIRS = tuple(product(NUMBERS, NUMBERS))  # both orders of every tile


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many sprites are drawn (each drawing starts on a supersampled canvas) while the
    test runs, from an empty cache."""
    count = [0]
    original = sprites._canvas

    def counting(*args: Any) -> Any:
        count[0] += 1
        return original(*args)

    sprites.clear_cache()
    monkeypatch.setattr(sprites, "_canvas", counting)
    yield count
    sprites.clear_cache()


def hand_sides() -> set[tuple[int, int]]:
    """Every (tile side, dead tile side) a hand picture uses, from the hand's own rule."""
    found = set()
    for tiles, dead, language in product(range(1, 40), (0, 1, 4, 8, 16), LANGUAGES):
        view = cast(PlayerView, SimpleNamespace(hand=[None] * tiles, dead=[None] * dead))
        side, dead_side, _, _ = hand._sizes(view, labels_for(language))
        found.add((side, dead_side if dead else 0))
    return found


def reachable() -> set[tuple[int, bool, Look]]:
    """Every (side, standing, look) a face-up tile is drawn at: the line at each of its sizes,
    lying or standing, the last tile highlighted; Kolbasa's tiles cut off; a hand's tiles,
    playable, not or neither, and its dead ones; a hand's result."""
    found = {(side, standing, look) for side in SIDES for standing in (True, False)
             for look in (Look.PLAIN, Look.HIGHLIGHT)}
    found.add((cutoff.OFF_SIDE, False, Look.PLAIN))
    for side, dead_side in hand_sides():
        found |= {(side, True, look) for look in (Look.PLAIN, Look.HIGHLIGHT, Look.DIM)}
        if dead_side:
            found.add((dead_side, True, Look.DEAD))
    found |= {(result.SIDE, True, look) for look in (Look.PLAIN, Look.DEAD)}
    found.add((result.LONG_SIDE, True, Look.PLAIN))  # a hand too long for one row
    return found


@pytest.mark.parametrize("theme", THEMES)
def test_a_tile_put_together_from_its_halves_is_the_tile_drawn_whole(theme: str) -> None:
    palette = find_theme(theme)
    cases = [(a, b, 23, standing, Look.PLAIN) for a, b in PAIRS for standing in (True, False)]
    cases += [(a, (a * 5 + 3) % 13, side, standing, look) for a in NUMBERS
              for side in (16, 50, 72) for standing in (True, False) for look in Look]
    for first, second, side, standing, look in cases:
        whole = sprites._draw(first, second, side, standing, look, theme)
        made = tile_sprite(first, second, side, standing, palette, look)
        assert (made.mode, made.size) == (whole.mode, whole.size)
        assert made.tobytes() == whole.tobytes(), (first, second, side, standing, look)


def test_every_tile_in_both_orders_draws_only_its_numbers(drawn: list[int]) -> None:
    palette = find_theme("classic")
    for first, second in PAIRS:
        tile_sprite(first, second, 46, False, palette, Look.HIGHLIGHT)
    assert drawn[0] == len(NUMBERS)  # one double each: not one drawing for each of 169


def test_the_cache_stays_within_its_bound_and_keeps_the_pictures_of_the_moment(
        drawn: list[int]) -> None:
    """Every half the renderers can reach would be 50 MB: the cache holds a bounded number,
    and what the tables and hands being drawn use is drawn once however often they are."""
    palette = find_theme("dark")
    looks = sorted(reachable(), key=lambda look: (look[0], look[1], look[2].value))
    for (side, standing, look), (first, second) in product(looks, PAIRS):
        tile_sprite(first, second, side, standing, palette, look)
    assert len(looks) * len(NUMBERS) > sprites.HALVES_KEPT  # not all of them are kept
    assert sprites._halves.cache_info().currsize <= sprites.HALVES_KEPT
    busy = looks[:: max(1, len(looks) // 12)][:12]  # a few tables' and hands' sizes and looks
    assert len(busy) * len(NUMBERS) <= sprites.HALVES_KEPT
    for _ in range(2):
        for (side, standing, look), (first, second) in product(busy, PAIRS):
            tile_sprite(first, second, side, standing, palette, look)
    before = drawn[0]
    for (side, standing, look), (first, second) in product(busy, PAIRS):
        tile_sprite(first, second, side, standing, palette, look)
    assert drawn[0] == before
