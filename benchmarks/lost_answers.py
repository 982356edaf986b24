"""Whole matches with one lost answer per kind of call: does anything a user sees double?

    python -m benchmarks.lost_answers [--matches N] [--target T]

For every kind of call the bot makes (a hand sent, a group photo or text sent, an edit, a
delete, a tap's answer) and both ways a connection can drop (before or after the fake server
acts), it plays N whole pair matches against the fake Bot API server with that one call's
connection dropped. While they play it taps every hand message that shows live buttons but is
not the bot's current one (a stray), and it counts afterwards:

- strays: older hand messages that still showed buttons beside the current one, and of
  those the live ones (tiles to lay);
- stray taps that acted (must be 0: each must be refused);
- doubled announcements: a hand's or the match's result shown twice in the group (must be 0),
  and lost ones (the price of sending them at most once: the table's caption keeps the score);
- second answers to a tap (must be 0: Telegram refuses them) and taps never answered.

The last line is one JSON object with the totals. The run takes about a minute a match on two
cores; every figure it checks is a count, not a time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.app import build_application, running
from bot.config import BotConfig
from bot.handlers.runtime import KEY, Runtime
from fakeapi import FakeChat, FakeTelegramServer, FakeUser
from fakeapi.players import Table, button, live_buttons

#: (method, where): each kind of call whose connection one run drops.
KINDS = (
    ("sendPhoto", "hand"), ("sendPhoto", "group"), ("sendMessage", "group"),
    ("editMessageMedia", "hand"), ("editMessageMedia", "group"),
    ("editMessageCaption", "hand"), ("deleteMessage", "hand"), ("answerCallbackQuery", "group"),
)
RESULT = re.compile(r"(Hand \d+ is over\.|The match is over)")


@dataclass
class Figures:
    dropped: int = 0
    strays: int = 0
    live_strays: int = 0
    stray_taps_acted: int = 0
    doubled_announcements: int = 0
    lost_announcements: int = 0
    second_answers: int = 0
    unanswered_taps: int = 0
    matches: int = 0
    seen: set[tuple[int, int]] = field(default_factory=set)

    def add(self, other: Figures) -> None:
        for name in self.as_dict():
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def as_dict(self) -> dict[str, int]:
        return {k: v for k, v in vars(self).items() if k != "seen"}


async def tap_strays(server: FakeTelegramServer, runtime: Runtime, users: list[FakeUser],
                     chat: FakeChat, figures: Figures) -> None:
    """Tap every stray hand message once; a tap that changes the game is counted."""
    game = runtime.service.open_game_in(chat.id)
    if game is None:
        return
    for seat, user in enumerate(users):
        current = game.messages.hands.get(seat)
        for message in server.bot_messages(user.private_chat):
            key = (user.id, message.message_id)
            if key in figures.seen or not message.buttons or message.photo is None:
                continue
            if current is None or message.message_id >= current.message_id:
                continue  # the current one, or one whose sending is still under way
            figures.seen.add(key)
            figures.strays += 1
            figures.live_strays += bool(live_buttons(message))
            before = game.move_no
            record = user.press_raw(message, message.buttons[0][0].callback_data or "")
            await server.wait_for(lambda r=record: r.answered, timeout=15)  # type: ignore[misc]
            figures.stray_taps_acted += game.move_no != before


async def one_match(method: str, where: str, after: bool, target: int, seed: int,
                    folder: Path) -> Figures:
    figures = Figures()
    async with FakeTelegramServer() as server:
        users = [server.add_user(n, language_code="en") for n in ("A", "B", "C", "D")]
        chat = server.add_group("G", members=users, admins=users[:1])
        settings = BotConfig(token=server.token, api_base_url=server.api_root,
                            database_path=folder / f"{method}-{where}-{after}-{seed}.db",
                            group_messages_per_minute=100_000, messages_per_second=100_000,
                            private_messages_per_period=100_000)
        seeds = (n.to_bytes(32, "big") for n in range(seed, seed + 10_000))  # 32-byte deal seeds
        application = build_application(settings, seed_source=lambda: next(seeds))
        async with running(application):
            runtime: Runtime = application.bot_data[KEY]
            for user in users:
                user.send_private("/start")
            users[0].send(chat, f"/newgame pair target={target}")
            lobby = await server.wait_for(lambda: next(
                (m for m in server.bot_messages(chat) if button(m, "j:")), None))
            for user in users[1:]:
                record = user.press_raw(lobby, button(lobby, "j:") or "")
                await server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
            place = chat if where == "group" else users[1].private_chat
            server.drop_connection(method, after_acting=after, chat=place)
            game_id = int((button(lobby, "s:") or "s:0").split(":")[1])
            record = users[0].press_raw(lobby, button(lobby, "s:") or "")
            await server.wait_for(lambda: record.answered or server.dropped)
            table = Table(server, users)

            def over() -> bool:  # (a finished game leaves the bot's memory)
                game = runtime.service.game(game_id)
                return game is None or not game.status.open

            while not over():
                await table.play_one(done=over, timeout=30)
                await tap_strays(server, runtime, users, chat, figures)
            await runtime.publisher.idle()
            await server.wait_idle()
            game = await runtime.service.last_game_in(chat.id)
        answers = Counter(r.params.get("callback_query_id")
                          for r in server.requests_for("answerCallbackQuery"))
        figures.second_answers = sum(n - 1 for n in answers.values() if n > 1)
        figures.unanswered_taps = sum(not c.answered for c in server.callbacks)
        results = Counter(m.group(0) for t in texts(server, chat) for m in [RESULT.match(t)]
                          if m)
        figures.doubled_announcements = sum(n - 1 for n in results.values() if n > 1)
        finished = len(game.match.hands) + 1 if game and game.match else 0  # hands + match
        figures.lost_announcements = finished - len(results)
        figures.dropped = len(server.dropped)
        figures.matches = 1
        server.assert_no_violations()
    return figures


def texts(server: FakeTelegramServer, chat: FakeChat) -> list[str]:
    return [m.text or m.caption or "" for m in server.bot_messages(chat)]


async def run(matches: int, target: int) -> dict[str, object]:
    total = Figures()
    rows: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for method, where in KINDS:
            for after in (False, True):
                kind = Figures()
                for n in range(matches):
                    kind.add(await one_match(method, where, after, target, 9000 + n,
                                             Path(folder)))
                name = f"{method}/{where}/{'after' if after else 'before'}"
                rows[name] = kind.as_dict()
                total.add(kind)
                print(f"{name:40} " + " ".join(f"{k}={v}" for k, v in kind.as_dict().items()),
                      flush=True)
    return {"total": total.as_dict(), "kinds": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1, help="matches per kind and drop")
    parser.add_argument("--target", type=int, default=30, help="the pair match's target")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.matches, args.target))))


if __name__ == "__main__":
    main()
