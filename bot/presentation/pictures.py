"""Pictures for the chat, drawn by :mod:`renderers` with words from the catalogues."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import fields, replace
from functools import cache, partial
from typing import Any

import renderers
from engine import PlayerView, TableView, Tile, hand_tables
from renderers.canvas import ROBOT
from renderers.frames import Frame
from renderers.hand import hand_picture
from renderers.labels import TableLabels
from renderers.table import table_picture

from ..gamebook import PRESENTATIONS
from ..i18n import N_, translator
from ..models import Drawing, Game, Player
from .keyboards import hand_order
from .painter import Painter, Steps, Urgency

# Every word drawn on a picture, as a msgid: the renderers' English defaults, read from
# TableLabels (the catalogue extractor, catalogues/, reads them here too), except where the
# chat words one differently: the set's name says "set".
PICTURE_WORDS: dict[str, str] = {
    **{field.name: field.default for field in fields(TableLabels)
       if isinstance(field.default, str)},
    "set_name": N_("double-{number} set"),
}


@cache
def labels_for(language: str, game: str | None = None) -> TableLabels:
    """The pictures' words in ``language``; with ``game``, its own words where it has them
    (French's "honour only")."""
    t = translator(language)
    words: dict[str, Any] = {field: t(msgid) for field, msgid in PICTURE_WORDS.items()}
    if game in PRESENTATIONS:
        own = PRESENTATIONS[game].picture_words
        words.update({field: t(msgid) for field, msgid in own.items()})
    games = tuple((name, t(entry.title)) for name, entry in PRESENTATIONS.items())
    return TableLabels(games=games, **words)


#: On the match's picture, beside the name of someone a computer replaced while they were
#: away, on their own row with their rating change (the seat's row shows the computer).
AWAY_NOTE = N_("away: {computer} played on")
#: The same for someone who left the match (/leave).
LEFT_NOTE = N_("left: {computer} played on")


def picture_names(game: Game, players: Sequence[Player] | None = None) -> list[str]:
    """Seat names for pictures, as the texts write them: a computer's "🤖 Rio" (the renderers
    draw the robot, which no font of theirs has); ``players``: those of an earlier hand."""
    return [p.name if p.name.startswith(ROBOT) or not p.is_computer else f"{ROBOT} {p.name}"
            for p in (game.players if players is None else players)]


def hand_players(game: Game, hand_number: int) -> list[Player]:
    """Who sat in each seat as hand ``hand_number`` of the game ended (a seat may have
    changed hands since)."""
    match = game.match
    assert match is not None
    moves = len(match.hands[hand_number].moves)
    return [game.player_at(seat, hand_number, moves) for seat in range(len(game.players))]


def newcomers(game: Game, hand_number: int) -> frozenset[int]:
    """The seats whose last move in hand ``hand_number`` was made by another than who sits
    there now (a computer handed the seat since, or the person who took it back from the
    computer): the table names who sits there, so it marks no knock of that move beside
    their name (player QA: a person back in their seat showed the computer's knock)."""
    match = game.match
    if match is None or not 0 <= hand_number < len(match.hands):
        return frozenset()
    last = {seat: index for index, (seat, _) in enumerate(match.hands[hand_number].moves)}
    return frozenset(seat for seat, index in last.items() if seat < len(game.players)
                     and game.player_at(seat, hand_number, index).user_id
                     != game.players[seat].user_id)


# Pictures whose last frame is kept to draw the next one from: a table's frame is some 40 KB
# (its compressed bands and its strokes' marks), a hand's some 10 KB; a picture not among them
# is simply drawn whole. Some 64 tables with their players' hands.
FRAMES_KEPT = 320
# The game whose hands are being drafted, set by the caller (HandSync) around its drafts: the
# key of each hand's last frame; the drawing itself runs later, in the painter's thread.
_HANDS_OF: ContextVar[int | None] = ContextVar("hands_of", default=None)


class PictureMaker:
    """Renders table, hand-result and hand pictures in a game's language and theme.

    The ``..._drawing`` methods take what the picture shows from the game now (the caller
    holds its lock) and return the drawing itself, to run later in the painter's thread
    (:meth:`drawn`): it reads nothing that may change meanwhile (the views are frozen)."""

    def __init__(self, theme: str = "classic") -> None:
        self.theme = theme if theme in renderers.THEMES else "classic"
        # Each table's and each seat's hand's last picture, to draw the next one from (only
        # what changed is drawn); the drawings run in the painter's thread, but ``table`` and
        # ``hand`` run on the caller's.
        self._frames: OrderedDict[Hashable, Frame] = OrderedDict()
        self._frames_lock = threading.Lock()
        self.painter = Painter()  # the one thread every picture is drawn in
        #: Told each picture's kind and seconds, from the painter's thread (the metrics).
        self.on_drawn: Callable[[str, float], None] | None = None

    def table(self, game: Game, view: TableView) -> bytes:
        return self.table_drawing(game, view)()

    def table_drawing(self, game: Game, view: TableView) -> Drawing:
        return self._timed("table", partial(
            self._table_png, game.game_id, view, tuple(picture_names(game)),
            labels_for(game.language, game.game_name), newcomers(game, view.hand_number)))

    def _table_png(self, game_id: int, view: TableView, names: tuple[str, ...],
                   labels: TableLabels, seated_since: frozenset[int] = frozenset()) -> bytes:
        return self._from_last(("table", game_id), partial(
            table_picture, view, names, theme=self.theme, labels=labels,
            newcomers=seated_since))

    def _from_last(self, key: Hashable, picture: Callable[..., tuple[bytes, Frame]]) -> bytes:
        """``picture`` drawn from the last frame kept under ``key``, its own kept instead."""
        with self._frames_lock:
            since = self._frames.get(key)
        png, frame = picture(since=since)
        with self._frames_lock:
            self._frames[key] = frame
            self._frames.move_to_end(key)
            while len(self._frames) > FRAMES_KEPT:
                self._frames.popitem(last=False)
        return png

    def match_end(self, game: Game, view: TableView, rating_changes: Sequence[int | None] = ()
                  ) -> bytes:
        return self.match_end_drawing(game, view, rating_changes)()

    def match_end_drawing(self, game: Game, view: TableView,
                          rating_changes: Sequence[int | None] = (),
                          replaced: Sequence[tuple[int, str, int, bool]] = ()) -> Drawing:
        """The match's end; ``replaced``: the people a computer took a seat from, each
        (seat, name, rating change, whether they were away rather than gone with /leave),
        on rows of their own with their change, which computer played on said beside their
        name ("Budi  away: Rio played on  -40"); the seat's row shows the computer and the
        seat's score alone (player QA: "🤖 Rio for Budi -40" on the winning row)."""
        names = picture_names(game)
        t = translator(game.language)
        rows = tuple(
            (name, t(AWAY_NOTE if away else LEFT_NOTE,
                     computer=names[seat].removeprefix(f"{ROBOT} ")), change)
            for seat, name, change, away in replaced)
        return self._timed("match_end", partial(
            renderers.render_match_end, view, names,
            rating_changes=tuple(rating_changes), theme=self.theme,
            labels=labels_for(game.language, game.game_name), replaced=rows))

    def hand_result_drawing(self, game: Game, view: TableView) -> Drawing:
        return self._timed("hand_result", partial(
            renderers.render_hand_result, view, picture_names(game), theme=self.theme,
            labels=labels_for(game.language, game.game_name)))

    def replay_steps(self, game: Game, hand_number: int, language: str) -> Steps:
        """Finished hand ``hand_number`` of the game told again move by move, an animated GIF,
        drawn a frame at a step (see :meth:`replayed`). Its tables are made from the match's
        record in the painter's thread too, as the first step: a hand late in a match replays
        every hand before it."""
        match = game.match
        assert match is not None
        names = tuple(picture_names(game, hand_players(game, hand_number)))
        labels = labels_for(language, game.game_name)

        def replay() -> Steps:
            tables = hand_tables(match, hand_number)
            yield
            return (yield from renderers.replay_steps(tables, names, theme=self.theme,
                                                      labels=labels))

        return self._timed_steps("replay", replay())

    async def replayed(self, steps: Steps) -> bytes:
        """The GIF ``steps`` make, drawn in the painter's thread after every table and hand
        asked for meanwhile, even those asked for while it is being drawn."""
        return await self.painter.draw_steps(steps, Urgency.REPLAY)

    async def drawn(self, drawing: Drawing, urgency: Urgency = Urgency.TABLE) -> bytes:
        """The picture ``drawing`` makes, drawn in the painter's thread."""
        return await self.painter.draw(drawing, urgency)

    def hand(self, game: Game, view: PlayerView, language: str) -> bytes:
        """The player's tiles in the order of their buttons."""
        with self.hands_of(game.game_id):
            return self.hand_drawing(view, language)()

    @staticmethod
    @contextmanager
    def hands_of(game_id: int) -> Iterator[None]:
        """Within the block, hands are drawn for ``game_id`` (see :meth:`hand_drawing`)."""
        token = _HANDS_OF.set(game_id)
        try:
            yield
        finally:
            _HANDS_OF.reset(token)

    def hand_drawing(self, view: PlayerView, language: str, chosen: Tile | None = None
                     ) -> Drawing:
        """The player's tiles in the order of their buttons (``chosen``: the one they are
        placing, singled out); within :meth:`hands_of` a game, drawn from the last picture
        of the same seat's hand in that game (after a move, the header's and the bottom's
        rows are often the same)."""
        ordered = replace(view, hand=hand_order(view.hand))
        labels = labels_for(language)
        game_id = _HANDS_OF.get()
        if game_id is None:
            return self._timed("hand", partial(renderers.render_hand, ordered, theme=self.theme,
                                               labels=labels, chosen=chosen))
        return self._timed("hand", partial(
            self._from_last, ("hand", game_id, view.seat),
            partial(hand_picture, ordered, theme=self.theme, labels=labels, chosen=chosen)))

    def _timed(self, kind: str, drawing: Drawing) -> Drawing:
        """``drawing``, telling :attr:`on_drawn` how long it took."""
        def timed() -> bytes:
            started = time.perf_counter()
            picture = drawing()
            if self.on_drawn is not None:
                self.on_drawn(kind, time.perf_counter() - started)
            return picture

        return timed

    def _timed_steps(self, kind: str, steps: Steps) -> Steps:
        """``steps``, telling :attr:`on_drawn` the time its steps took (not the waits
        between them, while other pictures were drawn)."""
        spent = 0.0
        while True:
            started = time.perf_counter()
            try:
                next(steps)
            except StopIteration as done:
                picture: bytes = done.value
                break
            finally:
                spent += time.perf_counter() - started
            yield
        if self.on_drawn is not None:
            self.on_drawn(kind, spent)
        return picture
