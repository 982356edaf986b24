"""The renderers' errors: one hierarchy, domain errors are ``ValueError``s."""

from __future__ import annotations


class RenderError(ValueError):
    """A picture cannot be drawn from what the caller passed."""


class UnknownThemeError(RenderError):
    """The caller named a theme that does not exist."""


class ViewMismatchError(RenderError):
    """The view does not suit the picture asked for (no result yet, wrong number of names)."""


class FontNotFoundError(RenderError):
    """Neither the font package nor a system fallback font is installed."""
