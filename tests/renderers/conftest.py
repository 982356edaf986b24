"""Shared fixtures for the picture tests: the samples, and a spy on every string drawn; and
the deliberate positions of ``picture_kit``, importable under any pytest import mode."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import ImageDraw

import renderers.canvas
from goldens.samples import Sample, samples

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


@pytest.fixture(scope="session")
def by_name() -> dict[str, Sample]:
    return {sample.name: sample for sample in samples()}


def _spy(monkeypatch: pytest.MonkeyPatch, keep: Callable[[str, int], None]) -> None:
    """Hand every string the renderers draw, with its font's size, to ``keep`` (all of them
    go through ``renderers.canvas.letter``)."""
    original = renderers.canvas.letter

    def recording(draw: ImageDraw.ImageDraw, xy: Any, words: str, size: int, *args: Any,
                  **kwargs: Any) -> Any:
        keep(words, size)
        return original(draw, xy, words, size, *args, **kwargs)

    monkeypatch.setattr(renderers.canvas, "letter", recording)


@pytest.fixture
def drawn_text(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string the renderers draw while the test runs."""
    seen: list[str] = []
    _spy(monkeypatch, lambda words, _: seen.append(words))
    yield seen


@pytest.fixture
def drawn_sizes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Every string the renderers draw while the test runs, with its font's size."""
    seen: list[tuple[str, int]] = []
    _spy(monkeypatch, lambda words, size: seen.append((words, size)))
    yield seen
