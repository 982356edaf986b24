"""Shared fixtures for the picture tests: the samples, and a spy on every string drawn; and
the deliberate positions of ``picture_kit``, importable under any pytest import mode."""

from __future__ import annotations

import sys
from collections.abc import Iterator
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


@pytest.fixture
def drawn_text(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string the renderers draw while the test runs (all go through
    ``renderers.canvas.letter``)."""
    seen: list[str] = []
    original = renderers.canvas.letter

    def recording(draw: ImageDraw.ImageDraw, xy: Any, words: str, *args: Any,
                  **kwargs: Any) -> Any:
        seen.append(words)
        return original(draw, xy, words, *args, **kwargs)

    monkeypatch.setattr(renderers.canvas, "letter", recording)
    yield seen


@pytest.fixture
def drawn_sizes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Every string the renderers draw while the test runs, with its font's size."""
    seen: list[tuple[str, int]] = []
    original = renderers.canvas.letter

    def recording(draw: ImageDraw.ImageDraw, xy: Any, words: str, size: int, *args: Any,
                  **kwargs: Any) -> Any:
        seen.append((words, size))
        return original(draw, xy, words, size, *args, **kwargs)

    monkeypatch.setattr(renderers.canvas, "letter", recording)
    yield seen
