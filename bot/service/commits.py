"""How the service writes: one transaction per accepted request, memory changed only once
it is committed, and the bot told (publisher, timers) afterwards."""

from __future__ import annotations

import logging
from dataclasses import replace

from engine import Event

from ..errors import OutOfDateError, UserError
from ..i18n import N_
from ..models import Game, MatchRatings, Outgoing, Status, move_number
from ..storage import StaleMoveError
from .memory import GameMemory
from .scoreboards import rating_changes

log = logging.getLogger(__name__)


class Commits(GameMemory):
    """Committing a game's changes, with what must be announced, in one transaction."""

    def _lobby(self, game: Game) -> None:
        """Refuse a lobby's action once it is no lobby: saying whether it started, ended, or
        was closed before it started."""
        if game.status is Status.LOBBY:
            return
        if game.match is None:  # cancelled (or its topic went) before the start
            raise UserError(N_("This table was closed before the game started."))
        if not game.status.open:
            raise UserError(N_("This game is over."))
        raise UserError(N_("This game has already started."))

    async def _save_players(self, game: Game, outgoing: list[Outgoing] | None = None) -> None:
        await self.storage.save_players(game, outgoing or [], self.clock())
        self._changed(game)

    def _deadline(self, game: Game) -> float | None:
        """A human seat to move gets its turn time (:meth:`Game.turn_time`); computers need
        no clock."""
        match = game.match
        if (game.status is not Status.PLAYING or game.turn_seconds <= 0 or match is None
                or match.to_move is None or game.players[match.to_move].is_computer):
            return None
        return self.clock() + game.turn_time(match.to_move)

    async def _set_status(
        self, game: Game, status: Status, outgoing: list[Outgoing] | None = None,
        drop_outbox: bool = False,
    ) -> None:
        await self.storage.save_status(game, status, outgoing or [], self.clock(), drop_outbox)
        game.status = status  # only once it is committed: memory never runs ahead
        game.deadline = None
        self._remember(game)
        self._changed(game)

    async def _stop_ratings(self, game: Game) -> MatchRatings:
        """How stopping ``game`` now moves its leavers' ratings (each keeps the loss /leave
        promised): said with the stop, as a finished match says its changes. Nothing for a
        table whose match never started, or that nobody left."""
        return await rating_changes(self.storage, game, None, self.clock())

    async def _commit(
        self, game: Game, events: list[Event], outgoing: list[Outgoing], previous_move_no: int,
        drop_outbox: bool = False,
    ) -> None:
        """Write the match, its results and its announcements in one transaction (with
        ``drop_outbox``, what the game had still to send goes in it too)."""
        match = game.match
        assert match is not None
        if match.over and game.status is Status.PLAYING:
            game.status = Status.FINISHED
        move_no, deadline = move_number(match), self._deadline(game)
        game.timer.warned = False
        outgoing = [await self._drawn(item) for item in outgoing]
        if self.on_moving is not None:
            try:
                self.on_moving(game)
            except Exception:  # an early picture is an optimisation: never the move's end
                log.exception("beginning the table's picture of game %s failed", game.game_id)
        try:
            await self.storage.commit_move(game, previous_move_no, move_no, deadline, events,
                                           outgoing, self.clock(), drop_outbox)
        except StaleMoveError:
            raise OutOfDateError() from None
        game.move_no, game.deadline = move_no, deadline  # once committed
        self._remember(game)
        self._changed(game)

    async def _drawn(self, item: Outgoing) -> Outgoing:
        """The announcement with its picture drawn; a picture that fails costs only itself:
        the words are told without it."""
        if item.drawing is None:
            return item
        try:
            photo = await self.draw(item.drawing) if self.draw is not None else item.drawing()
        except Exception:
            log.exception("the picture of an announcement failed")
            photo = None
        return replace(item, photo=photo, drawing=None)
