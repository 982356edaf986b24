"""Shared pieces of the bot's HTML messages: names, mentions, quoting and Telegram's limits."""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence

from engine import End

from .gamebook import presentation
from .i18n import N_, Translator
from .models import Player

CAPTION_LIMIT = 1024
TOAST_LIMIT = 200  # a tap's answer: Telegram refuses a longer one, and the tap goes unanswered
# Unicode's first-strong isolate and pop directional isolate (UAX #9)
FSI, PDI = "\N{FIRST STRONG ISOLATE}", "\N{POP DIRECTIONAL ISOLATE}"
# The isolate initiators: left-to-right, right-to-left and first-strong (UAX #9)
_OPENERS = frozenset("\N{LEFT-TO-RIGHT ISOLATE}\N{RIGHT-TO-LEFT ISOLATE}" + FSI)
NAME_LIMIT = 24
# An end of the layout as captions and buttons name it
END_WORDS = {End.LEFT: N_("left"), End.RIGHT: N_("right"), End.UP: N_("up"),
             End.DOWN: N_("down")}
# Kolbasa's two ribbons (the engine's left and right ends), named as the table picture draws
# them: one above the other, both running right from the base (player QA: told "left" and
# "right", players looked for a ribbon running off to the left). The picture's labels
# (renderers.labels.TableLabels.upper/lower) are the same words.
RIBBON_WORDS = {End.LEFT: N_("upper"), End.RIGHT: N_("lower")}


def end_words(kind: str) -> dict[End, str]:
    """The ends' names (msgids) on a layout of ``kind`` (``LayoutView.kind``): Kolbasa's
    ribbons are upper and lower, every other layout's ends left, right, up and down."""
    return RIBBON_WORDS if kind == "ribbons" else END_WORDS


def table_coming_down(t: Translator, topic: bool) -> str:
    """The answer to /table or "⬇ Table" in the gap after the table's last re-post: it is
    not lost, it comes when the gap is over."""
    return (t("The table comes down to the bottom of the topic in a few seconds.") if topic
            else t("The table comes down to the bottom of the group in a few seconds."))


def short_name(name: str) -> str:
    """Names as the bot stores them: at most ``NAME_LIMIT`` characters, the first name whole
    and the later words cut to their initials, last first ("Hólmfríður Þórdís G."; Icelandic
    QA: "Hólmfríður Þórdís Guðmu…"), else cut with an ellipsis."""
    words = name.split() or ["?"]
    for kept in range(len(words), 0, -1):
        short = " ".join(words[:kept] + [f"{word[0]}." for word in words[kept:]])
        if len(short) <= NAME_LIMIT:
            return short
    return " ".join(words)[: NAME_LIMIT - 1].rstrip() + "…"


