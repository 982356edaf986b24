"""A game's table posted again at the bottom of its group (/table, "⬇ Table"): which games
ask for it, when each was last posted that way (one re-post a game in :data:`REPOST_GAP`),
and whether the table is the group's last message already. Kept apart from the group's
sync, which does the posting, so that what a worker letting games go forgets is in one
place (:meth:`Reposts.forget`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection

from ..models import Game
from .messenger import TABLE, Messenger
from .tails import Tails

#: Seconds between two posts of a game's table at the bottom of its group (/table, "⬇ Table"):
#: one person pressing it again and again cannot fill the group, nor spend its budget, with
#: it; a request sooner is carried out when the time is up.
REPOST_GAP = 15.0


class Reposts:
    """The games whose table is to come down, and when each last came down."""

    def __init__(self, messenger: Messenger, tails: Tails) -> None:
        self.messenger = messenger
        #: The newest message the bot knows of in each place.
        self.tails = tails
        #: Games whose table is to be posted again at the bottom of the group (/table): the
        #: group's sync does it, so that only it ever changes which message is the table.
        self.moving_down: set[int] = set()
        #: When each game's table was last posted again that way (the clock's time), for
        #: the games of the last ``repost_gap`` seconds: one re-post a game in that time.
        self.moved_at: dict[int, float] = {}
        self.repost_gap = REPOST_GAP
        self.clock: Callable[[], float] = time.monotonic
        #: Who asked for each waiting game's table and was not told why it cannot come (a
        #: /table in a group that takes no reply, a tap answered before the post): told in
        #: private should the group refuse the post.
        self.askers: dict[int, set[int]] = {}
        #: Games whose group refused the table's last post below, the table above kept
        #: (see :meth:`refused`): why, until a table is posted there again.
        self.refusals: dict[int, str] = {}

    def ask(self, game_id: int, asker: int | None = None) -> float:
        """The table is to come down at the game's next sync (``asker``: who is to hear
        should the group refuse it); the seconds until it may."""
        self.moving_down.add(game_id)
        if asker is not None:
            self.askers.setdefault(game_id, set()).add(asker)
        return self.wait(game_id)

    def asked(self, game_id: int) -> bool:
        """Whether the game's table waits to come down."""
        return game_id in self.moving_down

    def wait(self, game_id: int) -> float:
        """The seconds until the game's table may be posted again below (0: now)."""
        at = self.moved_at.get(game_id)
        return 0.0 if at is None else max(0.0, at + self.repost_gap - self.clock())

    def moving(self, game_id: int) -> bool:
        """Whether this sync posts the table again below: asked for, and not too soon."""
        return game_id in self.moving_down and self.wait(game_id) == 0.0

    def moved(self, game_id: int) -> None:
        """The table was posted again below: the next time waits ``repost_gap`` from now
        (the times past it are forgotten)."""
        self.posted(game_id)
        self._tried(game_id)

    def _tried(self, game_id: int) -> None:
        """The table's post below was tried now: the next waits ``repost_gap``."""
        now = self.clock()
        for old in [g for g, at in self.moved_at.items() if at + self.repost_gap <= now]:
            del self.moved_at[old]
        self.moved_at[game_id] = now

    def posted(self, game_id: int) -> None:
        """A new table message (a new hand's): at the bottom anyway, no request waits (and
        the group takes the bot's posts)."""
        self.moving_down.discard(game_id)
        self.askers.pop(game_id, None)
        self.refusals.pop(game_id, None)

    def refused(self, game_id: int, why: str) -> set[int]:
        """The group refused the table's post below (``why``: what a /table is answered
        now, untranslated): the table above stays, and the request waits, tried again after
        ``repost_gap`` (the table comes down once the group takes it); who asked and was
        not told why, to be told now."""
        self.refusals[game_id] = why
        self._tried(game_id)
        return self.askers.pop(game_id, set())

    def may_post(self, game_id: int) -> None:
        """The bot may post in the game's group again (an admin said so): a /table is
        answered as if nothing was refused, and one refused comes down at once."""
        self.refusals.pop(game_id, None)
        self.moved_at.pop(game_id, None)

    def table_is_last(self, game: Game) -> bool:
        """Whether the game's table is the newest message in its place, as far as a bot that
        reads its chat in full can see (and none is on its way below it): posting it again
        would change nothing there."""
        table = game.messages.table_message
        return (table is not None and self.tails.reads_all(game.chat_id)
                and game.game_id not in self.moving_down
                and not self.messenger.in_flight(game.game_id, TABLE)
                and self.tails.newest(game.chat_id, game.thread_id) == table)

    def forget(self, game_ids: Collection[int]) -> None:
        """These games left this process (over, or another worker's now): no request of
        theirs waits, and no gap is kept for them."""
        self.moving_down.difference_update(game_ids)
        for game_id in game_ids:
            self.moved_at.pop(game_id, None)
            self.askers.pop(game_id, None)
            self.refusals.pop(game_id, None)
