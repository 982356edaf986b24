"""What :mod:`benchmarks.latency` measures of each bot, and the run's figures made of it.

Apart from the run because none of it drives a bot: it reads what reached a fake Bot API
server (each tap's answer and edit, the calls and the pictures uploaded to the measured
chats) or a process (its event loop) and reduces it to the medians, 90th percentiles and
ratios the report prints, while :mod:`benchmarks.latency` starts the bots and plays the taps.
"""

from __future__ import annotations

import asyncio
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from fakeapi import CallbackQueryRecord, FakeChat, FakeTelegramServer
from fakeapi.ratelimit import counts_toward_limits


def event_loop_of(pid: int) -> str:
    """``uvloop`` when the process has loaded uvloop's event loop, else ``asyncio``."""
    maps = Path(f"/proc/{pid}/maps").read_text()
    return "uvloop" if "/uvloop/loop." in maps else "asyncio"


def uploaded(server: FakeTelegramServer, chats: set[int], before: set[str]) -> int:
    """The bytes of the pictures uploaded to ``chats`` since the files ``before`` were kept
    (a picture sent again by its file id is no upload)."""
    files = {version.photo.file_id: len(version.photo.data)
             for (chat_id, _), message in server.world.messages.items() if chat_id in chats
             for version in message.versions
             if version.photo is not None and version.photo.file_id not in before}
    return sum(files.values())


@dataclass(frozen=True, slots=True)
class Tap:
    at: float
    record: CallbackQueryRecord
    chat: FakeChat
    acts: bool  # the tap that plays (the second one when an end is chosen)


@dataclass
class Side:
    """One bot (the domino bot or the echo bot) and what was measured of it."""

    name: str
    server: FakeTelegramServer
    process: asyncio.subprocess.Process | None = None
    taps: list[Tap] = field(default_factory=list)

    def answer_ms(self, taps: Iterable[Tap]) -> list[float]:
        arrived = {r.params.get("callback_query_id"): r.at
                   for r in self.server.requests_for("answerCallbackQuery")}
        return [(arrived[t.record.id] - t.at) * 1000 for t in taps if t.record.id in arrived]

    def edit_ms(self, taps: Iterable[Tap], methods: tuple[str, ...]) -> list[float]:
        out = []
        for tap in taps:
            first = next((r.at for r in self.server.requests_for(chat=tap.chat)
                          if r.method in methods and r.at >= tap.at), None)
            if first is not None:
                out.append((first - tap.at) * 1000)
        return out


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"median": float("nan"), "p90": float("nan"), "n": 0}
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return {"median": round(statistics.median(ordered), 2), "p90": round(p90, 2),
            "n": len(ordered)}


def ratio(a: float, b: float) -> float:
    return round(a / b, 2) if b else float("nan")


def costs(server: FakeTelegramServer, since: float, chats: set[int], taps: list[Tap],
          moves: int, files_before: set[str]) -> dict[str, float]:
    """Bot API calls and uploaded bytes per move, at the measured tables only."""
    tap_ids = {t.record.id for t in taps}
    calls = sends = 0
    for r in server.requests:
        if r.at < since or r.method == "getUpdates":
            continue
        ours = r.chat_id in chats or (r.method == "answerCallbackQuery"
                                      and r.params.get("callback_query_id") in tap_ids)
        if not ours:
            continue
        calls += 1
        sends += counts_toward_limits(r.method)
    upload = uploaded(server, chats, files_before)
    return {"calls_per_move": round(calls / moves, 2),
            "sends_and_edits_per_move": round(sends / moves, 2),
            "kb_uploaded_per_move": round(upload / moves / 1024, 1)}
