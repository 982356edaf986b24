"""A game's table asked to come down to the bottom of its group (/table, "⬇ Table", a table
message an admin deleted): the sync that posts it is requested now, or once the gap since the
last such post is over (one timer a game); and why the table cannot come down there now, the
answer a /table gets. What a request waits for is :mod:`bot.publishing.reposts`; the posting
is the group's sync (:mod:`bot.publishing.groupsync`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection

from ..i18n import N_
from .groupsync import TABLE_KEPT, TABLE_REFUSED, GroupSync
from .mutednotices import MUTED, MutedNotices

#: The answer to /table or "⬇ Table" (asked in private) while the group refuses the bot's
#: messages: the table cannot come down there.
TABLE_MUTED = N_("I may not send messages in the group now, so its table cannot be posted "
                 "there. An admin can let me write again.")
#: Why a table asked for cannot come down where no answer may go in the group (the asker is
#: told in private when the sync meets the refusal).
NOT_IN_THE_GROUP = (TABLE_MUTED, TABLE_KEPT)


class TableRequests:
    """The tables asked to come down, each at its game's next sync or once its gap is over."""

    def __init__(self, group: GroupSync, muted: MutedNotices, request: Callable[[int], None],
                 stopping: asyncio.Event) -> None:
        self.group = group
        self.muted = muted
        self.request = request  # syncs a game soon (the publisher's)
        self._stopping = stopping
        #: Games whose table waits to be posted again below (see :meth:`bring_down`).
        self._coming_down: dict[int, asyncio.TimerHandle] = {}

    def bring_down(self, game_id: int, asker: int | None = None) -> float:
        """/table: post the game's table again at the bottom of its group, soon; the seconds
        it waits first when it was posted again a moment ago (then every request meanwhile
        comes to the one post, when the time is up). ``asker``: who is told in private should
        the group refuse the post (one not told otherwise)."""
        wait = self.group.reposts.ask(game_id, asker)
        if wait == 0:
            self.request(game_id)
        elif game_id not in self._coming_down:
            self._coming_down[game_id] = asyncio.get_running_loop().call_later(
                wait, self._due, game_id)
        return wait

    def waits(self, game_id: int) -> bool:
        """Whether the game's table waits to come down in this process (asked for in the
        gap after its last re-post): an answer saying it comes is kept until it has (the
        group's sync deletes it then: :func:`~bot.publishing.questions.delete_table_notices`)."""
        return self.group.reposts.asked(game_id)

    def refused(self, game_id: int) -> str | None:
        """Why the game's table cannot come down in its group now, as its last sync found
        (the answer to a /table, untranslated), or None: it can."""
        if self.group.photos_refused(game_id):
            return TABLE_REFUSED
        if self.muted.told.get(game_id) == MUTED:
            return TABLE_MUTED
        return self.group.reposts.refusals.get(game_id)

    def may_post(self, game_id: int) -> None:
        """An admin let the bot send in the game's group again: a /table is tried as if
        nothing had been refused (the sync that follows sends what waits)."""
        self.group.reposts.may_post(game_id)
        self.request(game_id)

    def forget(self, game_ids: Collection[int]) -> None:
        """These games leave this process (over, or given to another worker): no table of
        theirs waits to come down here, and no gap is kept for them."""
        for game_id in game_ids:
            waiting = self._coming_down.pop(game_id, None)
            if waiting is not None:
                waiting.cancel()
        self.group.reposts.forget(game_ids)

    def _due(self, game_id: int) -> None:
        self._coming_down.pop(game_id, None)
        if self.group.reposts.asked(game_id) and not self._stopping.is_set():
            self.bring_down(game_id)  # (again later, should the timer come early)

    def stop(self) -> None:
        """The bot is stopping: a table waiting to come down stays where it is."""
        for waiting in self._coming_down.values():
            waiting.cancel()
        self._coming_down.clear()
