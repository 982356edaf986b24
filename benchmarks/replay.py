"""Hands' replays: bytes and time to draw, per game's longest hand, against drawing its tables.

    python -m benchmarks.replay [--rounds N] [--seeds N] [--theme NAME] [--example PATH]

For each game (and the seat counts and sets that make its hands longest) it deals ``--seeds``
hands, plays each to its end by a plain rule (draw whenever drawing is legal, else the first
legal move: the hands with the most moves), keeps the one with the most moves, and draws its
replay ``--rounds`` times. Per game: the moves, the GIF's bytes (and per move), its size in
pixels, the median time to draw it, and, interleaved in the same run, the baseline: drawing the
same tables as the bot draws them during play, each from the previous one's frame
(``renderers.table.table_picture``), the least the replay's pictures could cost; the ratio of
the two. The largest GIF of all the dealt hands is reported too. The last line is one JSON
object: ``games``, one row per game. ``--example docs/images/replay.gif`` writes the replay
of one hand of pair dominoes (set 6, the plain rule, seed 0) there first: the README's example.

Then, in the bot's picture thread (``bot.presentation.painter``), how long a group's table
asked for 30 ms into a replay of pair's longest hand waits for its picture: behind the replay
drawn whole (the baseline) and drawn in steps, as the bot draws it (the table between two of
its frames), interleaved. The JSON's ``table_behind_replay`` has both medians and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from typing import Any

from bot.presentation.painter import Painter, Urgency
from engine import Draw, Match, TableView, hand_tables
from goldens.samples import LABELS, names_for
from renderers import render_replay, render_table, replay_steps
from renderers.frames import Frame
from renderers.replay import MOST_BYTES
from renderers.table import table_picture
from renderers.themes import THEMES

# (game, seats, set): the longest hands each game deals (a stock drawn by two players, a
# double-12 or double-9 set dealt to four).
LONG_HANDS = (
    ("pair", 4, 12), ("gaple", 4, 9), ("gaple-dead", 5, 12), ("muggins", 2, 6),
    ("bergen", 2, 6), ("french", 2, 6), ("matador", 2, 6), ("kolbasa", 2, 6),
    ("six-matador", 2, 6),
)


def played(game: str, seats: int, highest: int, seed: int) -> tuple[TableView, ...]:
    """The tables of one hand dealt from ``seed``, played by the plain rule."""
    match = Match(game, seats, {"set": highest}, automate=True)
    match.deal_hand(random.Random(seed))
    while match.hand.result is None:
        legal = match.legal_actions()
        draws = [action for action in legal if isinstance(action, Draw)]
        seat = match.to_move
        assert seat is not None
        match.apply(seat, draws[0] if draws else legal[0])
    return hand_tables(match, 0)


def baseline(tables: tuple[TableView, ...], names: tuple[str, ...], theme: str) -> None:
    """The hand's tables drawn as the bot draws them during play."""
    since: Frame | None = None
    for view in tables:
        _, since = table_picture(view, names, theme=theme, labels=LABELS, since=since)


def measure(game: str, seats: int, highest: int, rounds: int, seeds: int,
            theme: str) -> dict[str, Any]:
    names = names_for(seats)
    hands = [played(game, seats, highest, seed) for seed in range(seeds)]
    largest = max(len(render_replay(tables, names, theme=theme, labels=LABELS))
                  for tables in hands)
    tables = max(hands, key=len)
    drawn, floor = [], []
    gif = b""
    for _ in range(rounds):
        start = time.perf_counter()
        gif = render_replay(tables, names, theme=theme, labels=LABELS)
        drawn.append(time.perf_counter() - start)
        start = time.perf_counter()
        baseline(tables, names, theme)
        floor.append(time.perf_counter() - start)
    moves = len(tables) - 1
    width, height = int.from_bytes(gif[6:8], "little"), int.from_bytes(gif[8:10], "little")
    return {
        "game": game, "seats": seats, "set": highest, "moves": moves,
        "bytes": len(gif), "bytes_per_move": round(len(gif) / moves),
        "largest_bytes": largest, "width": width, "height": height,
        "seconds": round(statistics.median(drawn), 3),
        "ms_per_move": round(1000 * statistics.median(drawn) / moves, 1),
        "tables_seconds": round(statistics.median(floor), 3),
        "ratio": round(statistics.median(drawn) / statistics.median(floor), 2),
    }


