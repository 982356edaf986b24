"""An independent reading of docs/RULES.md, for checking the engine's answers from outside.

Written from the rules text alone (nothing here imports the engine): which tiles fit an end, which
ways a tile may lie there, Muggins' count, what a lay or a knock scores at once, what a finished
hand scores, who opens a hand and how a match ends. It reads the conformance runner's answers
(docs/conformance.md), so it checks what a scenario checker sees. A second reading of the same
rules is meant to duplicate the engine's logic: that is what lets it catch the engine's mistakes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Pair = tuple[int, int]
Answer = Mapping[str, Any]

MATADORS = {7: {(1, 6), (2, 5), (3, 4), (0, 0)}, 6: {(0, 6), (1, 5), (2, 4), (3, 3), (0, 0)}}
JOIN_SUM = {"matador": 7, "french": 7, "six-matador": 6}
TARGETS = {"gaple": 100, "pair": 100, "gaple-dead": 101, "kolbasa": 100, "matador": 100,
           "six-matador": 100, "french": 101, "muggins": 200}


def pair(text: str) -> Pair:
    """A tile as written in an answer (``"5-3"``, ``"2-4*"``), smaller half first."""
    a, b = map(int, text.rstrip("*").split("-"))
    return (min(a, b), max(a, b))


def pips(tiles: Sequence[Pair]) -> int:
    return sum(a + b for a, b in tiles)


def outer(text: str) -> list[int]:
    """What the last tile of an arm (written inner half first) leaves open."""
    a, b = map(int, text.rstrip("*").split("-"))
    return [a, b] if text.endswith("*") and a != b else [b]


def opens(hand: Answer) -> dict[str, list[int]]:
    """The numbers open at each end, from a hand's answer."""
    if hand["ends"] is None:
        return {}
    out = {name: end if isinstance(end, list) else [end]
           for name, end in zip(("left", "right"), hand["ends"], strict=True)}
    if hand.get("spinner") is not None:
        number = pair(hand["line"][hand["spinner"]])[0]
        for arm in ("up", "down"):
            out[arm] = outer(hand[arm][-1]) if hand[arm] else [number]
    return out


def ways(game: str, numbers: Sequence[int], tile: Pair, spinner_down: bool) -> set[bool]:
    """How ``tile`` may lie at an end showing ``numbers``: crosswise (True), along (False)."""
    total = JOIN_SUM.get(game)
    if total is not None:
        along = any(n != 0 and total - n in tile for n in numbers)
        if tile in MATADORS[total]:
            # Matador and French: 6-1, 5-2, 4-3 also along; Six-matador's always crosswise.
            both = along and game != "six-matador" and tile != (0, 0)
            return {True, False} if both else {True}
        return {False} if along else set()
    if not any(n in tile for n in numbers):
        return set()
    double = tile[0] == tile[1]
    if game == "bergen" and double:
        return {True}
    if game == "muggins" and double:
        return {True, False} if spinner_down else {True}  # the first double is the spinner
    return {False}


def ribbons(hand: Answer) -> tuple[int, int]:
    """Kolbasa: the tiles in the left and right ribbons since the base."""
    center = hand["center"]
    return center, len(hand["line"]) - center - 1


def open_ends(game: str, hand: Answer) -> dict[str, list[int]]:
    """The ends a tile may be laid at now (Kolbasa keeps its ribbons level)."""
    ends = opens(hand)
    if game != "kolbasa" or not ends:
        return ends
    left, right = ribbons(hand)
    return {end: numbers for end, numbers in ends.items()
            if (end == "left" and left <= right) or (end == "right" and right <= left)}


def cut_tile(hand: Answer) -> Pair | None:
    """Kolbasa: the one tile that may cut now (level ribbons of one tile or more)."""
    left, right = ribbons(hand)
    if left != right or left < 1:
        return None
    a, b = hand["ends"]
    return (min(a, b), max(a, b))


