"""Play: the start of a match, each move (a player's, a computer's, or the one made for a
player whose time ran out), and what follows it until a human must act."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from engine import (
    Action,
    BadInputError,
    DominoError,
    Event,
    Match,
    MatchEnded,
    PlayerView,
    player_view,
)
from engine.ai import safest_action

from ..errors import (
    GameOverError,
    NotPlayingError,
    NotYourTurnError,
    OutOfDateError,
    SeatHandedOnError,
    UserError,
)
from ..i18n import N_
from ..models import AWAY_AFTER, Game, Outgoing, SeatChange, Status
from ..refusals import rule_message
from ..wording import isolated, toast_names
from .lobby import Lobbies
from .scoreboards import rating_changes
from .thinker import Question


class Play(Lobbies):
    """A match under way."""

    async def start(self, game: Game, user_id: int) -> list[Event]:
        self._lobby(game)
        if user_id != game.creator_id:
            raise UserError(N_("Only the player who created the game can start it."))
        if game.pending:  # first: freeing their seats is the way on, however many are seated
            raise UserError(N_("Waiting for {names} to confirm with Join. To go on without "
                               "them, free their seats with the 🪑 button."), names=toast_names(
                p for p in game.players if p.user_id in game.pending))
        if len(game.players) not in game.seat_counts:
            low, high = min(game.seat_counts), max(game.seat_counts)
            if low == high:
                raise UserError(N_("The game needs {count} players: friends press Join, or "
                                   "the 🤖 buttons add computer players."), count=low)
            raise UserError(N_("The game needs {low} to {high} players: friends press Join, "
                               "or the 🤖 buttons add computer players."), low=low, high=high)
        before = list(game.unreachable_ids)
        await self._check_reach(game)  # as it is now: a chat may have opened or bounced
        if game.unreachable_players:
            if game.unreachable_ids != before:
                self._changed(game)  # the lobby shows who it waits for
            if user_id in game.unreachable_ids:  # the creator herself: not in the third person
                raise UserError(N_("Open our private chat first (the 💬 button in the lobby), "
                                   "then press Start."))
            raise UserError(N_("Waiting for {names} to open a private chat with me."),
                            names=toast_names(game.unreachable_players))
        try:
            match = Match(game.game_name, len(game.players), game.options)
        except BadInputError:
            raise UserError(N_("These options do not fit a table of {count} players."),
                            count=len(game.players)) from None
        async with self.undone_on_failure(game):  # (what the start changes, undone with it)
            game.match = match
            events, outgoing = self._settle(game, match.deal_from_seed(self.seed_source()))
            game.status = Status.PLAYING
            # The lobby's calls to start not sent yet (the group's budget held them back)
            # would come after the start: dropped with it, in its transaction (a sync already
            # sending one drops it at its send: bot.publishing.outbox; and those sent are
            # deleted after the start: bot.publishing.groupsync). A lobby queues nothing else.
            await self._commit(game, events, outgoing, previous_move_no=0, drop_outbox=True)
        return events

    @staticmethod
    def seat_of(game: Game, user_id: int) -> int:
        """The seat of ``user_id`` at ``game``; :class:`NotPlayingError` if they have none
        (:class:`SeatHandedOnError` when a computer took it, :class:`GameOverError` once
        the game they played is over)."""
        seat = game.seat_of(user_id)
        if seat is None:
            handed = game.last_change_of(user_id)
            if handed is not None:  # they did play it: why they no longer do (and the
                # way back, if any)
                back = Play.handed_while_away(game, user_id) \
                    if game.status is Status.PLAYING else None
                raise SeatHandedOnError(handed.away, None if back is None else back[0]) \
                    if game.status.open else GameOverError()
            raise NotPlayingError()
        return seat

    @staticmethod
    def handed_while_away(game: Game, user_id: int) -> tuple[int, SeatChange] | None:
        """The seat ``user_id`` may take back (:mod:`.returns`), with the change that took
        it from them: the seat's last change handed it from them to a computer while they
        were away, and that computer plays it still. None when there is none (whatever the
        game's status)."""
        if game.seat_of(user_id) is not None:
            return None
        for seat, change in game.last_changes().items():
            if change.left.user_id == user_id and change.away \
                    and 0 <= seat < len(game.players) and game.players[seat].is_computer:
                return seat, change
        return None

    def playing_seat(self, game: Game, user_id: int) -> int:
        """The seat of ``user_id`` in a match under way (:class:`NotPlayingError`,
        :class:`GameOverError`)."""
        seat = self.seat_of(game, user_id)
        if game.status is not Status.PLAYING or game.match is None:
            raise GameOverError()
        return seat

    def turn_of(self, game: Game, user_id: int) -> int:
        """The seat of ``user_id``, which must be the one to move: a tap on a hand out of
        turn is told whose turn it is, before whether its button is stale."""
        seat = self.playing_seat(game, user_id)
        assert game.match is not None
        to_move = game.match.to_move
        if to_move is not None and to_move != seat:
            raise NotYourTurnError(isolated(game.players[to_move].name))
        return seat

    def choosing(self, game: Game, user_id: int, move_no: int) -> PlayerView:
        """The view a player chooses their move in (which end, face down or not), from a
        button made at ``move_no``: refused as a tap would be."""
        seat = self.turn_of(game, user_id)
        if move_no != game.move_no:
            raise OutOfDateError()
        assert game.match is not None
        view = player_view(game.match, seat)
        if not view.my_turn:
            raise NotYourTurnError()
        return view

    async def tapped(
        self, game: Game, user_id: int, move_no: int, action: Action,
        accepted: Callable[[], Awaitable[None]] | None = None,
    ) -> list[Event]:
        """A move from a button of the player's hand: refused as :meth:`turn_of` says, then
        as :meth:`act` does; a second tap of the move the player has just made from the same
        button (a double tap) does nothing, and says nothing (player QA: "it is X's turn now"
        over the board read as the tap not counting)."""
        if self._made_already(game, user_id, move_no, action):
            return []
        self.turn_of(game, user_id)
        return await self.act(game, user_id, move_no, action, accepted)

    def _made_already(self, game: Game, user_id: int, move_no: int, action: Action) -> bool:
        """Whether the game's last move, made at ``move_no``, was ``action`` by the player's
        own seat (a button of an earlier turn is refused as out of date, whatever it was)."""
        match = game.match
        moves = match.hand.moves if match is not None else []
        return move_no == game.move_no - 1 and bool(moves) \
            and moves[-1] == (game.seat_of(user_id), action)

    async def act(
        self, game: Game, user_id: int, move_no: int, action: Action,
        accepted: Callable[[], Awaitable[None]] | None = None,
    ) -> list[Event]:
        """Apply a player's action from a button that was made at ``move_no``.

        Raises :class:`UserError` for a stale button, a seat that is not theirs, or a move
        the rules refuse; nothing changes then. ``accepted`` is awaited once the rules allow
        the move, before it is committed (the tap is answered then, not after the pictures).
        """
        match = game.match
        if game.status is not Status.PLAYING or match is None:
            raise GameOverError()
        seat = self.seat_of(game, user_id)
        if move_no != game.move_no:
            raise OutOfDateError()
        if match.to_move != seat:
            raise NotYourTurnError()
        if accepted is not None and match.can(seat, action):  # else the rules' refusal
            await accepted()
        return await self._play(game, seat, action, timed_out=False)

    async def expire(self, game: Game, move_no: int) -> list[Event]:
        """The turn made at ``move_no`` ran out of time: play the safe move for that seat.

        Does nothing (returns no events) if the turn is already over or not yet due.
        """
        match = game.match
        if (game.status is not Status.PLAYING or match is None or game.move_no != move_no
                or game.deadline is None or self.clock() < game.deadline - 0.5):
            return []
        seat = match.to_move
        assert seat is not None
        return await self._play(game, seat, safest_action(player_view(match, seat)),
                                timed_out=True)

    async def warn(self, game: Game, move_no: int) -> bool:
        """Mark the half-time warning of the turn made at ``move_no`` (once)."""
        if game.status is not Status.PLAYING or game.move_no != move_no or game.timer.warned:
            return False
        game.timer.warned = True
        try:
            await self.storage.save_timer(game)
        except BaseException:  # not stored: memory is not ahead of the database
            game.timer.warned = False
            raise
        self._changed(game)
        return True

    async def fresh_turn(self, game: Game) -> bool:
        """The game was brought back from a restored backup: its open turn's clock starts
        afresh now, with the whole turn time of the seat to move (:meth:`Game.turn_time`, as
        its hand message, sent anew, says) and its half-time warning still to come. The
        deadline the backup holds was set before it was made, and has mostly gone by while
        the bot was down and restored: that time is nobody's, so it is neither a time-out
        (an overdue turn's, :meth:`~bot.handlers.timers.Timers.resume`) nor counted towards
        being away. Stored, so that a restart later keeps it; the caller arms the timers.
        False, changing nothing, for a turn with no clock (no turn time, a computer's turn,
        no match under way)."""
        deadline = self._deadline(game)
        if game.deadline is None or deadline is None:
            return False
        before = game.deadline, game.timer.warned
        game.deadline, game.timer.warned = deadline, False
        try:
            await self.storage.save_turn_clock(game)
        except BaseException:  # not stored: memory is not ahead of the database
            game.deadline, game.timer.warned = before
            raise
        return True

    async def _play(self, game: Game, seat: int, action: Action, timed_out: bool) -> list[Event]:
        match = game.match
        assert match is not None
        previous = game.move_no
        where = f"{match.hand.number}:{len(match.hand.moves)}"
        try:
            events = match.apply(seat, action)
        except DominoError as exc:
            raise UserError(rule_message(exc)) from None
        async with self.undone_on_failure(game):  # (the move is in memory already)
            events, outgoing = self._settle(game, events)
            outgoing += await self._match_end(game, events)
            away = self._track_time(game, seat, where, timed_out)
            humans = [s for s, p in enumerate(game.players) if not p.is_computer]
            if timed_out and not match.over and all(s in game.timer.away for s in humans):
                # Nobody is left at the table: the match ends with no result (said instead of
                # "seems to be away", whose offer of a computer for the seat would come too late).
                game.status = Status.STOPPED
                outgoing += self.composer.stopped(game, "", await self._stop_ratings(game))
            else:
                outgoing = away + outgoing
            await self._commit(game, events, outgoing, previous)
            if self.on_move is not None:
                self.on_move(game)
        return events

    async def _match_end(self, game: Game, events: list[Event]) -> list[Outgoing]:
        """The match's result, with how it moves each player's rating on the group's board."""
        for event in events:
            if isinstance(event, MatchEnded):
                changes = await rating_changes(self.storage, game, event, self.clock())
                return self.composer.match_end(game, event, changes)
        return []

    def _track_time(self, game: Game, seat: int, where: str, timed_out: bool) -> list[Outgoing]:
        """Count time-outs in a row; the third marks the seat away and says so, as a move of
        the seat's own says that it is back."""
        timer = game.timer
        if not timed_out:
            timer.timeouts.pop(seat, None)
            if seat not in timer.away:
                return []
            timer.away.remove(seat)
            over = game.match is not None and game.match.over  # (its result says the rest)
            return [] if over else self.composer.back(game, seat)
        timer.auto_moves.append(where)
        timer.timeouts[seat] = timer.timeouts.get(seat, 0) + 1
        if timer.timeouts[seat] < AWAY_AFTER or seat in timer.away:
            return []
        timer.away.append(seat)
        return self.composer.away(game, seat)

    def _settle(self, game: Game, events: list[Event]) -> tuple[list[Event], list[Outgoing]]:
        """Announce, let the engine play the moves nobody decides (a knock when nothing fits, a
        draw when the stock must be used, a stuck seat's only tile put face down), deal the
        next hand: until a human must act.

        Announcements are composed as each hand ends, before the next deal replaces it.
        """
        match = game.match
        assert match is not None
        events = list(events)
        outgoing = self.composer.announcements(game, events)
        while not match.over:
            if match.hand.over:
                new = match.deal_from_seed(self.seed_source())
            else:
                new = match.play_forced()
                if not new:
                    break
            events += new
            outgoing += self.composer.announcements(game, new)
        return events, outgoing

    @staticmethod
    def _computer_to_move(game: Game, move_no: int) -> int | None:
        """The seat of the computer player whose turn it is at ``move_no``, if one is."""
        match = game.match
        if game.status is not Status.PLAYING or match is None or game.move_no != move_no:
            return None
        seat = match.to_move
        return seat if seat is not None and game.players[seat].is_computer else None

    def computer_question(self, game: Game, move_no: int) -> Question | None:
        """What the computer player whose turn it is (at ``move_no``) must decide, as plain
        data for the thinker; None when it is no computer's turn there."""
        seat = self._computer_to_move(game, move_no)
        if seat is None:
            return None
        level = game.players[seat].level
        assert game.match is not None and level is not None
        # The computer sees what a human in its seat would (the thinker builds its view).
        return Question.of(game.match, seat, level, f"{game.game_id}:{move_no}", move_no)

    async def computer_move(self, game: Game, question: Question, choice: int) -> list[Event]:
        """Play the thinker's ``choice`` (an index into the seat's legal actions) for
        ``question``, if the game is still where it was asked; else nothing."""
        seat = self._computer_to_move(game, question.move_no)
        if seat != question.seat or game.players[seat].level != question.level:
            return []
        assert game.match is not None
        legal = player_view(game.match, question.seat).legal
        if not 0 <= choice < len(legal):
            return []
        return await self._play(game, question.seat, legal[choice], timed_out=False)
