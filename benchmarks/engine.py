"""Engine speed: random legal hands per second, ours against the PyPI package ``dominoes``.

    python -m benchmarks.engine [--hands N] [--rounds R] [--seed S]

Both sides do the same work per move: list the legal moves, pick one with the same cheap
random draw, apply it, until the hand ends; both deal each hand from a shuffle. Both are
timed in CPU seconds of this process, rounds are interleaved (ours, theirs, ours, ...) and the
median is reported, so that load on a shared machine hits both sides alike. The last line is
one JSON object (see README).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from engine import VARIANTS, Match, match_to_json

GAMES = tuple(VARIANTS)  # every game, in the registry's display order
# CPU time of this process: other work on a shared machine then slows neither side's figure.
CLOCK = time.process_time

LONG_MATCH = 1_000_000  # a target no hand reaches: one match deals every hand


def our_hands(game: str, hands: int, seed: int) -> float:
    """Hands per second for ``game`` through the engine's public Match API."""
    rng = random.Random(seed)
    pick = rng.random
    match = Match(game, 4, {"target": LONG_MATCH})  # one long match: every hand is a fresh deal
    start = CLOCK()
    for _ in range(hands):
        if match.over:  # a long match may still end: play on in a fresh one
            match = Match(game, 4, {"target": LONG_MATCH})
        match.deal_hand(rng)
        hand = match.hand
        while hand.result is None:
            legal = hand.legal_actions()
            match.step(hand.to_move, legal[int(pick() * len(legal))])  # type: ignore[arg-type]
    return hands / (CLOCK() - start)


def their_hands(hands: int, seed: int) -> float | None:
    """Hands per second of ``dominoes`` (same partnership block game), or None if absent."""
    try:
        import dominoes  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    random.seed(seed)  # dominoes deals with the global random module
    rng = random.Random(seed)
    pick = rng.random
    lead = dominoes.Domino(6, 6)
    start = CLOCK()
    for _ in range(hands):
        game = dominoes.Game.new(starting_domino=lead)
        while game.result is None:
            legal = game.valid_moves
            game.make_move(*legal[int(pick() * len(legal))])
    return hands / (CLOCK() - start)


def finished_pair_match_bytes(seed: int) -> int:
    """The stored size of one whole random ``pair`` match to 100."""
    rng = random.Random(seed)
    match = Match("pair", 4)
    while not match.over:
        match.deal_hand(rng)
        while not match.hand.over:
            legal = match.legal_actions()
            match.apply(match.hand.to_move, rng.choice(legal))  # type: ignore[arg-type]
    return len(match_to_json(match).encode())


def _median(runs: list[float]) -> float:
    return round(statistics.median(runs), 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.engine", description=__doc__)
    parser.add_argument("--hands", type=int, default=3000, help="hands per round and game")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    ours: dict[str, list[float]] = {game: [] for game in GAMES}
    theirs: list[float] = []
    runners: list[tuple[str, Callable[[int], float | None]]] = [
        (game, partial(our_hands, game, args.hands)) for game in GAMES
    ]
    runners.append(("dominoes", partial(their_hands, args.hands)))
    for round_number in range(args.rounds):
        seed = args.seed + round_number
        for name, run in runners:
            rate = run(seed)
            if rate is None:
                continue
            (theirs if name == "dominoes" else ours[name]).append(rate)
            print(f"round {round_number + 1}: {name:<10} {rate:10.0f} hands/s", file=sys.stderr)

    result: dict[str, Any] = {"hands_per_s": {game: _median(ours[game]) for game in GAMES}}
    for game in GAMES:
        print(f"{game:<10} {result['hands_per_s'][game]:10.0f} hands/s (median)")
    if theirs:
        result["dominoes_hands_per_s"] = _median(theirs)
        result["pair_ratio"] = round(result["hands_per_s"]["pair"] / _median(theirs), 2)
        print(f"{'dominoes':<10} {result['dominoes_hands_per_s']:10.0f} hands/s (median)")
        print(f"pair ours/theirs: {result['pair_ratio']}")
    else:
        result["dominoes_hands_per_s"] = None
        result["pair_ratio"] = None
        print("dominoes is not installed (pip install '.[bench]'): no comparison")
    result["pair_match_json_bytes"] = finished_pair_match_bytes(args.seed)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
