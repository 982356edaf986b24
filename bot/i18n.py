"""Translation catalogues (gettext, extracted and compiled with Babel).

Every user-facing sentence is an English msgid passed through a :class:`Translator`; named
placeholders (``{name}``) are filled after translation so translators can reorder them.
``N_`` marks a msgid defined at import time and translated later.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

DOMAIN = "bot"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "ru", "id", "is")
DEFAULT_LANGUAGE = "en"


def N_(message: str) -> str:  # noqa: N802 - the conventional gettext marker name
    """Mark ``message`` for extraction without translating it yet."""
    return message


class Translator:
    """Translates msgids into one language."""

    def __init__(self, language: str) -> None:
        self.language = language if language in LANGUAGES else DEFAULT_LANGUAGE
        self._catalogue = gettext.translation(
            DOMAIN, LOCALE_DIR, languages=[self.language], fallback=True
        )

    def __call__(self, message: str, **params: object) -> str:
        text = self._catalogue.gettext(message)
        return text.format(**params) if params else text

    def plural(self, singular: str, plural: str, count: int, **params: object) -> str:
        text = self._catalogue.ngettext(singular, plural, count)
        return text.format(count=count, **params)


@cache
def translator(language: str | None) -> Translator:
    return Translator(pick_language(language))


def pick_language(code: str | None) -> str:
    """The catalogue language for a Telegram ``language_code`` such as ``ru`` or ``pt-br``."""
    return supported_language(code) or DEFAULT_LANGUAGE


def supported_language(code: str | None) -> str | None:
    """The catalogue for ``code`` when the bot speaks it, else None: a player whose
    language it does not speak reads their tiles in their group's language rather than in
    English (a Ukrainian in a Russian group reads Russian)."""
    if not code:
        return None
    base = code.lower().replace("_", "-").split("-")[0]
    return base if base in LANGUAGES else None


def private_language(code: str | None, group_language: str) -> str:
    """The language of what the bot writes a person in private about a group's game: their
    own (``code``, their Telegram ``language_code`` as stored) when the bot speaks it, else
    the game's group's (``group_language``), never English by default: a Ukrainian in a
    Russian group reads their tiles, and everything else about that game, in Russian."""
    return supported_language(code) or group_language


def private_translator(code: str | None, group_language: str) -> Translator:
    """The translator for a person's private messages about a game (:func:`private_language`)."""
    return translator(private_language(code, group_language))
