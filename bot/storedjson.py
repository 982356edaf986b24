"""The JSON the stored columns hold: written compact, read leniently."""

from __future__ import annotations

import json
from typing import Any


def dumps(value: object) -> str:
    """Compact JSON, as every stored column holds it."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def json_object(text: str | None) -> dict[str, Any]:
    """A stored JSON object, or an empty one where the text is missing, damaged or not an
    object: stored settings are read leniently, never crash a command."""
    try:
        data = json.loads(text or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}
