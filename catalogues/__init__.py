"""Maintain the bot's translation catalogues: ``python -m catalogues update|check``.

``update`` extracts every msgid from bot/ (calls of ``t(...)``, ``N_(...)`` and
``t.plural(...)``, and the pictures' words the bot reads from the renderers' defaults),
merges it into each language's .po file and compiles the .mo files the bot loads.
``check`` fails when a catalogue misses a translation or a .mo is stale.

Developer tooling beside the product, like ``fakeapi`` and ``goldens``: it needs Babel (the
``test`` extra), which the running bot does not; the bot reads the compiled .mo files, which
are committed beside their .po sources (bot/locale/*/LC_MESSAGES), with the standard
library's gettext. Run it from a checkout.
"""

from __future__ import annotations

import ast
import dataclasses
import io
import os
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

import bot
import renderers.labels
from bot.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from renderers.labels import TableLabels

SOURCE = Path(bot.__file__).parent  # the product package whose sentences are extracted
KEYWORDS = {"t": None, "N_": None, "plural": (1, 2)}


def extract() -> Catalog:
    template = Catalog(project="domino-bot", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(SOURCE),
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    ):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    _add_picture_words(template)
    return template


def _add_picture_words(template: Catalog) -> None:
    """The words drawn on pictures: :data:`bot.presentation.pictures.PICTURE_WORDS` reads most
    of them from the renderers' English defaults (``renderers.labels.TableLabels``) instead of
    writing them out again, so no ``N_("...")`` call holds them; each is found at its field."""
    from bot.presentation.pictures import PICTURE_WORDS

    path = Path(renderers.labels.__file__)
    lines = {node.target.id: node.lineno for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
    defaults = {field.name: field.default for field in dataclasses.fields(TableLabels)}
    where = os.path.relpath(path, SOURCE)
    for name, msgid in PICTURE_WORDS.items():
        if defaults[name] == msgid:
            template.add(msgid, None, [(where, lines[name])])


def po_path(language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def load(language: str, locale_dir: Path = LOCALE_DIR) -> Catalog:
    path = po_path(language, locale_dir)
    if not path.exists():
        return Catalog(locale=language, domain=DOMAIN, fuzzy=False)
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


def compiled(catalog: Catalog) -> bytes:
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    return buffer.getvalue()


def update(locale_dir: Path = LOCALE_DIR) -> None:
    """Merge the code's msgids into every catalogue under ``locale_dir`` and compile it. An
    unchanged catalogue keeps its bytes: its creation date is not stamped anew (the .mo holds
    it), so two branches that only ran this do not conflict over every .mo file."""
    template = extract()
    for language in LANGUAGES:
        catalog = load(language, locale_dir)
        created = catalog.creation_date
        catalog.update(template, update_header_comment=False)
        catalog.creation_date = created
        path = po_path(language, locale_dir)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            write_po(handle, catalog, width=100, omit_header=False, ignore_obsolete=True)
        path.with_suffix(".mo").write_bytes(compiled(catalog))


def missing(language: str) -> list[str]:
    """msgids of the code that the language's catalogue does not translate."""
    catalog = load(language)
    problems = []
    for message in extract():
        if not message.id:
            continue
        entry = catalog.get(message.id, message.context)
        if language == "en":
            if entry is None:
                problems.append(str(message.id))
            continue
        if entry is None or entry.fuzzy or not _translated(entry.string):
            problems.append(str(message.id if isinstance(message.id, str) else message.id[0]))
    return problems


def _translated(text: object) -> bool:
    if isinstance(text, (tuple, list)):
        return all(text)
    return bool(text)


def stale(language: str) -> bool:
    mo = po_path(language).with_suffix(".mo")
    return not mo.exists() or mo.read_bytes() != compiled(load(language))


def main(argv: list[str]) -> int:
    if argv[:1] == ["update"]:
        update()
        return 0
    if argv[:1] == ["check"]:
        bad = False
        for language in LANGUAGES:
            for msgid in missing(language):
                print(f"{language}: missing {msgid!r}")
                bad = True
            if stale(language):
                print(f"{language}: the .mo file is out of date: python -m catalogues update")
                bad = True
        return 1 if bad else 0
    print("usage: python -m catalogues update|check", file=sys.stderr)
    return 2
