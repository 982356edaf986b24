"""The game service: lobbies, seats, moves and their persistence, with no Telegram in sight.

Handlers decode an update and call one method here; it decides who may do what, checks,
applies, commits (with what must be announced, in the same transaction), and returns. Sending
is the publisher's job; SQL is the storage layer's.
"""

from __future__ import annotations

import enum
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from engine import (
    DRAW,
    KNOCK,
    Action,
    BadInputError,
    DominoError,
    Event,
    Match,
    MatchEnded,
    player_view,
    variant,
)
from engine.ai import safest_action

from .errors import UserError
from .gamebook import GAMES
from .i18n import N_
from .locks import Locks
from .models import (
    AWAY_AFTER,
    REPLACEMENT_LEVEL,
    Composer,
    Drawing,
    Game,
    Messages,
    Outgoing,
    Player,
    SeatChange,
    Status,
    computer,
    move_number,
)
from .refusals import rule_message
from .stats import rating_changes
from .storage import StaleMoveError, Storage
from .thinker import Question

log = logging.getLogger(__name__)


class LobbyState(enum.Enum):
    """What a lobby waits for: players (or their Join), a private chat with one of them, or
    nothing (it can start)."""

    WAITING = "waiting"
    BLOCKED = "blocked"
    READY = "ready"


