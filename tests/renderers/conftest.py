"""Shared fixtures for the picture tests: the samples, and a spy on every string drawn."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PIL import ImageDraw

from goldens.samples import Sample, samples


@pytest.fixture(scope="session")
def by_name() -> dict[str, Sample]:
    return {sample.name: sample for sample in samples()}


@pytest.fixture
def drawn_text(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every string Pillow is asked to draw while the test runs."""
    seen: list[str] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(str(text))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    yield seen


@pytest.fixture
def drawn_sizes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Every string Pillow is asked to draw while the test runs, with its font's size."""
    seen: list[tuple[str, int]] = []
    original = ImageDraw.ImageDraw.text

    def recording(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
        face = kwargs["font"] if "font" in kwargs else args[1]
        seen.append((str(text), int(face.size)))
        return original(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", recording)
    yield seen
