"""Gives the C heap's free memory back to the system after games leave memory.

Python's own objects stay flat over thousands of matches, but glibc keeps what Pillow and
zlib freed (each thread has its arenas, and the pictures are drawn in their own thread), so
resident memory crept by some MB over a long run. ``malloc_trim(0)`` returns the free pages;
it takes about half a millisecond, so it runs at most once every :data:`TRIM_EVERY` seconds,
when a finished game has just been dropped (often enough that resident memory is read close
to its trimmed size whenever it is read). Where the C library has no ``malloc_trim`` (musl,
macOS) this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import time
from collections.abc import Callable

TRIM_EVERY = 5.0  # seconds


def find_malloc_trim() -> Callable[[int], int] | None:
    """The C library's ``malloc_trim``, or None where it has none."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


class Trimmer:
    """Calls ``trim`` (``malloc_trim``; None: nothing to call) when asked, at most once every
    ``every`` seconds."""

    def __init__(self, trim: Callable[[int], int] | None, every: float = TRIM_EVERY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self._trim = trim
        self._last: float | None = None
        self.trims = 0  # how many times memory was given back (tests and benchmarks read it)

    def after_release(self) -> None:
        """A game has left memory: give free memory back, unless that was done lately."""
        if self._trim is None:
            return
        now = self.clock()
        if self._last is not None and now - self._last < self.every:
            return
        self._last = now
        self._trim(0)
        self.trims += 1
