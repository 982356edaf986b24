"""Keeps the C heap small: few arenas, and free memory given back after games leave memory.

Python's own objects stay flat over thousands of matches, but glibc keeps what Pillow and
zlib freed (each thread has its arenas, and the pictures are drawn in their own thread), so
resident memory crept by some MB over a long run. ``malloc_trim(0)`` returns the free pages;
it takes about half a millisecond, so it runs at most once every :data:`TRIM_EVERY` seconds,
when a finished game has just been dropped (often enough that resident memory is read close
to its trimmed size whenever it is read). Where the C library has no ``malloc_trim`` (musl,
macOS) this does nothing.

glibc also gives each thread that allocates while another does an arena of its own (up to
eight per core), and what one frees the others cannot reuse: with the event loop, the
picture thread and SQLite's thread, the heap fragmented into free memory that no arena could
give back. :func:`limit_arenas` caps them at :data:`ARENAS` before the threads start (as
``MALLOC_ARENA_MAX`` would, which an operator may still set lower or higher).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import time
from collections.abc import Callable
from typing import cast

TRIM_EVERY = 5.0  # seconds
ARENAS = 2
M_ARENA_MAX = -8  # mallopt's parameter number in glibc's malloc.h


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name)
    except OSError:
        return None


def limit_arenas(count: int = ARENAS) -> bool:
    """Cap glibc's malloc arenas at ``count``, unless ``MALLOC_ARENA_MAX`` says otherwise;
    whether the cap was set (False where the C library has no ``mallopt`` or refused)."""
    if "MALLOC_ARENA_MAX" in os.environ:
        return False
    libc = _libc()
    mallopt = getattr(libc, "mallopt", None)
    if mallopt is None:
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, count))


def find_malloc_trim() -> Callable[[int], int] | None:
    """The C library's ``malloc_trim``, or None where it has none."""
    trim = getattr(_libc(), "malloc_trim", None)
    if trim is None:
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return cast(Callable[[int], int], trim)


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
