"""Translation catalogues (gettext, extracted and compiled with Babel).

Every user-facing sentence is an English msgid passed through a :class:`Translator`; named
placeholders (``{name}``) are filled after translation so translators can reorder them.
``N_`` marks a msgid defined at import time and translated later.
"""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from functools import cache
from pathlib import Path

DOMAIN = "bot"
LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "ru", "id", "is")
DEFAULT_LANGUAGE = "en"
#: Each language's name in itself, on the buttons that pick it.
LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "id": "Bahasa Indonesia", "is": "Íslenska"}


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
        return _one_stop(text.format(**params)) if params else text

    def plural(self, singular: str, plural: str, count: int, **params: object) -> str:
        text = self._catalogue.ngettext(singular, plural, count)
        return _one_stop(text.format(count=count, **params))


#: A name that ends in an initial ("Siti Nurhaliza B. A.", isolated: its last character the
#: pop directional isolate) before a sentence's full stop read "A.." (Indonesian QA).
_STOP_AFTER_NAME, _NAME_ENDS_STOPPED = ".\N{POP DIRECTIONAL ISOLATE}.", \
    ".\N{POP DIRECTIONAL ISOLATE}"


def _one_stop(text: str) -> str:
    return text.replace(_STOP_AFTER_NAME, _NAME_ENDS_STOPPED)


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


@dataclass(frozen=True, slots=True)
class Speech:
    """What the bot knows of a person's language: ``telegram``, the ``language_code`` their
    Telegram sent last, and ``chosen``, the one they picked in private /language (None:
    automatic)."""

    telegram: str | None
    chosen: str | None = None


#: Telegram's own language, which its apps fall back to for an interface they lack.
WEAK_LANGUAGE = "en"


def private_language(speech: Speech | None, group_language: str) -> str:
    """The language of what the bot writes a person in private about a group's game: the one
    they chose in private /language, whatever it is; else their Telegram's
    (``speech.telegram``) when the bot speaks it and it is not English; else the game's
    group's (``group_language``). English says little: Telegram's apps have no interface in
    Icelandic (nor in many other languages) and fall back to English, so nearly every
    Icelander's ``language_code`` is "en", and a group whose admin chose Íslenska would
    have its players' tiles in English. Another language the bot speaks was the person's
    own choice of interface, and is kept (a Russian in an Indonesian group reads Russian);
    one it does not speak gives way to the group's too (a Ukrainian in a Russian group)."""
    if speech is None:
        return group_language
    if speech.chosen in LANGUAGES:
        return speech.chosen
    own = supported_language(speech.telegram)
    return own if own is not None and own != WEAK_LANGUAGE else group_language


def private_translator(speech: Speech | None, group_language: str) -> Translator:
    """The translator for a person's private messages about a game (:func:`private_language`)."""
    return translator(private_language(speech, group_language))


def own_language(speech: Speech) -> str:
    """The language of the bot's private chat with a person, about no group's game: the one
    they chose, else their Telegram's (or the default)."""
    return speech.chosen if speech.chosen in LANGUAGES else pick_language(speech.telegram)
