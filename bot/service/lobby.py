"""Lobbies: opening a table (or the same one again), who sits at it, whom the bot cannot
reach in private yet, and who asked to be told in private when a table opens (/notify)."""

from __future__ import annotations

import enum
from typing import Any

from engine import BadInputError, variant

from ..computers import computer
from ..errors import (
    OutOfDateError,
    PrivateChatClosedError,
    StorageError,
    SupersededError,
    UserError,
)
from ..gamebook import GAMES
from ..gamemessages import Messages
from ..i18n import N_, pick_language
from ..models import Game, Outgoing, Player, Status
from ..storage import Notice
from .chats import Chats
from .locks import Locks

#: Why a second table cannot open where one is (a lobby, or a game being played).
TABLE_OPEN = N_("A table is already open here: press Join on it, or its creator can cancel it.")
GAME_RUNNING = N_("A game is already running in this chat.")
GAME_RUNNING_TOPIC = N_("A game is already running in this topic.")
#: After "a game is already running", to one not playing it: how to hear of the next table
#: (player QA: a late guest's /newgame met a closed door, and nothing said what to do).
NEXT_TABLE = N_("Send /notify here, and I will tell you in private when the next table opens.")
NOTIFIED = N_("I will tell you in private when the next table opens here (you asked with "
              "/notify).")
#: The /start payloads of /notify's "open the private chat" button, sent in a group (or its
#: General topic) and in a topic: the chat opened, /start says where to send /notify again.
NOTIFY_LINKS = ("notify", "notifytopic")


def already_there(game: Game) -> str:
    """Why no table opens where ``game`` is (a msgid): its lobby, or a game being played in
    that chat, or in that forum topic."""
    if game.status is Status.LOBBY:
        return TABLE_OPEN
    return GAME_RUNNING if game.thread_id is None else GAME_RUNNING_TOPIC


class LobbyState(enum.Enum):
    """What a lobby waits for: players (or their Join), a private chat with one of them, or
    nothing (it can start)."""

    WAITING = "waiting"
    BLOCKED = "blocked"
    READY = "ready"


