"""The conformance runner: scenario JSON in, one verdict line out (see docs/conformance.md).

python -m engine.conformance SCENARIO.json [MORE.json ...]
python -m engine.conformance < SCENARIO.json
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

from .board import LEFT, RIGHT
from .hand import Hand
from .public import LaidTile, LayoutView
from .record import Replay, replay


def answer(scenario: object) -> dict[str, Any]:
    """The verdict for one scenario, as a JSON-ready dict. A hand's ``seed`` (a stored
    match's) is a key the format does not name: ignored, as they all are."""
    result: Replay = replay(scenario, seeds=False)
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
                with open(path, "rb") as handle:
                    texts.append((path, _decode(handle.read())))
        else:  # bytes, not the locale's text: stdin reads as a file does
            texts.append(("<stdin>", _decode(sys.stdin.buffer.read())))
    except (OSError, UnicodeDecodeError) as exc:
        print(f"engine.conformance: cannot read {exc}", file=sys.stderr)
        return 2
    scenarios = []
    for name, text in texts:
        try:
            scenarios.append(load_json(text))
        except ValueError as exc:
            print(f"engine.conformance: {name} is not JSON: {exc}", file=sys.stderr)
            return 2
    try:
        for scenario in scenarios:
            print(json.dumps(answer(scenario), separators=(",", ":")))
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped reading (``| head``): no traceback for that
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nor at exit's flush
        return 1
    return 0


def _decode(data: bytes) -> str:
    """UTF-8, as JSON is exchanged (RFC 8259), a leading byte order mark ignored as it allows."""
    return data.decode("utf-8-sig")


# --- reading JSON ------------------------------------------------------------------------
# A whole number's digits beyond these are dropped: every number a scenario holds is checked
# against a range (seats, a seat, a target, a set) that a 400-digit number is far outside of,
# so no answer changes, and Python's int() refuses 4,300 digits and more.
_MAX_DIGITS = 400


def _int(digits: str) -> int:
    return int(digits[: _MAX_DIGITS + digits.startswith("-")])


def load_json(text: str) -> object:
    """``json.loads(text)`` for a scenario: also when it is nested too deep for Python's
    parser (about 1,000 levels), and with whole numbers of any length (see ``_int``).
    Raises :class:`ValueError` for text that is not JSON."""
    try:
        return json.loads(text, parse_int=_int)
    except RecursionError:
        return _loads_deep(text)


_SPACE = re.compile(r"[ \t\n\r]*")
_BLANKS = (" ", "\t", "\n", "\r")
_DECODER = json.JSONDecoder(parse_int=_int)


def _space(text: str, pos: int) -> int:
    """Where the white space at ``pos`` ends."""
    if text[pos : pos + 1] not in _BLANKS:  # most often: no white space at all
        return pos
    return _SPACE.match(text, pos).end()  # type: ignore[union-attr]


def _loads_deep(text: str) -> object:
    """What ``json.loads`` reads, the open arrays and objects on a stack of their own rather
    than Python's: json's own decoder reads every string, number and word."""
    stack: list[tuple[list[object] | dict[str, object], str]] = []  # container, its key due
    pos = _space(text, 0)
    while True:
        value: object
        char = text[pos : pos + 1]  # a value starts here
        if char in ("[", "{"):
            container: list[object] | dict[str, object] = [] if char == "[" else {}
            pos = _space(text, pos + 1)
            if text[pos : pos + 1] != ("]" if char == "[" else "}"):
                key = ""
                if char == "{":
                    key, pos = _key(text, pos)
                stack.append((container, key))
                continue
            value, pos = container, pos + 1
        else:
            value, pos = _DECODER.raw_decode(text, pos)
        while True:  # a value ends here: into its container; close those that end here
            if not stack:
                if _space(text, pos) != len(text):
                    raise ValueError(f"extra data at {pos}")
                return value
            container, key = stack[-1]
            if isinstance(container, list):
                container.append(value)
            else:
                container[key] = value
            pos = _space(text, pos)
            close = "]" if isinstance(container, list) else "}"
            char = text[pos : pos + 1]
            if char == ",":
                pos = _space(text, pos + 1)
                if isinstance(container, dict):
                    key, pos = _key(text, pos)
                    stack[-1] = (container, key)
                break
            if char != close:
                raise ValueError(f"expected , or {close} at {pos}")
            stack.pop()
            value, pos = container, pos + 1


def _key(text: str, pos: int) -> tuple[str, int]:
    """An object's key and its colon at ``pos``; where its value starts."""
    if text[pos : pos + 1] != '"':
        raise ValueError(f"expected a key at {pos}")
    key, pos = _DECODER.raw_decode(text, pos)
    pos = _space(text, pos)
    if text[pos : pos + 1] != ":":
        raise ValueError(f"expected : at {pos}")
    return key, _space(text, pos + 1)


if __name__ == "__main__":
    raise SystemExit(main())
