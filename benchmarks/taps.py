"""How long a tap waits for its answer, by what it asks for, under Telegram's own limits.

    python -m benchmarks.taps [--groups 2] [--seconds 60] [--game muggins]

In one process the bot plays against the fake Bot API server: ``--groups`` groups of four
simulated people (``fakeapi.players``) playing ``--game`` (Muggins' spinner asks which end
often; pair rarely), each tapping the moment their
tiles arrive, with the bot's limits at Telegram's values (3 messages in 3 s in one private
chat, 20 a minute in a group, 30 a second overall). Each tap's wait (its answer's arrival
minus the tap) is put in one of two kinds by its data:

- question: a tile that fits several ends or ways (``e:``) or may go face down (``f:``),
  whose answer may have waited for the question's edit of the hand message, and the edit
  for the private chat's budget;
- move: a tap that lays a tile or puts it down (one tap, or the answer to a question),
  answered as soon as the engine accepts it: the baseline of the same run.

It prints the median and p99 of each kind, their ratios (question over move), and how many
taps were refused as strays (a tap on the newest hand message must never be). The last line
is one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

from bot.app import begin_stop, build_application, running
from bot.config import BotConfig
from fakeapi import FakeChat, FakeTelegramServer, FakeUser
from fakeapi.players import Table

from .limits import ms, open_game, percentile, play

KINDS = {"question": ("e:", "f:"), "move": ("p:", "d:", "q:", "z:")}
STRAY = "That message is out of date: your tiles are in the newest one."


async def measure(game: str, groups: int, seconds: float, folder: Path) -> dict[str, Any]:
    async with FakeTelegramServer() as server:
        tables: list[tuple[FakeChat, list[FakeUser]]] = []
        for g in range(groups):
            users = [server.add_user(f"P{g}x{n}", language_code="en") for n in range(4)]
            tables.append((server.add_group(f"Table {g}", members=users, admins=users[:1]),
                           users))
        settings = BotConfig(token=server.token, api_base_url=server.api_root,
                            database_path=folder / "taps.db", computer_pause=0.0)
        seeds = (n.to_bytes(32, "big") for n in range(7000, 100_000))  # 32-byte deal seeds
        application = build_application(settings, seed_source=lambda: next(seeds))
        async with running(application):
            await asyncio.gather(*(open_game(server, chat, users, f"/newgame {game}")
                                   for chat, users in tables))
            until = asyncio.get_running_loop().time() + seconds
            moves = sum(await asyncio.gather(
                *(play(Table(server, users), until) for _, users in tables)))
            begin_stop(application)
        server.assert_no_violations()
        taps = [c for c in server.callbacks if c.data.startswith(sum(KINDS.values(), ()))]
    figures: dict[str, Any] = {"game": game, "groups": groups, "seconds": seconds, "moves": moves,
                               "stray_refusals": sum(c.answer_text == STRAY for c in taps),
                               "unanswered": sum(not c.answered for c in taps)}
    for kind, prefixes in KINDS.items():
        waits = [c.answered_at - c.pressed_at for c in taps
                 if c.data.startswith(prefixes) and c.answered_at is not None]
        figures[kind] = {"taps": len(waits), "median_ms": ms(percentile(waits, 50)),
                         "p99_ms": ms(percentile(waits, 99))}
    for stat in ("median_ms", "p99_ms"):
        question, move = figures["question"][stat], figures["move"][stat]
        if question is not None and move:
            figures[f"question_over_move_{stat.removesuffix('_ms')}"] = round(question / move, 2)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=60.0, help="play time")
    parser.add_argument("--game", default="muggins")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(measure(args.game, args.groups, args.seconds, Path(folder)))
    for kind in KINDS:
        f = figures[kind]
        print(f"{kind:8} taps={f['taps']:4} answered: median {f['median_ms']} ms, "
              f"p99 {f['p99_ms']} ms", flush=True)
    print(f"moves={figures['moves']} stray refusals={figures['stray_refusals']} "
          f"unanswered={figures['unanswered']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
