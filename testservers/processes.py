"""A process's CPU time, read from /proc (Linux): what the benchmarks and the fleet's
processes (:mod:`testservers.fleet`) measure a bot by. Here, below both, so that the test
servers need nothing of the benchmarks."""

from __future__ import annotations

import os
from pathlib import Path

CLOCK_TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system time of a process, all its threads, from /proc/PID/stat."""
    return cpu_seconds_of(Path(f"/proc/{pid}/stat"))


def loop_thread_cpu_seconds(pid: int) -> float:
    """The CPU time of a process's main thread: the bot's event loop."""
    return cpu_seconds_of(Path(f"/proc/{pid}/task/{pid}/stat"))


def cpu_seconds_of(stat: Path) -> float:
    text = stat.read_text()
    fields = text[text.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK
