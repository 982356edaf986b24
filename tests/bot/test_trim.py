"""The C heap stays small: its arenas are capped, and free memory goes back to the system once
games have left memory, at most once every few seconds (see bot.trim)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from bot_kit import Group
from test_e2e_memory import finish_a_match

from bot import trim
from bot.trim import TRIM_EVERY, Trimmer, find_malloc_trim, limit_arenas


def test_memory_is_given_back_at_most_once_every_few_seconds() -> None:
    now = [1000.0]
    calls: list[int] = []
    trimmer = Trimmer(lambda pad: calls.append(pad) or 1, clock=lambda: now[0])
    trimmer.after_release()
    now[0] += TRIM_EVERY - 1
    trimmer.after_release()  # too soon
    now[0] += 1
    trimmer.after_release()
    assert calls == [0, 0] and trimmer.trims == 2


def test_without_malloc_trim_nothing_is_called() -> None:
    trimmer = Trimmer(None)  # a C library without it (musl, macOS)
    trimmer.after_release()
    assert trimmer.trims == 0


def test_this_machines_c_library_has_malloc_trim() -> None:
    """The bot's Docker image and CI run on glibc, where the call exists."""
    assert find_malloc_trim() is not None


def test_arenas_are_capped_unless_the_operator_set_their_number(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int]] = []
    libc = SimpleNamespace(mallopt=lambda param, value: calls.append((param, value)) or 1)
    monkeypatch.setattr(trim, "_libc", lambda: libc)
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert limit_arenas() is False and calls == []  # the operator's setting stands
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    assert limit_arenas() is True and calls == [(trim.M_ARENA_MAX, trim.ARENAS)]


def test_this_machines_c_library_takes_the_cap() -> None:
    """In a process of its own: the cap is for the whole process, and stays."""
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    env["PYTHONPATH"] = os.pathsep.join(
        filter(None, (str(Path(__file__).parents[2]), env.get("PYTHONPATH"))))
    done = subprocess.run(
        [sys.executable, "-c", "from bot.trim import limit_arenas; print(limit_arenas())"],
        capture_output=True, text=True, env=env, check=True)
    assert done.stdout.strip() == "True"


async def test_a_game_leaving_memory_gives_free_memory_back(group: Group) -> None:
    async with group.bot() as runtime:
        game_id = await finish_a_match(group, runtime)
        assert runtime.service.game(game_id) is None
        assert runtime.publisher.trimmer.trims == 1
