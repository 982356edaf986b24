"""The objects a running bot shares, kept in ``application.bot_data``, and what handlers may
ask of the publisher through them (deep links, a hand sent again), so that no handler reaches
into the publisher's parts."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from telegram import InlineKeyboardMarkup
from telegram.ext import ContextTypes

from engine import PlayerView, Tile

from ..config import BotConfig
from ..conflicts import PollConflict
from ..i18n import Translator
from ..logs import StatusLines
from ..models import Game
from ..presentation.keyboards import deep_link
from ..presentation.pictures import PictureMaker
from ..publishing.messenger import Place
from ..publishing.publisher import Publisher
from ..publishing.ratelimit import FloodLimiter
from ..publishing.replays import Replays
from ..reach import Reach
from ..service import GameService
from ..service.locks import Locks
from ..serving.latency import TableLatency
from ..serving.metrics import Metrics
from ..serving.webhookwatch import WebhookWatch
from ..serving.webserver import HttpSettings, WebServer
from ..storage import Storage
from .pickers import Pickers
from .startlinks import StartLinks
from .timers import Timers
from .welcome import Welcomes

if TYPE_CHECKING:  # asyncpg is imported only where PostgreSQL is used
    from ..storage.claim import DatabaseClaim

KEY = "runtime"


@dataclass(slots=True)
class Runtime:
    config: BotConfig
    storage: Storage
    service: GameService
    publisher: Publisher
    locks: Locks
    pictures: PictureMaker
    timers: Timers
    limiter: FloodLimiter
    metrics: Metrics
    http: HttpSettings  # webhook_url None: long polling (and a server only with a port)
    latency: TableLatency
    replays: Replays  # /replay and the "🎞 Replay" buttons
    status_lines: StatusLines  # a game's opening, start and end said once in the log
    web: WebServer | None = None  # the HTTP server of polling mode, while it runs
    reach: Reach = field(default_factory=Reach)  # an outage's end said once
    conflict: PollConflict = field(default_factory=PollConflict)  # another poller's too
    #: whether Telegram's webhook is still this bot's (webhook mode: the minute check)
    webhook_watch: WebhookWatch = field(default_factory=WebhookWatch)
    start_links: StartLinks = field(default_factory=StartLinks)  # links just handed out
    welcomes: Welcomes = field(default_factory=Welcomes)  # the help read on the bot's arrival
    pickers: Pickers = field(default_factory=Pickers)  # /newgame's "Which game?" per topic
    claim: DatabaseClaim | None = None  # on PostgreSQL: this bot's hold on the database
    stop: Callable[[], None] | None = None  # stops the process (set by bot.launch.run)
    stopping: bool = False  # a stop has begun (bot.app.begin_stop)

    @property
    def webhook(self) -> bool:
        """Whether Telegram posts the updates (webhook mode) rather than the bot polling."""
        return self.http.webhook_url is not None

    @property
    def bot_username(self) -> str:
        """The bot's @username, learnt at start (for links into its private chat)."""
        return self.publisher.messenger.bot_username

    async def topic_closed(self, game_id: int, thread_id: int) -> None:
        """An admin closed the game's forum topic, where the bot may not write: the game ends
        and General is told why."""
        await self.publisher.gone.topic_gone(game_id, thread_id, deleted=False)

    def private_link(self, payload: str, user_id: int) -> str:
        """The link that opens the bot's private chat and sends /start ``payload``, handed
        to ``user_id``: a plain /start from them soon after acts as the link would."""
        self.start_links.give(user_id, payload)
        return deep_link(self.bot_username, payload)

    async def adopt_hand(self, game: Game, seat: int, message_id: int) -> None:
        """Make ``message_id`` (a turn's message the game lost the id of) the seat's hand."""
        await self.publisher.hands.adopt_hand(game, seat, message_id)

    async def resend_hand(self, game: Game, seat: int) -> None:
        """Send the seat's hand again, as a fresh private message."""
        await self.publisher.hands.resend_hand(game, seat)

    async def resend_unreached(self, user_id: int) -> set[int]:
        """The user's private chat is open again (a /start, an unblock): the hands the group
        was told could not reach them go now; the games whose hand went."""
        sent = set()
        for game in self.service.games_of_user(user_id):
            seat = game.seat_of(user_id)
            if seat is not None and seat in game.messages.announced_unreachable:
                await self.resend_hand(game, seat)
                sent.add(game.game_id)
        return sent

    def table_down(self, game: Game, asker: int | None = None) -> float:
        """Post the game's table again at the bottom of its group (the old one retired); the
        seconds it waits first, when it was posted again a moment ago. ``asker``: who is told
        in private should the group refuse the post (one not told why otherwise)."""
        return self.publisher.tables.bring_down(game.game_id, asker)

    def message_gone(self, game: Game, lobby: bool) -> None:
        """The game's lobby (``lobby``) or table message is gone from the group (an admin
        deleted it): post it again at the bottom."""
        if lobby:
            self.publisher.repost_lobby(game.game_id)
        else:
            self.table_down(game)

    def chat_titled(self, chat_id: int, title: str | None) -> None:
        """A group's name as it is now, for the hands' way back to the table."""
        self.publisher.hands.places.chat_titles[chat_id] = title or ""

    async def topic_named(self, chat_id: int, thread_id: int, name: str, *, current: bool
                          ) -> None:
        """A forum topic's name, for the hands' way back to a table there: a game played
        there brings its hands up to date when the name they say changed (it was learnt
        from a message quoting the topic's creation after its hands were sent: CI)."""
        if await self.publisher.hands.places.topic_named(chat_id, thread_id, name,
                                                         current=current):
            game = self.service.open_game_in(chat_id, thread_id)
            if game is not None:
                self.publisher.request(game.game_id)

    async def place_of(self, game: Game) -> tuple[str, str]:
        """The names of the game's group and topic ("": unknown, or no topic)."""
        places = self.publisher.hands.places
        await places.learn(game)
        return places.group(game), places.topic(game)

    async def retire_pickers(self, chat_id: int, thread_id: int | None) -> None:
        """Take away the "Which game?" pickers of a topic where a table is open now."""
        for message_id in self.pickers.taken(chat_id, thread_id):
            await self.publisher.messenger.retire(chat_id, message_id, delete=True)

    async def sent(self, game_id: int, place: Place, timeout: float) -> None:
        """Wait (at most ``timeout``) for a send to ``place`` still in flight."""
        await self.publisher.messenger.sent(game_id, place, timeout)

    def sending_to(self, game_id: int, place: Place) -> bool:
        """Whether a send to ``place`` is in flight now."""
        return self.publisher.messenger.in_flight(game_id, place)

    async def show_choice(self, game: Game, view: PlayerView, t: Translator,
                          choosing: Tile | None, markup: InlineKeyboardMarkup,
                          move_no: int) -> None:
        """The hand message while its player chooses how ``choosing`` goes on (None: back
        at their tiles) at move ``move_no``, its caption, picture and ``markup``: called
        without the game's lock (the edit may wait out a flood limit)."""
        await self.publisher.hands.show_choice(game, view, t, choosing, markup, move_no)


def runtime(context: ContextTypes.DEFAULT_TYPE) -> Runtime:
    value = context.application.bot_data[KEY]
    assert isinstance(value, Runtime)
    return value