def fit_caption(text: str, limit: int = CAPTION_LIMIT) -> str:
    """Keep a caption within Telegram's limit by dropping whole lines from its middle
    (never cutting a tag in half); the first two lines and the last two stay."""
    lines = text.split("\n")
    while len("\n".join(lines)) > limit and len(lines) > 3:
        del lines[len(lines) // 2]  # (at least the third: the deal's line, second, stays)
    return cut("\n".join(lines), limit)


def cut(text: str, limit: int) -> str:
    """``text`` at most ``limit`` characters long, cut (when it must be) before any tag or
    isolated name the cut would split: a name's isolates are never left open, so a cut
    cannot turn the rest of a line around."""
    if len(text) <= limit:
        return text
    text = text[:limit]
    for start, end in (("<", ">"), ("&", ";")):  # a tag, an entity (&lt;)
        if text.rfind(start) > text.rfind(end):
            text = text[: text.rfind(start)]
    depth, opened = 0, len(text)
    for i, c in enumerate(text):
        if c in _OPENERS:
            depth, opened = depth + 1, i if depth == 0 else opened
        elif c == PDI and depth:
            depth -= 1
    return text[:opened] if depth else text


def esc(text: str) -> str:
    return html.escape(text, quote=False)


def code(text: str) -> str:
    """``text`` in monospace, which Telegram copies with a tap (a seed, a command): escaped."""
    return "<code>" + esc(text) + "</code>"


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


def and_list(t: Translator, words: Sequence[str]) -> str:
    """"Ayu and Budi", "Ayu, Budi and Þóra": all of ``words``."""
    if len(words) == 1:
        return words[0]
    return t("{names} and {last}", names=", ".join(words[:-1]), last=words[-1])


def neutralised(name: str) -> str:
    """``name`` with its own isolates balanced, so that the PDI we close it with pops our FSI
    and nothing else: a PDI with no isolate of the name's to close is dropped (it would end
    ours early and let the rest of the name move its neighbours), one that a truncation left
    open is closed, and an isolate around the whole name goes (ours takes its place). The
    name's embeddings and overrides stay: our PDI ends whatever of them is still open."""
    kept: list[str] = []
    depth = 0
    for c in name:
        if c in _OPENERS:
            depth += 1
        elif c == PDI:
            if not depth:
                continue
            depth -= 1
        kept.append(c)
    text = "".join(kept) + PDI * depth
    while len(text) >= 2 and text[0] in _OPENERS and _closes_at_end(text):
        text = text[1:-1]
    return text


def _closes_at_end(text: str) -> bool:
    """Whether the isolate ``text`` (balanced) opens with is the one its last PDI closes."""
    depth = 0
    for i, c in enumerate(text):
        depth += c in _OPENERS
        depth -= c == PDI
        if depth == 0:
            return i == len(text) - 1
    return False


def isolated(name: str, markup: Callable[[str], str] = lambda text: text) -> str:
    """A person's or computer player's name as it goes into any text (message, caption,
    button, toast): ``markup`` of the neutralised name (see :func:`neutralised`), wrapped in
    FSI ... PDI, so "Budi 7 · عبد الرحمن 30" keeps its order and a line that starts with an
    Arabic name does not flip. Every name is wrapped, not only those that look right-to-left:
    the wrap is then the same for each, and nothing about a name can leak into the line.
    The one place a name becomes text: call it once per name (a name is never wrapped twice),
    and shorten a name before it, never after."""
    return FSI + markup(neutralised(name)) + PDI


def named(text: str) -> str:
    """A player's name for an HTML message: escaped inside its isolates."""
    return isolated(text, esc)


def mention(user_id: int, person: str) -> str:
    """A link to the user, its isolates outside the link (so they are not part of it)."""
    return isolated(person, lambda name: f'<a href="tg://user?id={user_id}">{esc(name)}</a>')


def toast_names(players: Iterable[Player]) -> str:
    """Players named in a toast (plain text): each shortened and isolated."""
    return ", ".join(isolated(shorten(player.name)) for player in players)


def toast(text: str) -> str:
    """A tap's answer within Telegram's limit: cut with "…" where names or a language made
    it longer (never a refused answer, which would leave the tap spinning)."""
    return text if len(text) <= TOAST_LIMIT else cut(text, TOAST_LIMIT - 1) + "…"


def who(player: Player) -> str:
    """A player as the group reads them: a mention for people, a plain name for computers."""
    return named(player.name) if player.is_computer else mention(player.user_id, player.name)


def title(t: Translator, game: str) -> str:
    return t(presentation(game).title)


def names_of(players: Sequence[Player]) -> str:
    return ", ".join(named(p.name) for p in players)


#: Partners as one name, "Ayu & Sergei" (Russian QA: «Оля и Ваня», not «Оля & Ваня»).
PARTNERS = N_("{first} & {second}")


def partners(t: Translator, names: Sequence[str]) -> str:
    """Partners' ``names`` (as they are to be written) as one name: "Ayu & Sergei"."""
    joined = names[0]
    for name in names[1:]:
        joined = t(PARTNERS, first=joined, second=name)
    return joined


def pair_names(t: Translator, names: Sequence[str], seats: Sequence[int]) -> str:
    """A side as one name: "Ayu & Sergei" (each isolated)."""
    return partners(t, [named(names[s]) for s in seats])
