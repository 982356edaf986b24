"""A player whose seat was handed to a computer while they were away takes it back while the
match goes on (player QA: phone game apps let you reconnect).

Who may: only the person the computer stands in for, and only when the seat went to it while
they were away (``SeatChange.away``; one who chose to leave, /leave, stays gone), only while
the match is played, and only while that computer still plays the seat. A person may sit at
two tables at once (the bot never forbids it: /newgame and Join do not), so a seat elsewhere
is no bar.

The return is one more :class:`~bot.models.SeatChange`, whose ``left`` is the computer that
gives the seat back: history (replays, /verify, each move's player, the table's key) reads
who sat where at each move from the changes in order (:meth:`~bot.models.Game.player_at`).

Results and ratings: the returner sits in the seat when the match ends, so they are credited
with the seat's result (a win or a loss, as everyone seated at the end), and are never counted
among the match's leavers (:func:`~bot.storage.results.leavers_of` takes only those not seated
at its end): one rating change each, never a leaver's loss and a seat's result both. A
returner who is away again and handed on again, or who leaves with /leave, is a leaver again,
as their last change says.
"""

from __future__ import annotations

from ..errors import OutOfDateError, UserError
from ..i18n import N_
from ..models import Game, Player, SeatChange, Status
from .seats import Seats

#: A return asked once the match is over (or stopped): the seat can no longer be taken.
MATCH_OVER = N_("This match is over: your seat can no longer be taken back.")
#: A second tap (or one that lost the race to the first): the seat is theirs already.
ALREADY_BACK = N_("You have your seat back already.")
#: The seat was left with /leave, not handed on while away: it is the computer's for good.
LEFT_FOR_GOOD = N_("You left this game: a computer player plays your seat now.")


def may_take_back(game: Game, user_id: int) -> bool:
    """Whether ``user_id`` may take a seat of ``game`` back now (see :class:`Returns`)."""
    return game.status is Status.PLAYING and game.match is not None \
        and Returns.handed_while_away(game, user_id) is not None


class Returns(Seats):
    """Taking back a seat a computer was handed while its player was away."""

    @staticmethod
    def check_take_back(game: Game, user_id: int, seat: int) -> SeatChange:
        """The change that handed ``seat`` from ``user_id`` to the computer playing it, which
        they may undo now; else a :class:`UserError` saying why not (checked in this order:
        a second tap finds the seat theirs, a late one the match over)."""
        if game.seat_of(user_id) == seat:
            raise UserError(ALREADY_BACK)
        if game.status is not Status.PLAYING or game.match is None:
            raise UserError(MATCH_OVER)
        if game.seat_of(user_id) is not None:  # (a forged button: they play another seat)
            raise OutOfDateError()
        found = Returns.handed_while_away(game, user_id)
        if found is None or found[0] != seat:
            last = game.last_change_of(user_id)
            if last is not None and not last.away:
                raise UserError(LEFT_FOR_GOOD)
            raise OutOfDateError()
        return found[1]

    async def take_back(self, game: Game, user_id: int, seat: int, name: str = "") -> Player:
        """``user_id`` takes ``seat`` back from the computer that was handed it while they
        were away (:meth:`check_take_back`), at once, whoever is to move: the caller holds
        the game's lock, so no move is half made, and a computer's decision thought out
        meanwhile is dropped when it comes (its seat is no computer's any more:
        :meth:`~bot.service.play.Play.computer_move`). The change, the seat, a fresh turn
        clock when the seat is to move (another's turn keeps its own) and the group's
        announcement are committed together, or none of them. Their away count starts
        afresh. ``name``: their name now (else as it was). Returns the computer that gave
        the seat back."""
        change = self.check_take_back(game, user_id, seat)
        match = game.match
        assert match is not None
        computer = game.players[seat]
        person = Player(user_id, name or change.left.name)
        hand = match.hand
        async with self.undone_on_failure(game):
            game.seat_changes.append(SeatChange(seat, hand.number, len(hand.moves), computer))
            game.players[seat] = person
            game.timer.timeouts.pop(seat, None)
            if seat in game.timer.away:
                game.timer.away.remove(seat)
            if match.to_move == seat:  # theirs now, with a whole turn's time (another's
                game.deadline = self._deadline(game)  # turn keeps the time it has left)
            await self.storage.save_seats(game, self.composer.returned(game, person, computer),
                                          self.clock())
        self._changed(game)
        return computer
