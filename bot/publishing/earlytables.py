"""Tables drawn early: a move's table picture begun as the move is accepted, in the painter's
thread, while the move is being committed; the group sync that follows the commit takes the
picture when it shows the same table (else it is dropped).

A move's table waited for the move's commit (a few milliseconds of SQLite, its fsync mostly)
before its drawing began: now the drawing starts as the move is accepted, while SQLite's
thread writes the commit."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from engine import TableView, table_view

from ..models import Game
from ..presentation.painter import Urgency
from ..presentation.pictures import PictureMaker, picture_names

#: What a table picture is drawn from: the view, the seats' names, the language (its theme
#: is the bot's).
Shows = tuple[TableView, tuple[str, ...], str]


@dataclass(frozen=True, slots=True, eq=False)
class EarlyTable:
    """A table's picture begun as its move was accepted, before the move was committed:
    what it shows and the picture to come."""

    shows: Shows
    photo: asyncio.Future[bytes]


def shows(game: Game, view: TableView) -> Shows:
    """What a table picture of ``game`` is drawn from (its theme is the bot's)."""
    return view, tuple(picture_names(game)), game.language


class EarlyTables:
    """The tables drawn ahead of their sync, one a game at most."""

    def __init__(self, pictures: PictureMaker) -> None:
        self.pictures = pictures
        #: Tables drawn ahead of their sync, from a move accepted and being committed.
        self.tables: dict[int, EarlyTable] = {}
        #: The tables being drawn early, until drawn (taken by a sync or not).
        self.drawing: dict[int, asyncio.Future[bytes]] = {}

    def draw(self, game: Game) -> None:
        """Begin drawing the table of ``game`` (whose move was accepted, under the game's
        lock) now, in place of any drawn before."""
        assert game.match is not None
        view = table_view(game.match)
        self.forget(game.game_id)
        photo = self.pictures.painter.draw(self.pictures.table_drawing(game, view),
                                           Urgency.TABLE)
        self.tables[game.game_id] = EarlyTable(shows(game, view), photo)
        self.drawing[game.game_id] = photo
        photo.add_done_callback(lambda _: self._drawn(game.game_id, photo))

    def _drawn(self, game_id: int, photo: asyncio.Future[bytes]) -> None:
        if self.drawing.get(game_id) is photo:
            del self.drawing[game_id]

    async def table_drawn(self, game_id: int) -> None:
        """Wait while the game's table is being drawn early. The hands' drafts (some
        milliseconds of the event loop's Python) wait for it: made beside it, they took the
        interpreter lock from the picture half of the time, and the hands' pictures are drawn
        after the table's anyway."""
        photo = self.drawing.get(game_id)
        if photo is not None:
            await asyncio.wait({photo})

    def forget(self, game_id: int) -> None:
        """Drop the table drawn early for ``game_id`` (its failure, if it failed, unread)."""
        early = self.tables.pop(game_id, None)
        if early is not None:
            early.photo.add_done_callback(_unread)

    def take(self, game_id: int, seen: Shows) -> asyncio.Future[bytes] | None:
        """The table's picture begun early, when it shows the same table as ``seen``
        (taken); an early picture of anything else is dropped."""
        early = self.tables.get(game_id)
        if early is None or early.shows != seen:
            self.forget(game_id)
            return None
        del self.tables[game_id]
        return early.photo


def _unread(photo: asyncio.Future[bytes]) -> None:
    """A picture nobody awaits: its failure is not worth a "never retrieved" warning."""
    if not photo.cancelled():
        photo.exception()
