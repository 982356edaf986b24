"""The newest message the bot knows of in each chat and forum topic, so that "⬇ Table" does
not post the table again below itself.

The bot learns of a message by receiving it (an update) or by sending it (every send's
answer, seen from around the rate limiter: :class:`~bot.publishing.metering.MeteredLimiter`),
whoever sent it and however. In a group where it sees only commands and the replies to it
(Telegram's privacy mode, the default), what people say among themselves is unknown to it,
so the button trusts only a chat the bot has been shown to read in full: one where it got
a message privacy mode would have hidden. The bot's global flag
(``can_read_all_group_messages``) is no such evidence: turning privacy mode off applies only
to groups the bot joins afterwards, and no bot ever receives another bot's messages. A place
it knows nothing of (after a restart, say) is never taken for one whose newest message is
the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Places (a chat, or one topic of a forum) remembered, at most (then forgotten all at once,
#: with the chats read in full: a place forgotten only lets the table be posted again).
PLACES_KEPT = 16384


class Tails:
    """The newest message id known in each (chat, topic); the topic is None outside forums
    and in a forum's General topic. Message ids grow in a chat, topics sharing them."""

    def __init__(self) -> None:
        self._newest: dict[tuple[int, int | None], int] = {}
        self._read_in_full: set[int] = set()

    def saw(self, chat_id: int, thread_id: int | None, message_id: int,
            unprompted: bool = False) -> None:
        """A message the bot received or sent in that place; ``unprompted``: one privacy
        mode would have hidden (so the bot reads that chat in full)."""
        key = (chat_id, thread_id)
        newest = self._newest.get(key)
        if newest is None and len(self._newest) >= PLACES_KEPT:
            self._newest.clear()
            self._read_in_full.clear()
        if newest is None or message_id > newest:
            self._newest[key] = message_id
        if unprompted:
            self._read_in_full.add(chat_id)

    def reads_all(self, chat_id: int) -> bool:
        """Whether the bot is known to receive every message of that chat: only then is the
        newest message it knows there the newest there is (as far as it can see)."""
        return chat_id in self._read_in_full

    def newest(self, chat_id: int, thread_id: int | None) -> int | None:
        """The newest message id known in that place, if any."""
        return self._newest.get((chat_id, thread_id))

    def forget(self, chats: Callable[[int], bool]) -> None:
        """Forget the places of the chats ``chats`` picks (a fleet worker gave their shard
        away: the next owner hears what is said there, so what is known here grows stale)."""
        for key in [key for key in self._newest if chats(key[0])]:
            del self._newest[key]
        self._read_in_full = {chat for chat in self._read_in_full if not chats(chat)}

    def answered(self, endpoint: str, answer: object) -> None:
        """A Bot API call's answer: the messages a send made (a media group's several) are
        the newest of their place."""
        if not (endpoint.startswith("send") or endpoint == "forwardMessage"):
            return
        for message in answer if isinstance(answer, list) else [answer]:
            if isinstance(message, dict):
                self._sent(message)

    def _sent(self, message: dict[str, Any]) -> None:
        chat, message_id = message.get("chat"), message.get("message_id")
        if not isinstance(chat, dict) or not isinstance(message_id, int) \
                or not isinstance(chat.get("id"), int) or chat.get("type") == "private":
            return  # (a private chat has no table: not worth a place)
        thread = message.get("message_thread_id")  # a topic's only where it says it is one
        on_topic = message.get("is_topic_message") and chat.get("is_forum")
        self.saw(chat["id"], thread if on_topic and isinstance(thread, int) else None,
                 message_id)
