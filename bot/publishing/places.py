"""Where each game's table is, as its players read it in private: its group's name, its
forum topic's name, and a link to the table message where Telegram has links (supergroups).
A person at two tables tells them apart by these alone (tester: two topics of one group read
the same)."""

from __future__ import annotations

from ..models import Game
from ..storage import Storage

#: Topics' names remembered, at most (then forgotten all at once): each topic a message
#: comes from is remembered, with a game or not.
TOPICS_KEPT = 16384


class Places:
    """The names of the groups and topics of the games being played, read from storage once
    and kept as Telegram tells of new ones."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.chat_titles: dict[int, str] = {}  # "": not known
        self.topic_names: dict[tuple[int, int], str] = {}  # "": not known

    async def learn(self, game: Game) -> None:
        """Read the game's group and topic names, the first time they are asked for."""
        if game.chat_id not in self.chat_titles:  # (a title learnt meanwhile stays)
            title = await self.storage.chat_title(game.chat_id) or ""
            self.chat_titles.setdefault(game.chat_id, title)
        if game.thread_id is not None:
            await self._topic(game.chat_id, game.thread_id)

    async def _topic(self, chat_id: int, thread_id: int) -> str:
        key = (chat_id, thread_id)
        if key not in self.topic_names:
            if len(self.topic_names) >= TOPICS_KEPT:
                self.topic_names.clear()  # (read again as they are needed)
            name = await self.storage.topic_name(chat_id, thread_id) or ""
            return self.topic_names.setdefault(key, name)  # a name learnt meanwhile stays
        return self.topic_names[key]

    async def topic_named(self, chat_id: int, thread_id: int, name: str, *, current: bool
                          ) -> bool:
        """A topic's name from Telegram: a topic made or renamed gives its name now
        (``current``); the creation a message in the topic quotes, only when the bot knows
        no other (a renamed topic's messages still quote the name it was made with). Whether
        the name the hands say changed."""
        known = await self._topic(chat_id, thread_id)
        if known == name or (known and not current):
            return False
        self.topic_names[(chat_id, thread_id)] = name
        await self.storage.save_topic_name(chat_id, thread_id, name)
        return True

    def forget(self, chat_id: int) -> None:
        """The group has no open game left: its names are read again when it has one."""
        self.chat_titles.pop(chat_id, None)
        for key in [key for key in self.topic_names if key[0] == chat_id]:
            del self.topic_names[key]

    def group(self, game: Game) -> str:
        return self.chat_titles.get(game.chat_id, "")

    def topic(self, game: Game) -> str:
        """The game's topic's name; "" outside topics (or the General topic) or unknown."""
        if game.thread_id is None:
            return ""
        return self.topic_names.get((game.chat_id, game.thread_id), "")


def linkable(game: Game) -> bool:
    """Whether Telegram has links to the messages of the game's group: a supergroup's (a
    basic group has none)."""
    return str(game.chat_id).startswith("-100")


def table_url(game: Game) -> str | None:
    """A t.me link to the game's table message (its topic's, in a forum); while the table
    has no message yet (a first turn's hand goes out before it), to its lobby's, just above
    where the table comes, else to its topic; None in a basic group, which has no links."""
    if not linkable(game):
        return None
    message = game.messages.table_message or game.messages.lobby
    thread = game.thread_id
    parts = (str(game.chat_id)[4:], thread, message)
    path = "/".join(str(part) for part in parts if part is not None)
    return f"https://t.me/c/{path}" if message is not None or thread is not None else None
