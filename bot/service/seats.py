"""Who may end a game or leave it, and how a seat passes to a computer player: /stop,
/leave, an away player replaced, a group the bot lost."""

from __future__ import annotations

from ..computers import computer
from ..errors import UserError
from ..i18n import N_
from ..models import REPLACEMENT_LEVEL, Game, Player, SeatChange, Status
from ..wording import isolated
from .locks import Locks
from .play import Play

#: How long after the bot's removal stopped a group's game the group, the bot added back,
#: hears so in its welcome: an admin who removed it by mistake, or to try, adds it back
#: within minutes or hours, a group that wants it back within days; weeks later the
#: stopped game is old news (its table there says "The game was stopped." anyway).
REMOVAL_TOLD_FOR = 3 * 24 * 3600.0


class Seats(Play):
    """Stopping, leaving and replacing."""

    @staticmethod
    def check_may_stop(game: Game, user_id: int, is_admin: bool) -> None:
        """Raise :class:`UserError` unless ``user_id`` may stop ``game``: an admin of its
        group, or its creator while she still plays it, while it is open. A creator who left
        (a computer took her seat) no longer speaks for the people still playing."""
        if not game.status.open:
            raise UserError(N_("This game is over."))
        _check_in_charge(game, user_id, is_admin,
                         N_("Only the game's creator or a group admin can stop it."))

    @staticmethod
    def check_may_change_settings(user_id: int, human_admins: frozenset[int] | None) -> None:
        """Raise :class:`UserError` unless ``user_id`` may change a group's settings: its
        admins may; in a group whose only admins are bots (or none), everybody may. When
        Telegram could not say who the admins are (None), nobody may for now."""
        if human_admins is None:
            raise UserError(N_("Something went wrong. Please try again."))
        if human_admins and user_id not in human_admins:
            raise UserError(N_("Only the group's admins can change its settings."))

    async def stop(self, game: Game, user_id: int, is_admin: bool, by: str = "") -> None:
        """End the game with no result; ``by`` (HTML) is announced as who stopped it."""
        self.check_may_stop(game, user_id, is_admin)
        ratings = await self._stop_ratings(game)
        await self._set_status(game, Status.STOPPED, self.composer.stopped(game, by, ratings))

    async def abandon(self, game: Game, group_gone: bool = False) -> None:
        """The bot was removed from the group (or the group was deleted: ``group_gone``): no
        result, and nothing left to send there; the players' private messages say why (the
        flags are saved with the status)."""
        async with self.undone_on_failure(game, bot_removed=True, group_gone=group_gone,
                                          removed_at=None if group_gone else self.clock()):
            await self._set_status(game, Status.STOPPED, drop_outbox=True)

    async def removal_to_tell(self, chat_id: int, locks: Locks) -> bool:
        """The bot was added back to the group: whether its welcome is to say that its game
        was stopped because the bot was removed (QA: the group heard only the help, and the
        players alone why the game ended). So when the newest game of one of its topics
        stopped so within :data:`REMOVAL_TOLD_FOR`; each such game is told once, noted
        (stored) here, whether or not it was that recent."""
        told = False
        for game_id in await self.storage.last_game_ids(chat_id):  # (one a topic)
            game = await self.find(game_id)
            if game is None:
                continue
            async with locks.game(game_id):
                removed_at = game.messages.removed_at
                if removed_at is None or game.status is not Status.STOPPED:
                    continue
                async with self.messages_undone_on_failure(game, removed_at=None):
                    await self.storage.save_messages(game)
                told |= self.clock() - removed_at <= REMOVAL_TOLD_FOR
        return told

    async def quit(self, game: Game, user_id: int, asked_seat: int | None = None) -> Player:
        """A seated player leaves a running game; a computer player takes the seat so the
        match can finish. ``asked_seat`` is the seat a confirmation button was made for: only
        that seat's player may answer it. Returns the newcomer."""
        seat = game.seat_of(user_id)
        if seat is None:
            raise UserError(N_("You are not playing in this game."))
        if not game.status.open:  # a question asked during the match, answered after it
            raise UserError(N_("This game is over."))
        if game.status is not Status.PLAYING:
            raise UserError(N_("You are not playing in this game."))
        if asked_seat is not None:
            self.check_asked(game, user_id, asked_seat)
        return await self._hand_over(game, seat, REPLACEMENT_LEVEL, away=False)

    @staticmethod
    def has_left(game: Game, user_id: int, seat: int) -> bool:
        """Whether ``user_id`` left ``seat`` for good (a computer took it): a second tap of
        the leave's confirmation, or one that came while the first was being handled, finds
        the leave done and has nothing to do."""
        return game.seat_of(user_id) is None and any(
            change.seat == seat and change.left.user_id == user_id
            for change in game.seat_changes)

    @staticmethod
    def check_asked(game: Game, user_id: int, asked_seat: int) -> None:
        """A question asked of the player in ``asked_seat`` is answered by them alone."""
        if game.seat_of(user_id) != asked_seat:
            raise UserError(N_("This question is for another player."))

    async def replace_away(
        self, game: Game, user_id: int, is_admin: bool, seat: int, level: str = REPLACEMENT_LEVEL
    ) -> Player:
        """The creator or an admin hands the seat of an away player to a computer player; so
        may anyone still playing at the table when the creator is away or gone (player QA:
        an away creator left the others no way on).

        Valid only while the offer holds: the game is on and that seat's player is away (three
        time-outs in a row, and no move of their own since), whatever button asked for it.
        """
        if game.status is not Status.PLAYING:
            raise UserError(N_("This game is over."))
        if 0 <= seat < len(game.players) and game.players[seat].is_computer:
            # (first: a second tap racing the first finds the seat handed, not its player
            # back at the table)
            raise UserError(N_("A computer player already plays that seat."))
        if seat not in game.timer.away:  # (then: the offer is stale, whoever taps it)
            raise UserError(N_("That player is at the table and plays on."))
        mine = game.seat_of(user_id)
        if is_admin or mine is None or mine in game.timer.away:
            _check_in_charge(game, user_id, is_admin,
                             N_("Only the game's creator or a group admin can do that."))
        elif game.creator_at_table() and user_id != game.creator_id:
            # (an offer posted while she was away said anyone at the table could: review)
            creator = game.players[game.seat_of(game.creator_id) or 0]
            raise UserError(N_("{name}, who opened this table, is playing: only they or a "
                               "group admin can hand a seat on."), name=isolated(creator.name))
        return await self._hand_over(game, seat, level, away=True)

    async def _hand_over(self, game: Game, seat: int, level: str, away: bool) -> Player:
        """Hand ``seat`` to a computer player of ``level`` and say so in the group; ``away``:
        its player did not leave, the seat was handed on while they were away."""
        if game.status is not Status.PLAYING or not 0 <= seat < len(game.players):
            raise UserError(N_("This game is over."))
        leaving = game.players[seat]
        if leaving.is_computer:
            raise UserError(N_("A computer player already plays that seat."))
        newcomer = computer(level, {p.user_id for p in game.players},
                            self.computers_elsewhere(game))
        assert game.match is not None
        hand = game.match.hand
        async with self.undone_on_failure(game):
            game.seat_changes.append(
                SeatChange(seat, hand.number, len(hand.moves), leaving, away))
            game.players[seat] = newcomer
            game.timer.timeouts.pop(seat, None)
            if seat in game.timer.away:
                game.timer.away.remove(seat)
            game.deadline = self._deadline(game)
            await self.storage.save_seats(
                game, self.composer.replaced(game, leaving, newcomer, away), self.clock())
        self._changed(game)
        return newcomer


def _check_in_charge(game: Game, user_id: int, is_admin: bool, refusal: str) -> None:
    """Raise :class:`UserError` unless ``user_id`` may act for the whole table: an admin of its
    group, or its creator while she still plays it (``refusal`` to anyone else). A creator who
    left (a computer took her seat) no longer speaks for the people still playing."""
    if is_admin:
        return
    if user_id != game.creator_id:
        raise UserError(refusal)
    if game.status is Status.PLAYING and game.seat_of(user_id) is None:
        raise UserError(N_("You are not playing in this game."))