def can_lay(game: str, hand: Answer, held: Sequence[Pair]) -> bool:
    spinner = hand.get("spinner") is not None
    for tile in held:
        if any(ways(game, numbers, tile, spinner) for numbers in open_ends(game, hand).values()):
            return True
        if game == "kolbasa" and tile == cut_tile(hand):
            return True
    return False


def muggins_count(hand: Answer) -> int:
    """The sum of the open ends: a crosswise double counts both halves, a line of one tile
    counts it once, an empty arm nothing."""
    line = hand["line"]
    if not line:
        return 0
    if len(line) == 1:
        total = sum(pair(line[0]))
    else:
        first, last = line[0], line[-1]
        total = sum(pair(first)) if first.endswith("*") else int(first.split("-")[0])
        total += sum(pair(last)) if last.endswith("*") else pair_right(last)
    for arm in ("up", "down"):
        if hand.get(arm):
            tile = hand[arm][-1]
            total += sum(pair(tile)) if tile.endswith("*") else pair_right(tile)
    return total


def pair_right(text: str) -> int:
    return int(text.rstrip("*").split("-")[1])


def points_now(game: str, options: Mapping[str, Any], before: Answer, after: Answer,
               action: Mapping[str, Any]) -> int:
    """What ``action`` scores at once for its seat (the lead included)."""
    strict = options.get("scoring", "strict") == "strict"
    if "knock" in action:
        return -6 if game == "six-matador" and strict else 0
    if "play" not in action:
        return 0
    tile = pair(action["play"])
    if game == "muggins":
        count = muggins_count(after)
        return count if count and count % 5 == 0 else 0
    if game == "bergen":
        if not before["line"]:
            return 2 if tile[0] == tile[1] else 0
        left, right = after["ends"]
        if left != right:
            return 0
        return 3 if after["line"][0].endswith("*") or after["line"][-1].endswith("*") else 2
    if game in ("matador", "six-matador") and before["line"]:
        side = 0 if pair(after["line"][0]) == tile else 1
        crosswise = after["line"][-side].endswith("*")
        if game == "matador":
            return 10 if crosswise and options.get("matador_points") else 0
        if crosswise:
            return 10
        return (6 if after["ends"][side] == 6 else 1) if strict else 0
    return 0


def lightest(totals: Sequence[int], among: Sequence[int] | None = None) -> int | None:
    seats = list(range(len(totals))) if among is None else list(among)
    low = min(totals[seat] for seat in seats)
    level = [seat for seat in seats if totals[seat] == low]
    return level[0] if len(level) == 1 else None


def hand_result(game: str, options: Mapping[str, Any], hand: Answer,
                held: Sequence[Sequence[Pair]], dead: Sequence[Sequence[Pair]]
                ) -> tuple[int | None, list[int]]:
    """(winning side, points per side) of a finished hand, from its end and what was scored."""
    totals, reason = hand["totals"], hand["reason"]
    seats = len(totals)
    scored = list(hand.get("scored") or [0] * len(hand["points"]))
    out = next((seat for seat in range(seats) if not held[seat]), None)
    if game == "gaple-dead":
        def rank(seat: int) -> tuple[int, int, int]:
            counted = list(held[seat]) + list(dead[seat])
            low = min(counted, key=lambda t: (t[0] + t[1], t[0]), default=None)
            return (totals[seat], -1, -1) if low is None else (totals[seat], sum(low), low[0])
        return min(range(seats), key=rank), list(totals)
    if game == "pair":
        sides = [totals[0] + totals[2], totals[1] + totals[3]]
        if reason == "out":
            assert out is not None
            side: int | None = out % 2
        else:
            side = None if sides[0] == sides[1] else sides.index(min(sides))
        points = [0, 0]
        if side is not None:
            everyone = reason == "blocked" and options.get("block_count") == "all"
            points[side] = sum(sides) if everyone else sides[1 - side]
        return side, points
    if game == "french":
        return lightest(totals), list(totals)
    if game == "six-matador":
        best = max(scored)
        return (scored.index(best) if scored.count(best) == 1 else None), scored
    if game in ("gaple", "kolbasa", "matador"):
        winner = out if reason == "out" else lightest(totals)
        if winner is not None:
            scored[winner] += sum(totals) - totals[winner]
        return winner, scored
    if game == "muggins":
        if reason == "out":
            assert out is not None
            scored[out] += 10
            return out, scored
        winner = lightest(totals)
        if winner is not None:
            scored[winner] += (sum(totals) - 2 * totals[winner] + 2) // 5 * 5
        return winner, scored
    assert game == "bergen"
    if reason == "out":
        winner = out
    else:
        doubles = [[t for t in tiles if t[0] == t[1]] for tiles in held]
        if all(doubles):
            low = min(t for tiles in doubles for t in tiles)
            winner = next(seat for seat in range(seats) if low in doubles[seat])
        else:
            winner = lightest(totals, [seat for seat in range(seats) if not doubles[seat]])
    if winner is not None:
        scored[winner] += 2
    return winner, scored


