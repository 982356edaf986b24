"""The catalogue tool lives beside the product: the bot ships and runs without it and Babel."""

from __future__ import annotations

import ast
import importlib.util
import shutil
import subprocess
import sys
import tomllib
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.pofile import write_po
from setuptools import find_packages

import catalogues
from bot.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("engine", "renderers", "bot")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_tool_runs_from_a_checkout_and_finds_the_catalogues_complete() -> None:
    checked = run("-m", "catalogues", "check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    usage = run("-m", "catalogues")
    assert usage.returncode == 2 and "python -m catalogues update|check" in usage.stderr


def test_the_tool_extracts_the_bots_sentences() -> None:
    assert catalogues.SOURCE == ROOT / "bot"
    ids = {message.id for message in catalogues.extract() if message.id}
    assert "It is not your turn." in ids


def test_the_product_neither_holds_nor_imports_the_tool_or_babel() -> None:
    assert importlib.util.find_spec("bot.catalogues") is None
    for package in PRODUCT:
        for source in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
                names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                assert not [name for name in names
                            if name.split(".")[0] in ("babel", "catalogues")], source


def test_the_bot_speaks_every_language_without_babel() -> None:
    """The bot reads the committed .mo files with the standard library's gettext."""
    code = ("import sys; sys.modules['babel'] = None; "  # any import of babel now fails
            "from bot.i18n import translator; print(translator('ru')('It is not your turn.'))")
    spoken = run("-c", code)
    assert spoken.returncode == 0, spoken.stderr
    assert spoken.stdout.strip() == "Сейчас не твой ход."


def test_the_wheel_ships_the_product_and_no_tool() -> None:
    """The packages setuptools puts in the wheel, as pyproject.toml selects them."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    shipped = {name.split(".")[0] for name in find_packages(str(ROOT), include=include)}
    assert shipped == set(PRODUCT)
    for locale in ("en", "ru", "id", "is"):  # the compiled catalogues are committed
        assert (ROOT / "bot" / "locale" / locale / "LC_MESSAGES" / "bot.mo").is_file()
    package_data = config["tool"]["setuptools"]["package-data"]["bot"]
    assert "locale/*/LC_MESSAGES/*" in package_data


def test_an_update_leaves_up_to_date_catalogues_as_they_are(tmp_path: Path) -> None:
    """Every run used to stamp a new creation date into every .po and .mo: a conflict on
    four binary files between any two branches that ran it."""
    copy = tmp_path / "locale"
    shutil.copytree(ROOT / "bot" / "locale", copy)
    catalogues.update(copy)  # brought up to date (the source references may have moved)
    for language in LANGUAGES:  # as if the catalogues had been made long ago
        catalog = catalogues.load(language, copy)
        catalog.creation_date = datetime(2000, 1, 1, tzinfo=UTC)
        with catalogues.po_path(language, copy).open("wb") as handle:
            write_po(handle, catalog, width=100, omit_header=False, ignore_obsolete=True)
        catalogues.po_path(language, copy).with_suffix(".mo").write_bytes(
            catalogues.compiled(catalog))
    before = {path: path.read_bytes() for path in copy.rglob("bot.*")}
    catalogues.update(copy)
    assert {path: path.read_bytes() for path in copy.rglob("bot.*")} == before
