"""The "Which game?" pickers a bare /newgame posted, per topic of a group, so that the table
opened in a topic (from a picker, by /newgame with a game, or by 🔁 Play again) takes them
away (QA: a picker kept its buttons under the table, and its tap said a game was running).

Kept in memory only: a restart forgets them, and a picker posted before it keeps its
buttons; its tap is still harmless (a table opened while none is open, as a fresh /newgame
would, or the picker taken away with the refusal while one is: see
:func:`bot.handlers.gametaps.game_picked`)."""

from __future__ import annotations

#: A group's topic: its chat and its forum thread (None: the General topic, or no forum).
Topic = tuple[int, int | None]


class Pickers:
    """The pickers posted in each topic and not yet taken away."""

    def __init__(self) -> None:
        self._posted: dict[Topic, set[int]] = {}

    def posted(self, chat_id: int, thread_id: int | None, message_id: int) -> None:
        self._posted.setdefault((chat_id, thread_id), set()).add(message_id)

    def taken(self, chat_id: int, thread_id: int | None) -> tuple[int, ...]:
        """The pickers of a topic, forgotten here: the caller takes them away."""
        return tuple(sorted(self._posted.pop((chat_id, thread_id), ())))

    def tapped(self, chat_id: int, thread_id: int | None, message_id: int) -> None:
        """A picker tapped: its tap takes it away itself (no second call to delete it)."""
        self._posted.get((chat_id, thread_id), set()).discard(message_id)