def opener(game: str, options: Mapping[str, Any], deal_hand: Mapping[str, Any],
           previous: Answer | None, seats: int) -> tuple[int, set[Pair] | None]:
    """Who opens a hand, and the tiles they may lead (None: any)."""
    deal = [[pair(t) for t in tiles] for tiles in deal_hand["deal"]]
    dealt = [t for tiles in deal for t in tiles]
    doubles = sorted(t for t in dealt if t[0] == t[1])

    def holder(tile: Pair) -> int:
        return next(seat for seat in range(seats) if tile in deal[seat])

    def doubles_from(start: int) -> tuple[int, set[Pair]]:
        for step in range(seats):
            seat = (start + step) % seats
            own = {t for t in deal[seat] if t[0] == t[1]}
            if own:
                return seat, own
        raise AssertionError("nobody holds a double")

    last = None if previous is None else (
        previous["winner"] if previous["winner"] is not None else previous["opener"])
    if game in ("matador", "six-matador") or (game == "muggins" and last is None):
        return deal_hand["first"], None
    if game == "muggins":
        assert last is not None
        return last, None
    if game == "french":
        top = max(dealt, key=lambda t: (t[0] + t[1], t[1]))
        return holder(top), {top}
    if game == "bergen":
        low = doubles[0] if doubles else min(dealt, key=lambda t: (t[0] + t[1], t[0]))
        return holder(low), {low}
    if game == "kolbasa":
        if last is None:
            first = next((n, n) for n in (1, 2, 3, 4, 5, 6, 0) if (n, n) in dealt)
            return holder(first), {first}
        return doubles_from(last)
    if game == "gaple-dead":
        if deal_hand.get("middle"):
            return (deal_hand.get("first", 0) if previous is None else previous["winner"]), None
        if previous is None:
            return holder(doubles[0]), {doubles[0]}
        return doubles_from(previous["winner"])
    if game == "pair":
        if previous is not None:
            return (previous["opener"] + 1) % seats, None
        if options.get("first_lead") == "lot":
            return deal_hand.get("first", 0), None
        return holder(doubles[-1]), {doubles[-1]}
    assert game == "gaple"
    if last is None:
        return holder(doubles[-1]), {doubles[-1]}
    return last, None


def match_result(game: str, options: Mapping[str, Any], seats: int,
                 hands: Sequence[Answer]) -> tuple[list[int], bool, int | None]:
    """(scores, over, winner) after the finished ``hands``."""
    target = options.get("target") or TARGETS.get(game) or (15 if seats == 2 else 10)
    scores = [0] * len(hands[0]["points"]) if hands else []
    over, winner, reached = False, None, False
    for hand in hands:
        if not hand["over"]:
            break
        scores = [a + b for a, b in zip(scores, hand["points"], strict=True)]
        if game in ("gaple", "pair"):
            over = max(scores) >= target
            winner = next((side for side, s in enumerate(scores) if s >= target), None)
        elif game == "gaple-dead":
            over = max(scores) >= target
            winner = lightest(scores) if over else None
        else:
            reached = reached or max(scores) >= target
            best = min(scores) if game == "french" else max(scores)
            if reached and scores.count(best) == 1:
                over, winner = True, scores.index(best)
    return scores, over, winner
