"""Which chat's order an update keeps (its route key), and so which shard it belongs to.

Every update of one group (its games, its lobby, its commands, taps on its messages) and
every tap in private on a button that names one of its games carries the group's id: they all
land in one shard and are handled one at a time, in update_id order, by the worker owning it.
A private update that names no game (/start, /hand, /stats, a private chat blocked) follows
the group of the newest open game its user sits in, if any: the private chat then hears from
one worker only (its hands and its replies alike), which keeps Telegram's 3-in-3-s window for
that chat fleet-wide, and /hand finds the user's game in the worker that holds it. Anything
else follows the chat it came from (a private chat: its user).

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
#: Reads the chat of the newest open game a user sits in (None: none).
ChatOfPlayer = Callable[[int], Awaitable[int | None]]


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


async def route_key(update: dict[str, Any], chat_of_game: ChatOfGame,
                    chat_of_player: ChatOfPlayer | None = None) -> int | None:
    """The chat whose order ``update`` keeps: the group of a game it names in private, else
    for the rest of a private chat the group of its user's open game, else its own chat; None
    when it names no chat at all (the worker then handles it anywhere)."""
    game_id = named_game(update)
    if game_id is not None:
        chat = await chat_of_game(game_id)
        if chat is not None:
            return chat
    own = chat_key(update)
    if chat_of_player is not None and own is not None and own > 0 and _private(update):
        playing = await chat_of_player(own)  # a private chat's id is its user's
        if playing is not None:
            return playing
    return own


def _private(update: dict[str, Any]) -> bool:
    """Whether the update comes from a private chat (a message, a tap or a membership)."""
    for value in update.values():
        if isinstance(value, dict):
            chat = value.get("chat")
            message = value.get("message")
            if not isinstance(chat, dict) and isinstance(message, dict):
                chat = message.get("chat")
            if isinstance(chat, dict):
                return chat.get("type") == "private"
    return False


def _chat_type(message: dict[str, Any]) -> object:
    chat = message.get("chat")
    return chat.get("type") if isinstance(chat, dict) else None


def _chat_id(message: dict[str, Any]) -> int | None:
    return _id(message.get("chat"))


def _id(value: object) -> int | None:
    if isinstance(value, dict) and isinstance(value.get("id"), int):
        return int(value["id"])
    return None