class Lobbies(Chats):
    """A table from its opening to its start."""

    async def open_table(
        self, chat_id: int, chat_title: str | None, creator: Player, creator_language: str | None,
        game_name: str, options: dict[str, object], thread_id: int | None = None,
    ) -> Game:
        """Open a table with the group's settings (``options`` win), in the forum topic
        ``thread_id`` if given, in the group's language; a group with none yet (see
        ``GroupSettings.auto_language``) is not given one by a table that may be cancelled:
        the table speaks that of another open in the group (a forum's topic), else its
        opener's, and gives it the group once started (:meth:`table_started`). Refusals
        are worded by the caller, in the group's language as the handlers read it
        (``bot.handlers.updates.group_tr``). The caller holds the chat's lock."""
        settings = await self.group_settings(chat_id)
        await self.storage.save_chat_title(chat_id, chat_title)
        merged = settings.game_options(game_name) | options
        language = settings.spoken or next(
            (game.language for game in self.open_games_in(chat_id)), None)
        try:
            return await self.create(chat_id, creator, game_name,
                                     language or pick_language(creator_language),
                                     merged, settings.turn_seconds, thread_id)
        except BadInputError:
            raise UserError(N_("Those options are not valid for this game.")) from None

    async def create(
        self, chat_id: int, creator: Player, game_name: str, language: str,
        options: dict[str, Any] | None = None, turn_seconds: int = 0,
        thread_id: int | None = None,
    ) -> Game:
        """Open a lobby in a chat, or in one topic of a forum (``thread_id``)."""
        existing = self.open_game_in(chat_id, thread_id)
        if existing is not None:  # another /newgame got here first: say what it opened
            raise UserError(already_there(existing))
        if game_name not in GAMES:
            raise UserError(N_("I don't know the game {game}."), game=game_name)
        options = dict(options or {})
        variant(game_name).lobby_options(options, 1)  # they fit some table of this game
        game = Game(0, chat_id, Status.LOBBY, game_name, options, creator.user_id,
                    [creator], None, 0, language, Messages(), turn_seconds,
                    thread_id=thread_id)
        await self._check_reach(game)
        # with a notice for each /notify subscriber, in the same transaction
        game.game_id = await self._insert(game, notify=True)
        self._remember(game)
        self._changed(game)
        return game

    async def notified(self, chat_id: int, thread_id: int | None, user_id: int) -> bool:
        """Whether the user hears of the topic's new tables (/notify)."""
        return await self.storage.subscribed(chat_id, thread_id, user_id)

    async def toggle_notify(self, chat_id: int, thread_id: int | None, user_id: int) -> bool:
        """/notify: the user is told in private of the topic's new tables from now on, or no
        longer if they were; whether they are now. Subscribing needs the private chat open
        (:class:`PrivateChatClosedError`); leaving never does."""
        if not await self.storage.subscribed(chat_id, thread_id, user_id):
            # the deep link says whether /notify is to be sent again in a topic
            await self.needs_private_chat(user_id, NOTIFY_LINKS[thread_id is not None])
        return await self.storage.toggle_subscription(chat_id, thread_id, user_id, self.clock())

    async def pending_notices(self, game_id: int) -> list[Notice]:
        """The lobby's notices committed and not sent yet."""
        return await self.storage.pending_notices(game_id)

    async def notices_done(self, notices: list[Notice]) -> None:
        await self.storage.notices_done(notices)

    async def subscriber_gone(self, user_id: int, locks: Locks) -> None:
        """The user blocked the bot: off every list, quietly, and unreachable for lobbies."""
        await self.storage.drop_subscriber(user_id)
        await self.private_chat_changed(user_id, False, locks)

    async def move_subscriptions(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its subscribers follow it."""
        await self.storage.move_subscriptions(old_chat_id, new_chat_id)

    async def rematch(self, old: Game, user: Player) -> Game:
        """A new table of the same game, options (house rules) and players, the seats turned
        one place so that the lead moves on; it speaks the group's language and takes its
        turn time as they are now (as /newgame's table does: /settings may have changed
        them since). ``user`` (one of its people) opens it; the others are
        seated but each confirms with a tap (Join), or leaves; its creator may go on without
        those who do not (:meth:`free_unconfirmed`). When the table is open already
        (another player tapped first), ``user`` takes their seat at it. Only the latest
        match of its place plays again: once another game opened there (and was not
        cancelled), its button is stale (:class:`SupersededError`)."""
        existing = self.open_game_in(old.chat_id, old.thread_id)
        rematch = existing is not None and self.is_rematch(existing, old)
        if existing is not None and rematch:
            await self._check_latest(old, existing)  # (before a link to the seat there)
        if old.status is not Status.FINISHED:
            raise OutOfDateError()
        if all(p.user_id != user.user_id for p in players_of(old)):
            # (before any link to the private chat: the same answer however the tap is timed)
            raise UserError(N_("Only the players of that match can start it again."))
        if existing is not None and rematch and existing.seat_of(user.user_id) is None:
            # Another player opened it first: this takes a seat there, as Join would, and
            # the hand goes to the private chat (a seat kept for the user is confirmed
            # whether or not it is open).
            await self.needs_private_chat(user.user_id, f"join{existing.game_id}")
        if existing is not None and not rematch:  # worded as /newgame words it
            raise UserError(already_there(existing))
        if existing is not None:  # (its rematch: another player opened it first)
            await self.join(existing, user)
            return existing
        await self._check_latest(old, None)
        settings = await self.group_settings(old.chat_id)
        seats = seated_again(old)
        left = old.last_change_of(user.user_id)
        if left is not None and seats[left.seat] is None:
            seats[left.seat] = user  # one who left opens it: back in the seat they had
        turned = seats[1:] + seats[:1]
        seated = [p for p in turned if p is not None]
        # The last match's hands with their Play again: the button goes once this starts.
        again = Messages(again_hands={
            player.user_id: old.messages.hands[seat].message_id
            for seat, player in enumerate(old.players)
            if not player.is_computer and seat in old.messages.hands})
        game = Game(0, old.chat_id, Status.LOBBY, old.game_name, dict(old.options), user.user_id,
                    [user if p.user_id == user.user_id else p for p in seated], None, 0,
                    settings.spoken or old.language, again, settings.turn_seconds,
                    pending=[p.user_id for p in seated
                             if not p.is_computer and p.user_id != user.user_id],
                    thread_id=old.thread_id)
        await self._check_reach(game)
        game.game_id = await self._insert(game)
        self._remember(game)
        self._changed(game)
        return game

    async def _check_latest(self, old: Game, rematch: Game | None) -> None:
        """Refuse ``old``'s "Play again" once a game newer than it opened in its place, but
        for ``rematch``, the table its "Play again" opened (:class:`SupersededError`). A
        cancelled table does not count: nobody played it, and it holds the place no more."""
        since = await self.storage.games_since(old.chat_id, old.thread_id, old.game_id)
        if any(rematch is None or game_id != rematch.game_id for game_id in since):
            raise SupersededError()

    async def _insert(self, game: Game, notify: bool = False) -> int:
        """Store a new lobby; its id. Refused as a table open there when the database has an
        open game in its place that memory had not: a fleet's game that came from another
        worker and is not read yet (:meth:`read_open_game` reads it, and the bot runs it)."""
        try:
            return await self.storage.insert_game(game, self.clock(), notify=notify)
        except StorageError:
            raise  # (the database lost, or the update handled by another worker)
        except Exception:  # the engine's own unique violation, whichever engine
            there = await self.read_open_game(game.chat_id, game.thread_id)
            if there is None:
                raise
        raise UserError(already_there(there))

    @staticmethod
    def is_rematch(lobby: Game, old: Game) -> bool:
        """Whether ``lobby`` is the table "Play again" opens for ``old``: its game and
        options, still waiting to start, opened by one of its players (not a stranger's
        /newgame that happens to match an old result's button)."""
        return (lobby.status is Status.LOBBY and lobby.game_name == old.game_name
                and lobby.options == old.options
                and any(p.user_id == lobby.creator_id for p in players_of(old)))

    async def take_seat(self, game: Game, player: Player) -> None:
        """The lobby's Join: the hand will go to the player's private chat, so it must be open
        first (:class:`PrivateChatClosedError`, whose link's /start takes the seat); then as
        :meth:`join`."""
        self._may_join(game, player)  # (a full table is said before a link to the chat)
        await self.needs_private_chat(player.user_id, f"join{game.game_id}")
        await self.join(game, player)

    async def needs_private_chat(self, user_id: int, payload: str) -> None:
        """Raise :class:`PrivateChatClosedError` (its link's start parameter: ``payload``)
        unless the bot can write to ``user_id`` in private."""
        if not await self.storage.private_ok(user_id):
            raise PrivateChatClosedError(payload)

    def _may_join(self, game: Game, player: Player) -> bool:
        """Raise :class:`UserError` unless ``player`` may take a seat at the lobby; whether
        they confirm the one a rematch kept for them."""
        self._lobby(game)
        confirming = player.user_id in game.pending
        if not confirming and game.seat_of(player.user_id) is not None:
            raise UserError(N_("You are already in this game."))
        if not confirming and len(game.players) >= max(game.seat_counts):
            if game.pending:  # a rematch's seats kept for its players (Indonesian QA)
                raise UserError(N_("This table is full: its seats are kept for the last "
                                   "match's players."))
            if any(p.is_computer for p in game.players):  # (QA: nothing said room can be made)
                raise UserError(N_("This game is full: its creator can remove a computer "
                                   "player to make room for you."))
            raise UserError(N_("This game is full."))
        return confirming

    async def join(self, game: Game, player: Player) -> None:
        """``player`` takes a seat, or confirms the one a rematch kept for them."""
        confirming = self._may_join(game, player)
        was = self._lobby_state(game)
        async with self.undone_on_failure(game):
            if confirming:
                game.pending.remove(player.user_id)
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
        player = computer(level, {p.user_id for p in game.players},
                          self.computers_elsewhere(game))
        was = self._lobby_state(game)
        async with self.undone_on_failure(game):
            game.players.append(player)
            await self._save_players(game, self._lobby_notices(game, was))
        return player

    @staticmethod
    def _lobby_state(game: Game) -> LobbyState:
        if len(game.players) < min(game.seat_counts) or game.pending:
            return LobbyState.WAITING
        return LobbyState.BLOCKED if game.unreachable_players else LobbyState.READY

    def _lobby_notices(self, game: Game, was: LobbyState) -> list[Outgoing]:
        """When the table becomes ready, its creator is called to start, once; when it has
        its players but cannot start because one has no private chat with the bot, they are
        called to open it (a new message notifies them, an edited lobby does not)."""
        now = self._lobby_state(game)
        if now is was:
            return []
        if now is LobbyState.READY:
            return self.composer.ready(game)
        return self.composer.private_chats_needed(game) if now is LobbyState.BLOCKED else []

    async def private_chat_changed(self, user_id: int, is_open: bool, locks: Locks) -> None:
        """The user blocked the bot in private, or unblocked it."""
        await self.storage.set_private_ok(user_id, is_open)
        await self.reach_changed_everywhere(user_id, locks)

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
        was, before = self._lobby_state(game), list(game.unreachable_ids)
        async with self.undone_on_failure(game):
            await self._check_reach(game)
            if game.unreachable_ids != before:
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
                async with self.undone_on_failure(game):
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
        async with self.undone_on_failure(game):
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
        async with self.undone_on_failure(game):
            del game.players[seat]
            if user_id in game.pending:
                game.pending.remove(user_id)
            await self._save_players(game, self._lobby_notices(game, was))

    async def free_unconfirmed(self, game: Game, user_id: int) -> list[Player]:
        """The creator of a rematch goes on without the players who have not confirmed their
        seats (away, or gone to bed): otherwise the table waits for them for ever. Their
        seats are empty again, for anyone to Join (they too, while one is free) or for a
        computer player; the players freed, in seat order."""
        self._lobby(game)
        if user_id != game.creator_id:
            raise UserError(N_("Only the player who created the game can free seats."))
        freed = [p for p in game.players if p.user_id in game.pending]
        if not freed:  # they all confirmed since the button was drawn
            raise UserError(N_("Everyone has confirmed: there is no seat to free."))
        was = self._lobby_state(game)
        async with self.undone_on_failure(game):
            game.players[:] = [p for p in game.players if p.user_id not in game.pending]
            game.pending.clear()
            await self._check_reach(game)  # the freed players' marks go with them
            await self._save_players(game, self._lobby_notices(game, was))
        return freed

    @staticmethod
    def check_may_cancel(game: Game, user_id: int, is_admin: bool) -> None:
        """Raise :class:`UserError` unless ``user_id`` may close ``game``'s lobby: its creator
        or an admin of its group."""
        if user_id != game.creator_id and not is_admin:
            raise UserError(N_("Only the player who created the game can cancel it."))

    async def cancel(self, game: Game, user_id: int, is_admin: bool) -> None:
        self._lobby(game)
        self.check_may_cancel(game, user_id, is_admin)
        # its calls to start not sent yet go with it (a lobby queues nothing else)
        await self._set_status(game, Status.CANCELLED, drop_outbox=True)


def seated_again(old: Game) -> list[Player | None]:
    """Who "Play again" seats, seat by seat: the match's players, where a computer stood in
    for someone who was away the person it stood in for (the group did not choose that
    computer, and the person did not leave); a computer the group seated stays. The seat of
    one who left (/leave) is open (None): its stand-in was not the group's choice either, and
    the computers that stood in filled the rematch, leaving no room for people (QA). Each
    seat as its last change left it (a player who took their seat back and then left it is
    gone)."""
    changes = old.last_changes()
    seats: list[Player | None] = []
    for seat, player in enumerate(old.players):
        change = changes.get(seat)
        if not player.is_computer or change is None or change.left.is_computer:
            seats.append(player)  # (a computer that gave a seat back left a person in it)
        else:
            seats.append(change.left if change.away else None)
    return seats


def players_of(old: Game) -> list[Player]:
    """The people who may open ``old``'s rematch or take a seat there by its "Play again":
    those it seats again, and those who left the match with /leave (their seat is open)."""
    seated = [p for p in seated_again(old) if p is not None and not p.is_computer]
    gone = [change.left for change in old.last_changes().values()
            if not change.away and not change.left.is_computer
            and old.seat_of(change.left.user_id) is None]
    return seated + [p for p in gone if all(p.user_id != q.user_id for q in seated)]