async def table_behind_replay(tables: tuple[TableView, ...], names: tuple[str, ...],
                              theme: str, rounds: int) -> dict[str, float]:
    """Median seconds a table asked for 30 ms into a replay waits for its picture, behind the
    replay drawn whole and in steps (alternated, in one painter thread)."""
    painter = Painter(name="pictures-benchmark")
    waits: dict[str, list[float]] = {"whole": [], "steps": []}

    def table() -> bytes:
        return render_table(tables[-1], names, theme=theme, labels=LABELS)

    def whole() -> bytes:
        return render_replay(tables, names, theme=theme, labels=LABELS)

    try:
        await painter.draw(whole, Urgency.REPLAY)  # the sprites' caches warm
        for _ in range(rounds):
            for way in waits:
                replay = painter.draw(whole, Urgency.REPLAY) if way == "whole" else \
                    painter.draw_steps(replay_steps(tables, names, theme=theme, labels=LABELS),
                                       Urgency.REPLAY)
                await asyncio.sleep(0.03)
                start = time.perf_counter()
                await painter.draw(table, Urgency.TABLE)
                waits[way].append(time.perf_counter() - start)
                await replay
    finally:
        painter.close()
    whole_s, steps_s = (statistics.median(waits[way]) for way in ("whole", "steps"))
    return {"whole_seconds": round(whole_s, 3), "steps_seconds": round(steps_s, 3),
            "ratio": round(steps_s / whole_s, 3)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--theme", choices=THEMES, default="classic")
    parser.add_argument("--example", help="write an example replay (pair, set 6) here")
    args = parser.parse_args(argv)
    if args.example:
        example = render_replay(played("pair", 4, 6, 0), names_for(4), theme=args.theme,
                                labels=LABELS)
        with open(args.example, "wb") as out:
            out.write(example)
        print(f"{args.example}: {len(example) / 1000:.1f} KB")
    rows = []
    for game, seats, highest in LONG_HANDS:
        row = measure(game, seats, highest, args.rounds, args.seeds, args.theme)
        rows.append(row)
        print(
            f"{game:>11} x{seats} set {highest:2}: {row['moves']:2} moves, "
            f"{row['bytes'] / 1000:6.1f} KB ({row['bytes_per_move'] / 1000:4.1f} KB a move, "
            f"largest of {args.seeds} hands {row['largest_bytes'] / 1000:6.1f} KB, cap "
            f"{MOST_BYTES / 1000:.0f}), {row['width']}x{row['height']}, "
            f"{row['seconds']:5.3f} s ({row['ms_per_move']:4.1f} ms a move); its tables as "
            f"the bot draws them {row['tables_seconds']:5.3f} s ({row['ratio']:.2f}x)",
            flush=True,
        )
    pair = max((played("pair", 4, 12, seed) for seed in range(args.seeds)), key=len)
    behind = asyncio.run(table_behind_replay(pair, names_for(4), args.theme, args.rounds))
    print(f"a table asked for during a replay (pair x4 set 12, {len(pair) - 1} moves) waits "
          f"{1000 * behind['whole_seconds']:.0f} ms behind it drawn whole, "
          f"{1000 * behind['steps_seconds']:.0f} ms drawn in steps ({behind['ratio']:.2f}x)")
    print(json.dumps({"games": rows, "table_behind_replay": behind}))


if __name__ == "__main__":
    main()
