"""What each package may import (docs/ARCHITECTURE.md), and no import loop inside one.

The imports are read from the source (every ``import`` statement, those under
``TYPE_CHECKING`` and inside functions included: a deferred import is how a loop hides), so
the tests are generic: a package's modules form floors, each importing only lower ones.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "renderers", "bot")
# Beyond the standard library, what each product package may import at all.
THIRD_PARTY = {
    "engine": set(),
    "renderers": {"engine", "PIL", "font_roboto"},
}
# Inside bot/: the parts that must not reach up (the handlers sit on top, the shared modules
# of bot/ at the bottom). A part named here may import none of the names beside it.
BOT_FLOORS = {
    "bot.storage": ("telegram", "bot.service", "bot.presentation", "bot.publishing",
                    "bot.handlers", "bot.serving"),
    "bot.service": ("telegram", "bot.presentation", "bot.publishing", "bot.handlers",
                    "bot.serving"),
    "bot.presentation": ("bot.publishing", "bot.handlers", "bot.serving"),
    "bot.publishing": ("bot.handlers",),
    "bot.serving": ("bot.service", "bot.presentation", "bot.publishing", "bot.handlers",
                    "bot.storage"),
}
# The modules at the top of bot/ that every part shares: they stand below all the parts.
BOT_SHARED = ("bot.config", "bot.errors", "bot.gamebook", "bot.gamemessages", "bot.i18n",
              "bot.logs", "bot.models", "bot.refusals", "bot.settingnames", "bot.storedjson",
              "bot.trim", "bot.wording")
# The wiring, also at the top, may import anything: bot.app, bot.launch, bot.health,
# bot.__main__.
# The tools beside the product layer one way, benchmarks -> testservers -> fakeapi: a tool
# package never imports those that use it, nor the tests.
TOOLS_NEVER = {
    "testservers": ("benchmarks", "tests"),
    "fakeapi": ("benchmarks", "testservers", "tests"),
}


def modules_of(package: str) -> dict[str, Path]:
    """Every module of ``package`` by dotted name (a package by its own name)."""
    base = ROOT / package
    found: dict[str, Path] = {}
    for path in sorted(base.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def statements(name: str, path: Path) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Each import of module ``name``: the module it reads from, absolute and dotted
    (relative ones resolved), and the names a ``from`` import takes (empty for ``import``)."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = here[: len(here) - node.level + 1]
                source = ".".join([*anchor, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            yield source, tuple(alias.name for alias in node.names)


def every_import(name: str, path: Path) -> set[str]:
    """Every module ``name`` names in an import (and each name a ``from`` import takes)."""
    out: set[str] = set()
    for source, names in statements(name, path):
        out.add(source)
        out.update(f"{source}.{taken}" for taken in names)
    return out


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports (a package's submodule when a
    ``from`` import names one, else the module itself)."""
    out: set[str] = set()
    for source, names in statements(name, path):
        targets = [f"{source}.{taken}" for taken in names] or [source]
        out.update(t if t in known else source for t in targets)
    return {t for t in out if t in known and t != name}


def cycles(package: str) -> list[list[str]]:
    """The import loops among ``package``'s modules: each strongly connected group of more
    than one module (Tarjan's algorithm), in sorted order."""
    found = modules_of(package)
    known = set(found)
    graph = {name: sorted(imports_of(name, path, known)) for name, path in found.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_the_finder_sees_a_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "loopy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import B\n")
    (package / "b.py").write_text("def f():\n    from loopy.c import C\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from . import a\n")
    (package / "d.py").write_text("from . import a\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert cycles("loopy") == [["loopy.a", "loopy.b", "loopy.c"]]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_loop_inside_the_package(package: str) -> None:
    assert modules_of(package), f"no modules found for {package}"
    assert cycles(package) == []


@pytest.mark.parametrize("package", sorted(THIRD_PARTY))
def test_a_package_imports_only_what_it_may(package: str) -> None:
    allowed = THIRD_PARTY[package] | {package} | set(sys.stdlib_module_names) | {"__future__"}
    found = {
        (name, target.split(".")[0])
        for name, path in modules_of(package).items()
        for target in every_import(name, path)
        if target.split(".")[0] not in allowed
    }
    assert found == set()


def test_only_bot_imports_telegram() -> None:
    # (benchmarks/echo_bot.py is a bare python-telegram-bot bot, the latency baseline.)
    for package in ("engine", "renderers", "fakeapi", "goldens", "catalogues", "testservers"):
        for name, path in modules_of(package).items():
            assert not any(t.split(".")[0] == "telegram" for t in every_import(name, path)), name


@pytest.mark.parametrize("package", sorted(TOOLS_NEVER))
def test_a_tool_package_stays_below_those_that_use_it(package: str) -> None:
    reached = {
        (name, target)
        for name, path in modules_of(package).items()
        for target in every_import(name, path)
        if target.split(".")[0] in TOOLS_NEVER[package]
    }
    assert reached == set()


@pytest.mark.parametrize("part", sorted(BOT_FLOORS))
def test_each_part_of_the_bot_stays_on_its_floor(part: str) -> None:
    reached = {
        (name, target)
        for name, path in modules_of("bot").items()
        if name == part or name.startswith(part + ".")
        for target in every_import(name, path)
        if any(target == banned or target.startswith(banned + ".")
               for banned in BOT_FLOORS[part])
    }
    assert reached == set()


@pytest.mark.parametrize("shared", BOT_SHARED)
def test_what_the_bot_shares_stands_below_its_parts(shared: str) -> None:
    path = modules_of("bot")[shared]
    reached = {t for t in every_import(shared, path)
               if t.split(".")[0] == "bot" and not t.startswith(BOT_SHARED)}
    assert reached == set()


@pytest.mark.parametrize("package", ["renderers", "bot"])
def test_the_product_sees_only_the_engines_face(package: str) -> None:
    """The engine's exports and its computer players; never how a game is implemented."""
    reached = {
        (name, target)
        for name, path in modules_of(package).items()
        for source, _ in statements(name, path)
        if (target := source).split(".")[0] == "engine" and target not in ("engine", "engine.ai")
    }
    assert reached == set()
