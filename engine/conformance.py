"""The conformance runner: scenario JSON in, one verdict line out (see docs/conformance.md).

python -m engine.conformance SCENARIO.json [MORE.json ...]
python -m engine.conformance < SCENARIO.json
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .board import LEFT, RIGHT
from .hand import Hand
from .public import LaidTile, LayoutView
from .record import Replay, replay


def answer(scenario: object) -> dict[str, Any]:
    """The verdict for one scenario, as a JSON-ready dict."""
    result: Replay = replay(scenario)
    match = result.match
    hands: list[dict[str, Any]] = []
    sides = [list(side) for side in result.sides]
    scores = [0] * len(sides)
    over, winner = False, None
    if match is not None:
        for hand in match.hands:
            ended = hand.result
            layout = hand.layout_view()
            entry: dict[str, Any] = {
                "opener": hand.opener,
                "line": [_text(laid) for laid in layout.line],
                "ends": _ends(layout),
                "to_move": hand.to_move,
                "over": ended is not None,
                "reason": ended.reason.value if ended else None,
                "winner": ended.winner if ended else None,
                "totals": list(hand.totals()),
                "points": list(ended.points) if ended else [0] * len(sides),
            }
            if hand.variant.has_stock:
                entry.update(_stock_keys(hand, layout))
            hands.append(entry)
        scores = list(match.scores)
        over, winner = match.over, match.winner
    error = None
    if result.error is not None:
        error = {
            "hand": result.error.hand,
            "action": result.error.action,
            "code": result.error.code,
        }
    return {
        "hands": hands,
        "match": {"sides": sides, "scores": scores, "over": over, "winner": winner},
        "error": error,
    }


def _text(laid: LaidTile) -> str:
    """A tile as the answer writes it: as it lies, crosswise with a trailing ``*``."""
    return f"{laid.first}-{laid.second}{'*' if laid.cross else ''}"


def _ends(layout: LayoutView) -> list[Any] | None:
    """The line's left and right ends (a crosswise matador end: both its numbers)."""
    ends = {end.end: end.numbers for end in layout.ends}
    if not ends:
        return None
    return [_numbers(ends[LEFT]), _numbers(ends[RIGHT])]


def _numbers(opens: tuple[int, ...]) -> int | list[int]:
    return opens[0] if len(opens) == 1 else sorted(opens)


def _stock_keys(hand: Hand, layout: LayoutView) -> dict[str, Any]:
    """The keys a game with a stock adds to a hand's answer (and its layout's own)."""
    keys: dict[str, Any] = {
        "stock": hand.stock_left,
        "held": [mask.bit_count() for mask in hand.masks],
        "scored": list(hand.scored),
    }
    if layout.kind == "ribbons":
        keys["center"] = layout.center
        keys["off"] = [str(t) for t in sorted(layout.off, key=lambda t: (t.low, t.high))]
    if layout.kind == "spinner":
        keys["spinner"] = layout.spinner
        keys["up"] = [_text(laid) for laid in layout.up]
        keys["down"] = [_text(laid) for laid in layout.down]
        keys["count"] = layout.count
    return keys


def main(argv: list[str] | None = None) -> int:
    paths = sys.argv[1:] if argv is None else argv
    texts: list[tuple[str, str]] = []
    try:
        if paths:
            for path in paths:
                with open(path, encoding="utf-8") as handle:
                    texts.append((path, handle.read()))
        else:
            texts.append(("<stdin>", sys.stdin.read()))
    except (OSError, UnicodeDecodeError) as exc:
        print(f"engine.conformance: cannot read {exc}", file=sys.stderr)
        return 2
    scenarios = []
    for name, text in texts:
        try:
            scenarios.append(json.loads(text))
        except (ValueError, RecursionError) as exc:
            print(f"engine.conformance: {name} is not JSON: {exc}", file=sys.stderr)
            return 2
    for scenario in scenarios:
        print(json.dumps(answer(scenario), separators=(",", ":")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
