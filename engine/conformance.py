"""The conformance runner: scenario JSON in, one verdict line out (see docs/conformance.md).

python -m engine.conformance SCENARIO.json [MORE.json ...]
python -m engine.conformance < SCENARIO.json
"""

from __future__ import annotations

import json
import sys
from typing import Any

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
            hands.append(
                {
                    "opener": hand.opener,
                    "line": [str(p) for p in hand.line.placed],
                    "ends": list(hand.line.ends) if hand.line.ends else None,
                    "to_move": hand.to_move,
                    "over": ended is not None,
                    "reason": ended.reason.value if ended else None,
                    "winner": ended.winner if ended else None,
                    "totals": list(hand.totals()),
                    "points": list(ended.points) if ended else [0] * len(sides),
                }
            )
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
