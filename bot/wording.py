"""Shared pieces of the bot's HTML messages: names, mentions, quoting and Telegram's limits."""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence

from engine import End

from .gamebook import presentation
from .i18n import N_, Translator
from .models import Player

CAPTION_LIMIT = 1024
NAME_LIMIT = 24
# An end of the layout as captions and buttons name it
END_WORDS = {End.LEFT: N_("left"), End.RIGHT: N_("right"), End.UP: N_("up"),
             End.DOWN: N_("down")}


def short_name(name: str) -> str:
    """Names as the bot stores them: at most ``NAME_LIMIT`` characters, with an ellipsis."""
    name = " ".join(name.split()) or "?"
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1].rstrip() + "…"


def fit_caption(text: str, limit: int = CAPTION_LIMIT) -> str:
    """Keep a caption within Telegram's limit by dropping whole lines from its middle
    (never cutting a tag in half); the first line and the last two stay."""
    lines = text.split("\n")
    while len("\n".join(lines)) > limit and len(lines) > 3:
        del lines[len(lines) // 2]
    return "\n".join(lines)[:limit] if len("\n".join(lines)) > limit else "\n".join(lines)


def esc(text: str) -> str:
    return html.escape(text, quote=False)


def shorten(text: str, limit: int = 32) -> str:
    """What a user typed, on one line and at most ``limit`` characters, for plain text."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quote(text: str, limit: int = 32) -> str:
    """What a user typed, to be quoted back in HTML: shortened, so that no reply can exceed
    Telegram's limits whatever they type, and escaped."""
    return esc(shorten(text, limit))


def or_list(t: Translator, words: Sequence[str]) -> str:
    """"6 or 7", "3, 4 or 5": one of ``words``."""
    if len(words) == 1:
        return words[0]
    return t("{choices} or {last}", choices=", ".join(words[:-1]), last=words[-1])


# Unicode's first-strong isolate and pop directional isolate (UAX #9)
FSI, PDI = "\N{FIRST STRONG ISOLATE}", "\N{POP DIRECTIONAL ISOLATE}"
# Bidi classes a name may hold without any effect on the text around it in a left-to-right
# line: left-to-right letters, European digits and their signs, neutrals and marks.
_QUIET_BIDI = frozenset({"L", "EN", "ES", "ET", "CS", "NSM", "BN", "S", "WS", "ON"})


def isolated(text: str) -> str:
    """``text`` (a player's name, as it goes into any message or button) kept to its own
    direction: wrapped in FSI ... PDI when it holds anything right-to-left or a directional
    control, so "Budi 7 · عبد الرحمن 30" keeps its order and a line that starts with an Arabic
    name does not flip; the PDI also ends any embedding a name leaves open. A name of only
    left-to-right letters, digits and neutrals cannot move its neighbours in our languages'
    left-to-right lines, so it stays as typed: invisible characters around it would only get
    in the way of copying or searching for it."""
    if all(unicodedata.bidirectional(c) in _QUIET_BIDI for c in text):
        return text
    return FSI + text + PDI


def named(text: str) -> str:
    """A player's name for an HTML message: escaped and isolated (see :func:`isolated`).
    Every name that goes into a text passes here (or through :func:`mention`)."""
    return isolated(esc(text))


def mention(user_id: int, person: str) -> str:
    """A link to the user, the isolates (see :func:`isolated`) outside it."""
    link = f'<a href="tg://user?id={user_id}">{esc(person)}</a>'
    return link if isolated(person) == person else FSI + link + PDI


def who(player: Player) -> str:
    """A player as the group reads them: a mention for people, a plain name for computers."""
    return named(player.name) if player.is_computer else mention(player.user_id, player.name)


def title(t: Translator, game: str) -> str:
    return t(presentation(game).title)


def names_of(players: Sequence[Player]) -> str:
    return ", ".join(named(p.name) for p in players)


def pair_names(names: Sequence[str], seats: Sequence[int]) -> str:
    """A side as one name: "Ayu & Sergei" (each isolated)."""
    return " & ".join(named(names[s]) for s in seats)
