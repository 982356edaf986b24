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
    fields = stat_fields(stat)
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICK


def stat_fields(stat: Path) -> list[str]:
    """A /proc stat file's fields after the command's name (which may hold spaces and
    parentheses): the state first, then the parent's pid, ..., utime at 11, stime at 12,
    cutime and cstime at 13 and 14, in clock ticks (:data:`CLOCK_TICK` a second)."""
    text = stat.read_text()
    return text[text.rindex(")") + 2:].split()
