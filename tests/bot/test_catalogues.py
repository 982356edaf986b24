"""Translation catalogues: complete, compiled, and faithful to every placeholder."""

from __future__ import annotations

import re

import pytest

from bot.catalogues import extract, load, missing, stale
from bot.i18n import LANGUAGES, translator

PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_code_is_translated(language: str) -> None:
    assert missing(language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogues_match_their_sources(language: str) -> None:
    assert not stale(language), "run: python -m bot.catalogues update"


@pytest.mark.parametrize("language", ["ru", "id"])
def test_translations_keep_placeholders_and_markup(language: str) -> None:
    catalog = load(language)
    for message in extract():
        if not message.id:
            continue  # the catalogue header
        entry = catalog.get(message.id)
        assert entry is not None
        source, text = str(message.id), str(entry.string)
        assert set(PLACEHOLDER.findall(source)) == set(PLACEHOLDER.findall(text)), source
        assert sorted(re.findall(r"</?b>", source)) == sorted(re.findall(r"</?b>", text)), source


def test_a_translator_speaks_the_language_it_is_asked_for() -> None:
    assert translator("ru")("It is not your turn.") != "It is not your turn."
    assert translator("id-ID")("It is not your turn.") != "It is not your turn."
    assert translator("xx")("It is not your turn.") == "It is not your turn."
    assert translator(None).language == "en"
