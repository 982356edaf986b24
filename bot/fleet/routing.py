"""Which chat's order an update keeps (its route key), and so which shard it belongs to.

Every update of one group (its games, its lobby, its commands, taps on its messages) and
every tap in private on a button that names one of its games carries the group's id: they all
land in one shard and are handled one at a time, in update_id order, by the worker owning it.
What names no game follows the chat it came from (a private chat: its user).

Read from the raw JSON, before any PTB object is made: the receivers do this for every update.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from ..presentation.callbacks import decode

#: A private /start deep link that names a table: join<id> or hand<id>.
_DEEP_LINK = re.compile(r"/start(?:@\w+)?\s+(?:join|hand)([1-9][0-9]{0,17})\s*$")
#: The message kinds Telegram may send (the bot asks for message, callback_query and
#: my_chat_member; the others follow their chat all the same).
_MESSAGES = ("message", "edited_message", "channel_post", "edited_channel_post",
             "business_message")
#: Reads the chat of a game from the database (None: no such game).
ChatOfGame = Callable[[int], Awaitable[int | None]]


def shard_of(key: int, shards: int) -> int:
    """The shard of a route key: the same in Python and in SQL, for negative ids too."""
    return ((key % shards) + shards) % shards


def named_game(update: dict[str, Any]) -> int | None:
    """The game a private update names (a tap on a hand's button, a /start join or hand
    link), whose group's order it must keep; None for anything else."""
    query = update.get("callback_query")
    if isinstance(query, dict):
        message = query.get("message")
        chat = message.get("chat") if isinstance(message, dict) else None
        if isinstance(chat, dict) and chat.get("type") == "private":
            game_id = getattr(decode(query.get("data")), "game_id", None)
            return game_id if isinstance(game_id, int) else None
        return None
    message = update.get("message")
    if isinstance(message, dict) and _chat_type(message) == "private":
        m = _DEEP_LINK.match(str(message.get("text") or ""))
        if m is not None:
            return int(m.group(1))
    return None


def chat_key(update: dict[str, Any]) -> int | None:
    """The chat an update came from (a tap: the chat of its message; else the sender's)."""
    query = update.get("callback_query")
    if isinstance(query, dict):
        message = query.get("message")
        if isinstance(message, dict) and _chat_id(message) is not None:
            return _chat_id(message)
        return _id(query.get("from"))  # a tap on an inline-mode message: its user
    for kind in _MESSAGES:
        message = update.get(kind)
        if isinstance(message, dict) and _chat_id(message) is not None:
            return _chat_id(message)
    for value in update.values():  # my_chat_member, chat_member, and whatever comes next
        if isinstance(value, dict):
            for key in ("chat", "user", "from"):
                found = _id(value.get(key))
                if found is not None:
                    return found
    return None


async def route_key(update: dict[str, Any], chat_of_game: ChatOfGame) -> int | None:
    """The chat whose order ``update`` keeps: the group of a game it names in private, else
    its own chat; None when it names no chat at all (the worker then handles it anywhere)."""
    game_id = named_game(update)
    if game_id is not None:
        chat = await chat_of_game(game_id)
        if chat is not None:
            return chat
    return chat_key(update)


def _chat_type(message: dict[str, Any]) -> object:
    chat = message.get("chat")
    return chat.get("type") if isinstance(chat, dict) else None


def _chat_id(message: dict[str, Any]) -> int | None:
    return _id(message.get("chat"))


def _id(value: object) -> int | None:
    if isinstance(value, dict) and isinstance(value.get("id"), int):
        return int(value["id"])
    return None