class GameService:
    """Every change to a game goes through here, one transaction per accepted request."""

    def __init__(
        self,
        storage: Storage,
        composer: Composer,
        seed_source: Callable[[], int] = lambda: secrets.randbits(64),
        clock: Callable[[], float] = time.time,
        on_change: Callable[[Game], None] | None = None,
        draw: Callable[[Drawing], Awaitable[bytes]] | None = None,
    ) -> None:
        self.on_change = on_change
        # Pictures of announcements are drawn by ``draw`` (off the event loop) before they are
        # committed with their move; without it, here and now.
        self.draw = draw
        self.storage = storage
        self.composer = composer
        self.seed_source = seed_source
        self.clock = clock
        self._by_id: dict[int, Game] = {}
        # One open game per place: a chat, or a topic of a forum (thread None: General)
        self._open_by_place: dict[tuple[int, int | None], int] = {}

    # --- loading -----------------------------------------------------------------------
    # Memory holds the open games (lobbies, matches under way) and the finished ones the
    # publisher is still bringing up to date; a finished game leaves when it is done
    # (`release`) and is read back from the database when someone asks for it (`find`).
    async def load_open_games(self) -> list[Game]:
        games = await self.storage.open_games()
        for game in games:
            await self._check_reach(game)
            self._remember(game)
        return games

    async def reload(self, game_id: int) -> Game | None:
        """Read a game again from the database, into the same object when memory has one.

        Keeping the object means a tap or timer already holding it (waiting for the game's
        lock) sees the committed state, never a move that failed half-way.
        """
        fresh = await self.storage.load_game(game_id)
        for place, gid in list(self._open_by_place.items()):
            if gid == game_id:
                del self._open_by_place[place]
        if fresh is None:
            self._by_id.pop(game_id, None)
            return None
        game = self._by_id.get(game_id)
        if game is None:
            game = fresh
        else:
            for name in Game.__slots__:
                if name != "messages":  # what Telegram shows: memory is never behind it
                    setattr(game, name, getattr(fresh, name))
        await self._check_reach(game)
        self._remember(game)
        return game

    async def find(self, game_id: int) -> Game | None:
        """Any game by its id: from memory, else read from the database (a finished game a
        button still names: "Play again", a stray tap). What is read so stays out of
        memory unless it is open."""
        game = self._by_id.get(game_id)
        if game is not None:
            return game
        game = await self.storage.load_game(game_id)
        if game is None:
            return None
        if game.status.open:  # (memory always has the open ones: only if a reload dropped it)
            return self._by_id.setdefault(game_id, game)
        return self._by_id.get(game_id, game)  # another reader may have held it meanwhile

    async def hold(self, game_id: int) -> Game | None:
        """The game, kept in memory (read back if it had left) until :meth:`release`: one
        object for everybody who brings its messages up to date."""
        game = await self.find(game_id)
        if game is not None and game_id not in self._by_id:
            self._by_id[game_id] = game
        return game

    def release(self, game_id: int) -> None:
        """Nobody works on the game any more: a finished one leaves memory (open ones stay)."""
        game = self._by_id.get(game_id)
        if game is not None and not game.status.open:
            del self._by_id[game_id]

    def _changed(self, game: Game) -> None:
        """Tell the bot (publisher, timers) that a game changed; it has been committed."""
        if self.on_change is not None:
            self.on_change(game)

    def _remember(self, game: Game) -> None:
        self._by_id[game.game_id] = game
        for place, gid in list(self._open_by_place.items()):
            if gid == game.game_id:
                del self._open_by_place[place]  # closed, or moved out of its topic
        if game.status.open:
            self._open_by_place[game.chat_id, game.thread_id] = game.game_id

    def game(self, game_id: int) -> Game | None:
        """A game in memory: an open one, or a finished one still being published."""
        return self._by_id.get(game_id)

    def open_game_in(self, chat_id: int, thread_id: int | None = None) -> Game | None:
        """The open game of a chat, or of one topic of a forum (None: its General topic)."""
        game_id = self._open_by_place.get((chat_id, thread_id))
        return self._by_id.get(game_id) if game_id is not None else None

    def open_games_in(self, chat_id: int) -> list[Game]:
        """Every open game of a chat, whatever its topic."""
        return [g for g in self.open_games() if g.chat_id == chat_id]

    async def last_game_in(self, chat_id: int, thread_id: int | None = None) -> Game | None:
        """The newest game of a chat (or topic), open or not."""
        game_id = await self.storage.last_game_id(chat_id, thread_id)
        return None if game_id is None else await self.find(game_id)

    def open_games(self) -> list[Game]:
        return [g for g in self._by_id.values() if g.status.open]

    def games_of_user(self, user_id: int) -> list[Game]:
        return [g for g in self.open_games() if g.seat_of(user_id) is not None]

    # --- lobby -------------------------------------------------------------------------
    async def create(
        self, chat_id: int, creator: Player, game_name: str, language: str,
        options: dict[str, Any] | None = None, turn_seconds: int = 0,
        thread_id: int | None = None,
    ) -> Game:
        """Open a lobby in a chat, or in one topic of a forum (``thread_id``)."""
        if self.open_game_in(chat_id, thread_id) is not None:
            raise UserError(N_("A game is already running in this chat."))
        if game_name not in GAMES:
            raise UserError(N_("I don't know the game {game}."), game=game_name)
        options = dict(options or {})
        variant(game_name).lobby_options(options, 1)  # they fit some table of this game
        game = Game(0, chat_id, Status.LOBBY, game_name, options, creator.user_id,
                    [creator], None, 0, language, Messages(), turn_seconds,
                    thread_id=thread_id)
        await self._check_reach(game)
        game.game_id = await self.storage.insert_game(game, self.clock())
        self._remember(game)
        self._changed(game)
        return game

    async def rematch(self, old: Game, user: Player) -> Game:
        """A new table of the same game, options, turn time and players, the seats turned one
        place so that the lead moves on. ``user`` (one of its people) opens it; the others are
        seated but each confirms with a tap (Join), or leaves. When the table is open already
        (another player tapped first), ``user`` takes their seat at it."""
        if old.status is not Status.FINISHED:
            raise UserError(N_("That button is out of date."))
        if old.seat_of(user.user_id) is None or old.players[old.seat_of(user.user_id) or 0] \
                .is_computer:
            raise UserError(N_("Only the players of that match can start it again."))
        existing = self.open_game_in(old.chat_id, old.thread_id)
        if existing is not None and self.is_rematch(existing, old):
            await self.join(existing, user)
            return existing
        if existing is not None:
            raise UserError(N_(
                "A table is already open here: press Join on it, or its creator can cancel it."))
        seated = old.players[1:] + old.players[:1]
        game = Game(0, old.chat_id, Status.LOBBY, old.variant, dict(old.options), user.user_id,
                    [user if p.user_id == user.user_id else p for p in seated], None, 0,
                    old.language, Messages(), old.turn_seconds,
                    pending=[p.user_id for p in seated
                             if not p.is_computer and p.user_id != user.user_id],
                    thread_id=old.thread_id)
        await self._check_reach(game)
        game.game_id = await self.storage.insert_game(game, self.clock())
        self._remember(game)
        self._changed(game)
        return game

    @staticmethod
    def is_rematch(lobby: Game, old: Game) -> bool:
        """Whether ``lobby`` is the table "Play again" opens for ``old``: its game and
        options, still waiting to start, opened by one of its players (not a stranger's
        /newgame that happens to match an old result's button)."""
        return (lobby.status is Status.LOBBY and lobby.variant == old.variant
                and lobby.options == old.options and old.seat_of(lobby.creator_id) is not None)

    def _lobby(self, game: Game) -> None:
        if game.status is not Status.LOBBY:
            raise UserError(N_("This game has already started."))

    async def join(self, game: Game, player: Player) -> None:
        self._lobby(game)
        was = self._lobby_state(game)
        if player.user_id in game.pending:  # a rematch's player confirms their seat
            game.pending.remove(player.user_id)
        elif game.seat_of(player.user_id) is not None:
            raise UserError(N_("You are already in this game."))
        elif len(game.players) >= max(game.seat_counts):
            raise UserError(N_("This game is full."))
        else:
            game.players.append(player)
        await self._check_reach(game)
        await self._save_players(game, self._lobby_notices(game, was))

    async def add_computer(self, game: Game, user_id: int, level: str) -> Player:
        """The creator seats a computer player of ``level``."""
        self._lobby(game)
        if user_id != game.creator_id:
            raise UserError(N_("Only the player who created the game can add computer players."))
        if len(game.players) >= max(game.seat_counts):
            raise UserError(N_("This game is full."))
        player = computer(level, {p.user_id for p in game.players})
        was = self._lobby_state(game)
        game.players.append(player)
        await self._save_players(game, self._lobby_notices(game, was))
        return player

    @staticmethod
    def _lobby_state(game: Game) -> LobbyState:
        if len(game.players) < min(game.seat_counts) or game.pending:
            return LobbyState.WAITING
        return LobbyState.BLOCKED if game.cut_off else LobbyState.READY

    def _lobby_notices(self, game: Game, was: LobbyState) -> list[Outgoing]:
        """When the table becomes ready, its creator is called to start, once; when it has
        its players but cannot start because one has no private chat with the bot, they are
        called to open it (a new message notifies them, an edited lobby does not)."""
        now = self._lobby_state(game)
        if now is was:
            return []
        if now is LobbyState.READY:
            return self.composer.ready(game)
        return self.composer.unreachable(game) if now is LobbyState.BLOCKED else []

    async def _check_reach(self, game: Game) -> None:
        """Read which of a lobby's people the bot cannot write to in private."""
        if game.status is Status.LOBBY:
            game.unreachable = [p.user_id for p in game.players if not p.is_computer
                                and not await self.storage.private_ok(p.user_id)]

    async def reach_changed_everywhere(self, user_id: int, locks: Locks) -> None:
        """The user's private chat opened or closed (a /start, a block, a hand that bounced):
        every lobby they sit at says so."""
        for game in self.games_of_user(user_id):
            async with locks.game(game.game_id):
                await self.reach_changed(game, user_id)

    async def reach_changed(self, game: Game, user_id: int) -> None:
        """A player of the lobby opened their private chat with the bot, or blocked it."""
        if game.status is not Status.LOBBY or game.seat_of(user_id) is None:
            return
        was, before = self._lobby_state(game), list(game.unreachable)
        await self._check_reach(game)
        if game.unreachable != before:
            await self._save_players(game, self._lobby_notices(game, was))

    async def remove_computer(self, game: Game, user_id: int) -> None:
        """The creator takes the last computer player off the table."""
        self._lobby(game)
        if user_id != game.creator_id:
            raise UserError(N_("Only the player who created the game can take computer players "
                               "off."))
        for seat in range(len(game.players) - 1, -1, -1):
            if game.players[seat].is_computer:
                was = self._lobby_state(game)
                del game.players[seat]
                await self._save_players(game, self._lobby_notices(game, was))
                return
        raise UserError(N_("There is no computer player at this table."))

    async def other_pairs(self, game: Game, user_id: int) -> None:
        """The creator pairs the seated players the next way: the first seat keeps its place
        and the others turn, which goes through every pairing of four in three taps."""
        self._lobby(game)
        if user_id != game.creator_id:
            raise UserError(N_("Only the player who created the game can change the pairs."))
        if not game.partnerships:
            raise UserError(N_("This game has no pairs."))
        game.players[1:] = game.players[2:] + game.players[1:2]
        await self._save_players(game)

    async def leave(self, game: Game, user_id: int) -> None:
        self._lobby(game)
        seat = game.seat_of(user_id)
        if seat is None:
            raise UserError(N_("You are not in this game."))
        if user_id == game.creator_id:
            raise UserError(N_("You created this game: cancel it instead."))
        was = self._lobby_state(game)
        del game.players[seat]
        if user_id in game.pending:
            game.pending.remove(user_id)
        await self._save_players(game, self._lobby_notices(game, was))

    async def _save_players(self, game: Game, outgoing: list[Outgoing] | None = None) -> None:
        await self.storage.save_players(game, outgoing or [], self.clock())
        self._changed(game)

    async def cancel(self, game: Game, user_id: int, is_admin: bool) -> None:
        self._lobby(game)
        if user_id != game.creator_id and not is_admin:
            raise UserError(N_("Only the player who created the game can cancel it."))
        await self._set_status(game, Status.CANCELLED)

    async def start(self, game: Game, user_id: int) -> list[Event]:
        self._lobby(game)
        if user_id != game.creator_id:
            raise UserError(N_("Only the player who created the game can start it."))
        if len(game.players) not in game.seat_counts:
            low, high = min(game.seat_counts), max(game.seat_counts)
            if low == high:
                raise UserError(N_("The game needs {count} players."), count=low)
            raise UserError(N_("The game needs {low} to {high} players."), low=low, high=high)
        if game.pending:
            raise UserError(N_("Waiting for {names} to confirm with Join."), names=", ".join(
                p.name for p in game.players if p.user_id in game.pending))
        before = list(game.unreachable)
        await self._check_reach(game)  # as it is now: a chat may have opened or bounced
        if game.cut_off:
            if game.unreachable != before:
                self._changed(game)  # the lobby shows who it waits for
            raise UserError(N_("Waiting for {names} to open a private chat with me."),
                            names=", ".join(p.name for p in game.cut_off))
        try:
            match = Match(game.variant, len(game.players), game.options)
        except BadInputError:
            raise UserError(N_("These options do not fit a table of {count} players."),
                            count=len(game.players)) from None
        game.match = match
        events, outgoing = self._settle(game, match.deal_hand(random.Random(self.seed_source())))
        game.status = Status.PLAYING
        try:
            await self._commit(game, events, outgoing, previous_move_no=0)
        except BaseException:
            await self.reload(game.game_id)
            raise
        return events

    # --- play --------------------------------------------------------------------------
    async def act(self, game: Game, user_id: int, move_no: int, action: Action) -> list[Event]:
        """Apply a player's action from a button that was made at ``move_no``.

        Raises :class:`UserError` for a stale button, a seat that is not theirs, or a move
        the rules refuse; nothing changes then.
        """
        match = game.match
        if game.status is not Status.PLAYING or match is None:
            raise UserError(N_("This game is over."))
        seat = game.seat_of(user_id)
        if seat is None:
            raise UserError(N_("You are not playing in this game."))
        if move_no != game.move_no:
            raise UserError(N_("That button is out of date."))
        if match.to_move != seat:
            raise UserError(N_("It is not your turn."))
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
        await self.storage.save_timer(game)
        self._changed(game)
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
        try:
            events, outgoing = self._settle(game, events)
            outgoing += await self._match_end(game, events)
            outgoing = self._track_time(game, seat, where, timed_out) + outgoing
            humans = [s for s, p in enumerate(game.players) if not p.is_computer]
            if timed_out and not match.over and all(s in game.timer.away for s in humans):
                # Nobody is left at the table: the match ends with no result.
                game.status = Status.STOPPED
                outgoing += self.composer.stopped(game, "")
            await self._commit(game, events, outgoing, previous)
        except BaseException:
            await self.reload(game.game_id)  # memory ran ahead of the database: drop it
            raise
        return events

    async def _match_end(self, game: Game, events: list[Event]) -> list[Outgoing]:
        """The match's result, with how it moves each player's rating on the group's board."""
        for event in events:
            if isinstance(event, MatchEnded):
                changes = await rating_changes(self.storage, game, event, self.clock())
                return self.composer.match_end(game, event, changes)
        return []

    def _track_time(self, game: Game, seat: int, where: str, timed_out: bool) -> list[Outgoing]:
        """Count time-outs in a row; the third marks the seat away and says so."""
        timer = game.timer
        if not timed_out:
            timer.timeouts.pop(seat, None)
            if seat in timer.away:
                timer.away.remove(seat)
            return []
        timer.auto_moves.append(where)
        timer.timeouts[seat] = timer.timeouts.get(seat, 0) + 1
        if timer.timeouts[seat] < AWAY_AFTER or seat in timer.away:
            return []
        timer.away.append(seat)
        return self.composer.away(game, seat)

    def _settle(self, game: Game, events: list[Event]) -> tuple[list[Event], list[Outgoing]]:
        """Announce, knock for stuck players, deal the next hand: until a human must act.

        Announcements are composed as each hand ends, before the next deal replaces it.
        """
        match = game.match
        assert match is not None
        events = list(events)
        outgoing = self.composer.announcements(game, events)
        while not match.over:
            if match.hand.over:
                new = match.deal_hand(random.Random(self.seed_source()))
            else:
                new = self._auto_moves(match)
                if not new:
                    break
            events += new
            outgoing += self.composer.announcements(game, new)
        return events, outgoing

    @staticmethod
    def _auto_moves(match: Match) -> list[Event]:
        """The moves a player has no choice in: a knock, a draw from the stock (the drawn
        tiles reach the player in their hand message, never the group)."""
        events: list[Event] = []
        while not match.hand.over and match.legal_actions() in ((KNOCK,), (DRAW,)):
            seat = match.to_move
            assert seat is not None
            events += match.apply(seat, match.legal_actions()[0])
        return events

    @staticmethod
    def check_may_stop(game: Game, user_id: int, is_admin: bool) -> None:
        """Raise :class:`UserError` unless ``user_id`` may stop ``game``: its creator or an
        admin of its group, while it is open."""
        if not game.status.open:
            raise UserError(N_("This game is over."))
        if user_id != game.creator_id and not is_admin:
            raise UserError(N_("Only the game's creator or a group admin can stop it."))

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
        await self._set_status(game, Status.STOPPED, self.composer.stopped(game, by))

    async def abandon(self, game: Game) -> None:
        """The bot can no longer reach the group: no result, and nothing left to send."""
        await self._set_status(game, Status.STOPPED, drop_outbox=True)

    async def topic_gone(self, game: Game, thread_id: int, deleted: bool) -> bool:
        """The game's topic was closed or deleted: the game ends with no result, its last
        words go to the General topic instead, and its messages in the topic are forgotten.
        False when that was already done (or the game has moved on)."""
        if not game.status.open or game.thread_id != thread_id:
            return False
        status = Status.STOPPED if game.status is Status.PLAYING else Status.CANCELLED
        game.thread_id = None
        game.messages.lobby = game.messages.table = None
        game.messages.topic_gone = True
        try:
            await self._set_status(game, status, self.composer.topic_gone(game, deleted),
                                   drop_outbox=True)
        except BaseException:
            await self.reload(game.game_id)
            raise
        return True

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
        return await self._hand_over(game, seat, REPLACEMENT_LEVEL)

    @staticmethod
    def check_asked(game: Game, user_id: int, asked_seat: int) -> None:
        """A question asked of the player in ``asked_seat`` is answered by them alone."""
        if game.seat_of(user_id) != asked_seat:
            raise UserError(N_("This question is for another player."))

    async def replace_away(
        self, game: Game, user_id: int, is_admin: bool, seat: int, level: str = REPLACEMENT_LEVEL
    ) -> Player:
        """The creator or an admin hands the seat of an away player to a computer player.

        Valid only while the offer holds: the game is on and that seat's player is away (three
        time-outs in a row, and no move of their own since), whatever button asked for it.
        """
        if game.status is not Status.PLAYING:
            raise UserError(N_("This game is over."))
        if user_id != game.creator_id and not is_admin:
            raise UserError(N_("Only the game's creator or a group admin can do that."))
        if seat not in game.timer.away:
            raise UserError(N_("That player is at the table and plays on."))
        return await self._hand_over(game, seat, level)

    async def _hand_over(self, game: Game, seat: int, level: str) -> Player:
        """Hand ``seat`` to a computer player of ``level`` and say so in the group."""
        if game.status is not Status.PLAYING or not 0 <= seat < len(game.players):
            raise UserError(N_("This game is over."))
        leaving = game.players[seat]
        if leaving.is_computer:
            raise UserError(N_("A computer player already plays that seat."))
        newcomer = computer(level, {p.user_id for p in game.players})
        assert game.match is not None
        hand = game.match.hand
        game.seat_changes.append(SeatChange(seat, hand.number, len(hand.moves), leaving))
        game.players[seat] = newcomer
        game.timer.timeouts.pop(seat, None)
        if seat in game.timer.away:
            game.timer.away.remove(seat)
        game.deadline = self._deadline(game)
        try:
            await self.storage.save_seats(game, self.composer.replaced(game, leaving, newcomer),
                                          self.clock())
        except BaseException:
            await self.reload(game.game_id)  # memory ran ahead of the database: drop it
            raise
        self._changed(game)
        return newcomer

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

    def _deadline(self, game: Game) -> float | None:
        """A human seat to move gets the group's turn time; computers need no clock."""
        match = game.match
        if (game.status is not Status.PLAYING or game.turn_seconds <= 0 or match is None
                or match.to_move is None or game.players[match.to_move].is_computer):
            return None
        return self.clock() + game.turn_seconds

    async def _set_status(
        self, game: Game, status: Status, outgoing: list[Outgoing] | None = None,
        drop_outbox: bool = False,
    ) -> None:
        await self.storage.save_status(game, status, outgoing or [], self.clock(), drop_outbox)
        game.status = status  # only once it is committed: memory never runs ahead
        game.deadline = None
        self._remember(game)
        self._changed(game)

    async def _commit(
        self, game: Game, events: list[Event], outgoing: list[Outgoing], previous_move_no: int
    ) -> None:
        """Write the match, its results and its announcements in one transaction."""
        match = game.match
        assert match is not None
        if match.over and game.status is Status.PLAYING:
            game.status = Status.FINISHED
        move_no, deadline = move_number(match), self._deadline(game)
        game.timer.warned = False
        outgoing = [await self._drawn(item) for item in outgoing]
        try:
            await self.storage.commit_move(game, previous_move_no, move_no, deadline, events,
                                           outgoing, self.clock())
        except StaleMoveError:
            raise UserError(N_("That button is out of date.")) from None
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

    async def save_messages(self, game: Game) -> None:
        await self.storage.save_messages(game)

    async def asked(self, game_id: int, message_id: int) -> None:
        """A /stop or /leave question was posted: it is closed when the game ends (at once
        when it ended while the question was on its way)."""
        game = await self.hold(game_id)
        if game is None:
            return
        game.messages.questions.append(message_id)
        await self.storage.save_messages(game)
        if not game.status.open:  # ended meanwhile: the sync closes it now (a running game's
            self._changed(game)   # timers are left alone: a computer's move is not re-armed)

    async def answered(self, game: Game, message_id: int) -> None:
        """A question was answered (and taken away): nothing is left to close there."""
        if message_id in game.messages.questions:
            game.messages.questions.remove(message_id)
            await self.storage.save_messages(game)

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        await self.storage.migrate_chat(old_chat_id, new_chat_id)
        for game in list(self._by_id.values()):
            if game.chat_id == old_chat_id:
                game.chat_id = new_chat_id
                self._remember(game)
                self._changed(game)
