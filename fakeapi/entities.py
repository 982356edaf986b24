"""Message entities as Telegram computes them: HTML parse mode and bot commands.

Offsets and lengths are in UTF-16 code units, as in the Bot API. The HTML parser accepts the tags
and entities Telegram documents and fails, like Telegram, on anything else (an unsupported tag such
as ``<br>``, an unclosed or mismatched tag), so a caption the real server would refuse is refused
here too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html import unescape
from typing import Any

from .errors import FakeTelegramError

_SIMPLE_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "code": "code",
    "pre": "pre",
}
_OTHER_TAGS = {"a", "span", "blockquote", "tg-emoji", "tg-time"}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_TAG = re.compile(
    r"<(/?)([a-zA-Z][\w-]*)((?:\s+[\w-]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+))?)*)\s*>"
)
_ATTRIBUTE = re.compile(r"([\w-]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>]+)))?")
_ENTITY = re.compile(r"&(#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z]+);")
_COMMAND = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![\w/@])")
_MENTION_LINK = re.compile(r"tg://user\?id=(\d+)")

UserLookup = Callable[[int], dict[str, Any] | None]


class EntityParseError(FakeTelegramError, ValueError):
    """The text cannot be parsed in its parse mode; the message is Telegram's wording."""


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units, the unit of entity offsets."""
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True)
class ParsedText:
    """Plain text and the entities found in it."""

    text: str
    entities: tuple[dict[str, Any], ...] = ()


@dataclass
class _Open:
    tag: str
    entity: dict[str, Any]
    start: int  # UTF-16 offset in the plain text
    byte_offset: int


@dataclass
class _HtmlParser:
    source: str
    users: UserLookup | None
    plain: list[str] = field(default_factory=list)
    length: int = 0
    stack: list[_Open] = field(default_factory=list)
    entities: list[dict[str, Any]] = field(default_factory=list)

    def byte_offset(self, index: int) -> int:
        return len(self.source[:index].encode("utf-8"))

    def add_text(self, text: str) -> None:
        self.plain.append(text)
        self.length += utf16_length(text)

    def run(self) -> ParsedText:
        index = 0
        while index < len(self.source):
            char = self.source[index]
            if char == "<":
                index = self.tag(index)
            elif char == "&":
                match = _ENTITY.match(self.source, index)
                if match and (match[1].startswith("#") or match[1] in _NAMED_ENTITIES):
                    self.add_text(_NAMED_ENTITIES.get(match[1]) or unescape(match[0]))
                    index = match.end()
                else:
                    self.add_text("&")
                    index += 1
            else:
                end = min(
                    (
                        i
                        for i in (self.source.find("<", index), self.source.find("&", index))
                        if i >= 0
                    ),
                    default=len(self.source),
                )
                self.add_text(self.source[index:end])
                index = end
        if self.stack:
            raise EntityParseError(
                f'Can\'t find end tag corresponding to start tag "{self.stack[-1].tag}"'
            )
        ordered = sorted(self.entities, key=lambda e: (e["offset"], -e["length"]))
        return ParsedText("".join(self.plain), tuple(ordered))

    def tag(self, index: int) -> int:
        match = _TAG.match(self.source, index)
        offset = self.byte_offset(index)
        if match is None:
            raise EntityParseError(f"Unexpected character '<' at byte offset {offset}")
        closing, name, attributes = match[1] == "/", match[2].lower(), match[3]
        if name not in _SIMPLE_TAGS and name not in _OTHER_TAGS:
            kind = "end" if closing else "start"
            raise EntityParseError(f'Unsupported {kind} tag "{name}" at byte offset {offset}')
        if closing:
            self.close(name, offset)
        else:
            self.open(name, dict(self.attributes(attributes)), offset)
        return match.end()

    @staticmethod
    def attributes(text: str) -> list[tuple[str, str]]:
        return [
            (m[1].lower(), next((g for g in m.groups()[1:] if g is not None), ""))
            for m in _ATTRIBUTE.finditer(text)
        ]

    def open(self, name: str, attributes: dict[str, str], offset: int) -> None:
        entity: dict[str, Any]
        if name in _SIMPLE_TAGS:
            entity = {"type": _SIMPLE_TAGS[name]}
        elif name == "a":
            entity = self.link(attributes.get("href", ""), offset)
        elif name == "span":
            if attributes.get("class") != "tg-spoiler":
                raise EntityParseError(
                    f'Tag "span" must have class "tg-spoiler" at byte offset {offset}'
                )
            entity = {"type": "spoiler"}
        elif name == "blockquote":
            entity = {
                "type": "expandable_blockquote" if "expandable" in attributes else "blockquote"
            }
        elif name == "tg-emoji":
            entity = {"type": "custom_emoji", "custom_emoji_id": attributes.get("emoji-id", "")}
        else:
            entity = {"type": "date_time", "unix_time": int(attributes.get("unix", "0") or 0)}
        if name == "code" and self.stack and self.stack[-1].tag == "pre":
            language = attributes.get("class", "")
            if language.startswith("language-"):
                self.stack[-1].entity["language"] = language.removeprefix("language-")
        self.stack.append(_Open(name, entity, self.length, offset))

    def link(self, href: str, offset: int) -> dict[str, Any]:
        mention = _MENTION_LINK.fullmatch(href)
        if mention is not None:
            user = self.users(int(mention[1])) if self.users else None
            if user is not None:
                return {"type": "text_mention", "user": user}
        if not href:
            raise EntityParseError(f"Empty URL in a link at byte offset {offset}")
        return {"type": "text_link", "url": unescape(href)}

    def close(self, name: str, offset: int) -> None:
        if not self.stack:
            raise EntityParseError(f"Unexpected end tag at byte offset {offset}")
        top = self.stack.pop()
        if top.tag != name:
            raise EntityParseError(
                f"Unmatched end tag at byte offset {offset}, "
                f'expected "</{top.tag}>", found "</{name}>"'
            )
        if self.length > top.start:
            self.entities.append(
                top.entity | {"offset": top.start, "length": self.length - top.start}
            )


def parse_html(source: str, users: UserLookup | None = None) -> ParsedText:
    """Parse Telegram's HTML parse mode; ``users`` turns tg://user links into text mentions."""
    return _HtmlParser(source, users).run()


def parse_text(text: str, parse_mode: str | None, users: UserLookup | None = None) -> ParsedText:
    """The plain text and entities of a message sent with ``parse_mode`` (HTML or none).

    Markdown and MarkdownV2 are kept verbatim without entities: this fake does not parse them.
    """
    if parse_mode is not None and parse_mode.upper() == "HTML":
        return parse_html(text, users)
    return ParsedText(text)


def command_entities(text: str) -> tuple[dict[str, Any], ...]:
    """``bot_command`` entities, as Telegram marks ``/cmd`` and ``/cmd@bot`` in user messages."""
    return tuple(
        {
            "type": "bot_command",
            "offset": utf16_length(text[: match.start()]),
            "length": utf16_length(match[0]),
        }
        for match in _COMMAND.finditer(text)
    )
