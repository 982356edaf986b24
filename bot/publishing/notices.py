"""The /notify notices: once a lobby's message is posted in its group, each subscriber its
opening committed a notice for is told in private, in their language, with the deep link
that seats them; so is each player a rematch's lobby waits for (Play again), that their
seat is kept.

The publisher calls :meth:`Notices.after_group_sync` after each sync of a game's group
channel, so every path that opens a table (/newgame, the game picker, a restart that finds
notices a stop left unsent) sends them, and the group's lobby always goes first. A game's
notices are read once per run (a lobby's opening commits all it will ever have); they go
through the bot's flood limiter like any message, and together take at most
:data:`NOTICE_SHARE` of the overall budget, so that a busy group's 200 notices never hold
back every other group's lobby and table and every player's hand.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from ..background import held
from ..i18n import private_language, translator
from ..logs import bind
from ..models import Game, Status
from ..presentation import lobbytexts
from ..presentation.keyboards import deep_link
from ..service import GameService
from ..service.locks import Locks
from ..storage import Notice
from .fleetshares import context_for_game
from .messenger import Messenger
from .ratelimit import FloodLimiter, StoppingError

log = logging.getLogger(__name__)

#: Of Telegram's overall budget a second, the share notices may take: the rest is left to
#: every group's lobby and table and every player's hand (at 30 a second: 20 notices in any
#: second, a group's 200 in about 10 s).
NOTICE_SHARE = 2 / 3
#: How long a notice keeps its share after its answer: the overall window, in which
#: Telegram may count it.
NOTICE_WINDOW = 1.0
#: The overall budget a second when the bot has no limiter (Telegram's own).
OVERALL_PER_SECOND = 30


class Notices:
    """Sends each lobby's committed notices, once its group message is up."""

    def __init__(self, messenger: Messenger, service: GameService, locks: Locks,
                 limiter: FloodLimiter | None,
                 request: Callable[[int], None] | None = None) -> None:
        self.messenger = messenger  # its bot, and its username for the deep links
        self.service = service
        self.locks = locks
        self._request = request  # the publisher's: sync a game soon
        count, period = limiter.limits.overall if limiter else (OVERALL_PER_SECOND, 1.0)
        self._at_once = asyncio.Semaphore(max(1, int(count / period * NOTICE_SHARE)))
        self._read: set[int] = set()  # games whose notices this run has read
        self._tasks: set[asyncio.Task[None]] = set()

    def after_group_sync(self, game_id: int) -> None:
        """The game's group channel is up to date: once its lobby is posted (or the game is
        past its lobby), its notices go, in the background."""
        game = self.service.game(game_id)
        if game is None or game_id in self._read or (
                game.status is Status.LOBBY and game.messages.lobby is None):
            return
        self._read.add(game_id)
        # A context of its own: not the sync's no-retries (a 429 waits here, as any message
        # does) nor the fence of the update that opened the lobby; its calls are made for
        # the game (refused once a fleet worker let it go).
        self._start(self._deliver(game_id), f"notices-{game_id}", context_for_game(game_id))

    def forget(self, game_id: int) -> None:
        """The game left memory: nothing of it is kept."""
        self._read.discard(game_id)

    @property
    def tasks(self) -> set[asyncio.Task[None]]:
        """The deliveries running (the publisher's idle waits for them)."""
        return self._tasks

    def _start(self, work: Coroutine[Any, Any, None], name: str,
               context: contextvars.Context) -> None:
        held(self._tasks, work, name, context)

    async def _deliver(self, game_id: int) -> None:
        """The game's notices; all dropped unsent when its lobby has closed or started."""
        try:
            notices = await self.service.pending_notices(game_id)
            game = self.service.game(game_id)
            if not notices:
                return
            if game is None or game.status is not Status.LOBBY:
                await self.service.notices_done(notices)
                return
            bind(chat=game.chat_id, game=game_id)
            title = await self.service.storage.chat_title(game.chat_id)
            topic = None if game.thread_id is None else \
                await self.service.storage.topic_name(game.chat_id, game.thread_id)
            languages = await self.service.storage.user_languages(n.user_id for n in notices)
            await asyncio.gather(*(self._notice(
                game, title, topic, n,
                private_language(languages.get(n.user_id), game.language))
                for n in notices))
        except Exception:
            self._read.discard(game_id)  # the next sync of the game tries again
            log.exception("sending the notices of game %s failed", game_id)

    async def _notice(self, game: Game, group: str | None, topic: str | None, notice: Notice,
                      language: str | None) -> None:
        """One subscriber told of ``game``'s lobby, or one of a rematch's players that their
        seat waits, with the deep link that seats them; one who blocked the bot leaves every
        list, quietly."""
        t = translator(language)
        opener = next((p.name for p in game.players if p.user_id == game.creator_id), "?")
        link = deep_link(self.messenger.bot_username, f"join{game.game_id}")
        markup = InlineKeyboardMarkup([[InlineKeyboardButton(t(lobbytexts.JOIN_BUTTON),
                                                             url=link)]])
        async with self._at_once:
            # Read once its turn came: a rematch's player may have confirmed or left meanwhile
            # (a rematch's notices are its players', never a subscriber's).
            invited = notice.user_id in game.pending
            if invited:  # a rematch's player: the seat waits for them
                text = lobbytexts.rematch_opened(t, game, opener, group, topic)
            elif game.seat_of(notice.user_id) is None and await self.service.storage.subscribed(
                    game.chat_id, game.thread_id, notice.user_id):
                text = lobbytexts.table_opened(t, game, opener, group, topic)
            else:  # seated, or gone from a rematch they were asked to: nothing to tell
                text = ""
            if game.status is not Status.LOBBY or not text:  # started or closed: nothing to join
                await self.service.notices_done([notice])
                return
            try:
                sent = await self.messenger.bot.send_message(
                    notice.user_id, text,
                    parse_mode=ParseMode.HTML, reply_markup=markup)
                if invited:  # its Join goes once it waits for them no longer
                    await self._keep(game, notice.user_id, sent.message_id)
            except StoppingError:
                return  # committed: the restart sends it
            except (Forbidden, BadRequest) as refused:  # blocked, or the chat is gone
                log.info("notice of game %s refused by %s: %s", game.game_id, notice.user_id,
                         refused)
                await self.service.subscriber_gone(notice.user_id, self.locks)
            except TelegramError:  # a notice is at most once: a lost one is no harm
                log.warning("notice of game %s to %s may be lost", game.game_id,
                            notice.user_id, exc_info=True)
            await self.service.notices_done([notice])
            await asyncio.sleep(NOTICE_WINDOW)  # its share of the budget is taken till then

    async def _keep(self, game: Game, user_id: int, message_id: int) -> None:
        """A rematch's invitation sent to ``user_id``: kept with the game's messages, for the
        hands' sync to close (:mod:`bot.publishing.invitations`); should its player have
        answered meanwhile (or the table started or closed), a sync closes it now. A failed
        save leaves it to the game's next save (it is kept in memory)."""
        async with self.locks.game(game.game_id):
            game.messages.invitations[user_id] = message_id
            try:
                await self.service.save_messages(game)
            except Exception as error:
                log.warning("game %s: an invitation's id not saved: %r", game.game_id, error)
        if self._request is not None and (
                game.status is not Status.LOBBY or user_id not in game.pending):
            self._request(game.game_id)
