"""An inline keyboard as the Bot API reads it: the JSON python-telegram-bot would send.

PTB turns a keyboard into JSON through each object's generic ``to_dict`` (every slot looked
at, private ones left out, nested objects walked), some 140 us for a hand's thirteen buttons:
two keyboards a move. The bot's buttons are plain (words, callback data or a link, a colour),
so they are written straight, with PTB's own keys in PTB's order; anything else (a login
link, an inline query, extra fields) goes through PTB as before. A test holds the two equal.
"""

from __future__ import annotations

import json

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

#: The fields the bot's buttons use, sorted as PTB's ``to_dict`` writes them.
PLAIN = ("callback_data", "style", "text", "url")
#: Every other field a button has: one of them set sends the keyboard through PTB.
OTHERS = tuple(sorted(set(InlineKeyboardButton.__slots__) - set(PLAIN)))


def markup_json(markup: InlineKeyboardMarkup) -> str:
    """The keyboard's ``reply_markup`` field, byte for byte what PTB would send."""
    rows: list[list[dict[str, str]]] = []
    for row in markup.inline_keyboard:
        out: list[dict[str, str]] = []
        for button in row:
            if button.api_kwargs or any(getattr(button, name) is not None for name in OTHERS):
                return json.dumps(markup.to_dict())
            out.append({name: value for name in PLAIN
                        if (value := getattr(button, name)) is not None})
        rows.append(out)
    if markup.api_kwargs or not rows:  # (PTB writes an empty keyboard as {})
        return json.dumps(markup.to_dict())
    return json.dumps({"inline_keyboard": rows})
