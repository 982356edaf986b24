"""The conformance runner: scenario JSON in, one verdict line out (see docs/conformance.md).

python -m engine.conformance SCENARIO.json [MORE.json ...]
python -m engine.conformance < SCENARIO.json
"""

from __future__ import annotations

import json
import sys
from typing import Any

from .board import DOWN, LEFT, RIGHT, UP
from .hand import Hand
from .record import Replay, replay
from .table import StockHand


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
            entry: dict[str, Any] = {
                "opener": hand.opener,
                "line": _line(hand),
                "ends": _ends(hand),
                "to_move": hand.to_move,
                "over": ended is not None,
                "reason": ended.reason.value if ended else None,
                "winner": ended.winner if ended else None,
                "totals": list(hand.totals()),
                "points": list(ended.points) if ended else [0] * len(sides),
            }
            if isinstance(hand, StockHand):
                entry.update(_stock_keys(hand))
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


def _line(hand: Hand | StockHand) -> list[str]:
    if isinstance(hand, StockHand):
        return hand.board.line_texts()
    return [str(p) for p in hand.line.placed]


def _ends(hand: Hand | StockHand) -> list[Any] | None:
    if isinstance(hand, Hand):
        return list(hand.line.ends) if hand.line.ends else None
    board = hand.board
    if board.center is None:
        return None
    return [_numbers(board.opens(LEFT)), _numbers(board.opens(RIGHT))]


def _numbers(opens: tuple[int, ...]) -> int | list[int]:
    return opens[0] if len(opens) == 1 else sorted(opens)


def _stock_keys(hand: StockHand) -> dict[str, Any]:
    """The keys the games of seed 002 add to a hand's answer."""
    board = hand.board
    keys: dict[str, Any] = {
        "stock": hand.stock_left,
        "held": [mask.bit_count() for mask in hand.masks],
        "scored": list(hand.scored),
    }
    if hand.variant.layout == "ribbons":
        keys["center"] = None if board.center is None else len(board.arms[LEFT])
        keys["off"] = [str(t) for t in sorted(board.off, key=lambda t: (t.low, t.high))]
    if hand.variant.layout == "spinner":
        spinner = board.spinner
        keys["spinner"] = None if spinner is None else board.line_index(*spinner)
        keys["up"] = [p.text() for p in board.arms.get(UP, [])]
        keys["down"] = [p.text() for p in board.arms.get(DOWN, [])]
        keys["count"] = board.count()
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
