"""Brings Telegram up to date with the games, from their committed state.

A sync is idempotent: it compares what each message shows (a key stored with its id) with
what it should show, and sends only the difference. So after a restart, one sync per open
game repairs whatever was left unsent; and when moves come faster than a group's rate limit
allows edits, the next edit simply shows the latest state: requests for a game that is
already syncing only mark it dirty, and the running sync goes round once more.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from engine import PlayerView, Tile, player_view, table_view

from . import keyboards, texts
from .delivery import outcome_unknown
from .i18n import Translator, translator
from .locks import Locks
from .models import Drawing, Game, HandMessage, Status
from .painter import Urgency
from .pictures import PictureMaker
from .ratelimit import FloodLimiter, StoppingError, no_retries, seconds_of
from .service import GameService

log = logging.getLogger(__name__)
GROUP, HANDS = "group", "hands"
MAX_RETRIES = 5


@dataclass(frozen=True, slots=True)
class Draft:
    """What one message should show; pictures are rendered only when the key changed, and
    then outside the game's lock and off the event loop (``drawing``, see :meth:`Publisher.
    drawn`)."""

    key: str
    text: str
    markup: InlineKeyboardMarkup | None
    photo: bytes | None = None
    drawing: Drawing | None = field(default=None, compare=False, repr=False)

    @property
    def stored(self) -> str:
        """The key kept beside the message id: what it shows, and a digest of its picture,
        so that an edit re-uploads a picture only when its bytes changed."""
        if self.photo is None:
            return self.key
        return f"{self.key}#{hashlib.sha1(self.photo).hexdigest()[:16]}"


def digest(*parts: object) -> str:
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:16]


def key_of(stored: str | None) -> str | None:
    """What a stored key says the message shows, without its picture's digest."""
    return None if stored is None else stored.split("#")[0]


def same_picture(stored: str | None, draft: Draft) -> bool:
    """Whether the message already shows the draft's picture, byte for byte."""
    shown = (stored or "").partition("#")[2]
    return shown != "" and shown == draft.stored.partition("#")[2]


def not_modified(error: BadRequest) -> bool:
    return "not modified" in error.message.lower()


class TopicGoneError(Exception):
    """Telegram refuses to post in a game's forum topic: it was closed or deleted."""

    def __init__(self, thread_id: int, deleted: bool) -> None:
        super().__init__(f"topic {thread_id} is {'deleted' if deleted else 'closed'}")
        self.thread_id = thread_id
        self.deleted = deleted


def topic_refusal(error: BadRequest) -> bool | None:
    """Whether Telegram's refusal says the topic is deleted (True) or closed (False);
    None when it is about something else."""
    message = error.message.lower()
    if "topic_closed" in message:
        return False
    if "message thread not found" in message or "topic_deleted" in message:
        return True
    return None


class Publisher:
    def __init__(
        self, bot: Bot, service: GameService, pictures: PictureMaker, locks: Locks,
        bot_username: str = "", limiter: FloodLimiter | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.pictures = pictures
        self.locks = locks
        self.bot_username = bot_username
        self._tasks: dict[tuple[int, str], asyncio.Task[None]] = {}
        self.chat_titles: dict[int, str] = {}  # groups' names, for the way back to the table
        self._dirty: set[tuple[int, str]] = set()
        self._painter = pictures.painter  # pictures are drawn off the event loop, tables first
        self.limiter = limiter
        self._stopping = asyncio.Event()
        # (game, seat) -> set once its hand message's send in flight is answered
        self._sending: dict[tuple[int, int], asyncio.Event] = {}

    # --- scheduling --------------------------------------------------------------------
    # Two channels per game: the group (announcements, lobby, table) and the private hands.
    # A flood wait in the group must not hold back the next player's tiles.
    def request(self, game_id: int) -> None:
        """Sync ``game_id`` soon; coalesces with a sync already running."""
        for channel in (GROUP, HANDS):
            key = (game_id, channel)
            if key in self._tasks:
                self._dirty.add(key)
            else:
                self._tasks[key] = asyncio.create_task(
                    self._holding(key), name=f"sync-{game_id}-{channel}"
                )

    def _busy(self, game_id: int) -> bool:
        return any((game_id, channel) in self._tasks for channel in (GROUP, HANDS))

    async def _holding(self, key: tuple[int, str]) -> None:
        """One channel's syncs with the game held in memory: a finished game is read back
        from the database for them, and leaves memory once neither channel needs it."""
        game_id = key[0]
        try:
            try:
                await self.service.hold(game_id)
            except Exception:  # the sync reads the game itself, and retries
                log.exception("reading game %s for its sync failed", game_id)
            await self._run(key)
        finally:
            self._let_go(game_id)  # no await since _run's last check: no request is lost

    def _let_go(self, game_id: int) -> None:
        """A finished game leaves memory when neither channel syncs it (each sync saved the
        messages it sent; a sync that gave up after its retries is repaired at restart)."""
        game = self.service.game(game_id)
        if game is None or game.status.open or self._busy(game_id):
            return
        self.service.release(game_id)
        if not any(g.chat_id == game.chat_id for g in self.service.open_games()):
            self.chat_titles.pop(game.chat_id, None)

    async def _run(self, key: tuple[int, str]) -> None:
        game_id, channel = key
        failures = 0
        with no_retries():  # a flood wait ends this round: the next one draws the latest state
            while True:
                self._dirty.discard(key)
                try:
                    if channel == GROUP:
                        await self.sync_group(game_id)
                    else:
                        await self.sync_hands(game_id)
                    failures = 0
                except RetryAfter as exc:
                    # The limiter holds the chat for retry_after; without one, wait here.
                    if self.limiter is None:
                        await self._pause(seconds_of(exc))
                    if not self._stopping.is_set():
                        self._dirty.add(key)
                except StoppingError:
                    pass  # committed state waits in the database for the restart
                except TopicGoneError as gone:
                    # Not a blip to retry: the game ends, and its last words go to General
                    # (its stop marks the game dirty again, which sends them).
                    failures = 0
                    try:
                        await self.topic_gone(game_id, gone.thread_id, gone.deleted)
                    except Exception:
                        log.exception("stopping game %s after its topic went failed", game_id)
                except Exception:
                    # A network blip must not leave a player without their turn: try again,
                    # backing off, a few times; a later change of the game syncs again anyway.
                    failures += 1
                    log.exception("%s sync of game %s failed (%d)", channel, game_id, failures)
                    if failures <= MAX_RETRIES and not self._stopping.is_set():
                        await self._pause(min(30.0, 2.0 ** failures))
                        if not self._stopping.is_set():
                            self._dirty.add(key)
                if key not in self._dirty:
                    del self._tasks[key]  # no await since the check: no request is lost
                    return

    async def _pause(self, seconds: float) -> None:
        """Sleep before a retry; cut short when the bot is stopping."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), seconds)

    def stop_retrying(self) -> None:
        """The bot is stopping: a sync that fails is not tried again (the restart syncs)."""
        self._stopping.set()

    def close(self) -> None:
        """The bot has stopped: the picture thread ends once it is idle."""
        self._painter.close()

    async def idle(self) -> None:
        """Wait until no sync is running (tests and shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)

    async def drawn(self, draft: Draft, urgency: Urgency = Urgency.TABLE) -> Draft:
        """The draft with its picture, drawn in the worker thread (see :mod:`bot.painter`)."""
        if draft.drawing is None:
            return draft
        photo = await self._painter.draw(draft.drawing, urgency)
        return replace(draft, photo=photo, drawing=None)

    async def topic_gone(self, game_id: int, thread_id: int, deleted: bool) -> None:
        """The topic of a game was closed or deleted: stop the game, tell General."""
        game = self.service.game(game_id)
        if game is None:
            return
        async with self.locks.game(game_id):
            if await self.service.topic_gone(game, thread_id, deleted):
                log.info("game %s stopped: its topic %s was %s", game_id, thread_id,
                         "deleted" if deleted else "closed")

    # --- sync --------------------------------------------------------------------------
    async def sync(self, game_id: int) -> None:
        """Bring everything of one game up to date now (both channels)."""
        await self.sync_group(game_id)
        await self.sync_hands(game_id)

    async def sync_group(self, game_id: int) -> None:
        await self._drain_outbox(game_id)
        game = self.service.game(game_id)
        if game is None:
            return
        if self.limiter is not None:
            # Drawn only once the group's budget lets it go: the latest state, not one
            # drawn earlier and sent late (requests meanwhile only mark the game dirty).
            await self.limiter.ready(game.chat_id)
        async with self.locks.game(game_id):
            lobby = self._lobby_draft(game)
            table = self._table_draft(game)
        changed = False
        if lobby is not None:
            changed |= await self._sync_lobby(game, lobby)
        if table is not None:
            changed |= await self._sync_table(game, await self.drawn(table))
        if changed:
            async with self.locks.game(game_id):
                await self.service.save_messages(game)

    async def sync_hands(self, game_id: int) -> None:
        game = self.service.game(game_id)
        if game is None:
            return
        if game.chat_id not in self.chat_titles:
            self.chat_titles[game.chat_id] = await self.service.storage.chat_title(
                game.chat_id) or ""
        await self._farewells(game)
        # Private messages speak each player's own language when the bot has it.
        languages = [None if p.is_computer else await self.service.storage.user_language(p.user_id)
                     for p in game.players]
        async with self.locks.game(game_id):
            hands = {
                seat: self._hand_draft(game, seat, languages[seat] if seat < len(languages)
                                       else None)
                for seat in range(len(game.players))
            }
        # Each private chat on its own: one player's trouble (a flood wait, a blocked bot)
        # must not hold back the others' tiles.
        seats = [(seat, draft) for seat, draft in hands.items() if draft is not None]
        results = await asyncio.gather(
            *(self._sync_drawn_hand(game, seat, draft) for seat, draft in seats),
            return_exceptions=True)
        changed = any(result is True for result in results)
        errors = [r for r in results if isinstance(r, BaseException)]
        failed = next((e for e in errors if isinstance(e, RetryAfter)),
                      next(iter(errors), None))
        if isinstance(failed, asyncio.CancelledError):
            raise failed
        if changed:
            async with self.locks.game(game_id):
                await self.service.save_messages(game)
        if failed is not None:
            raise failed

    async def _drain_outbox(self, game_id: int) -> None:
        game = self.service.game(game_id)
        thread_id = game.thread_id if game is not None else None
        for item in await self.service.storage.pending_outbox(game_id):
            markup = None
            if item.buttons:
                markup = InlineKeyboardMarkup(
                    [[InlineKeyboardButton(label, callback_data=data) for label, data in row]
                     for row in item.buttons]
                )
            try:
                await self._send(item.chat_id, item.text, item.photo, markup, thread_id)
            except BadRequest:
                # Telegram refuses this one for good: a single bad announcement must not
                # block every later sync of the game.
                log.exception("dropping announcement %s of game %s", item.id, game_id)
            except NetworkError as exc:
                if not outcome_unknown(exc):
                    raise  # surely not shown: the retried sync sends it
                # Perhaps shown: the table's caption repeats what matters, so an
                # announcement is better lost than doubled (at most once).
                log.warning("announcement %s of game %s may be lost", item.id, game_id)
            await self.service.storage.outbox_done(item.id)

    async def _send(
        self, chat_id: int, text: str, photo: bytes | None, markup: InlineKeyboardMarkup | None,
        thread_id: int | None = None,
    ) -> Message:
        """Send to a chat, or to one topic of a forum (``thread_id``; None: General, where
        the Bot API takes no thread id). A refused topic raises :class:`TopicGoneError`."""
        try:
            if photo is None:
                return await self.bot.send_message(
                    chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
                    message_thread_id=thread_id,
                )
            return await self.bot.send_photo(
                chat_id, photo, caption=text, parse_mode=ParseMode.HTML, reply_markup=markup,
                message_thread_id=thread_id,
            )
        except ChatMigrated as exc:
            await self.service.migrate_chat(chat_id, exc.new_chat_id)
            return await self._send(exc.new_chat_id, text, photo, markup, thread_id)
        except BadRequest as exc:
            deleted = topic_refusal(exc)
            if thread_id is not None and deleted is not None:
                raise TopicGoneError(thread_id, deleted) from exc
            raise

    async def _edit(
        self, chat_id: int, message_id: int, draft: Draft, shown: str | None = None
    ) -> bool:
        """Edit in place (the caption alone when ``shown``, the stored key of what the
        message shows, has the same picture); False when the message is gone."""
        try:
            if draft.photo is not None and same_picture(shown, draft):
                await self.bot.edit_message_caption(
                    chat_id=chat_id, message_id=message_id, caption=draft.text,
                    parse_mode=ParseMode.HTML, reply_markup=draft.markup,
                )
            elif draft.photo is not None:
                media = InputMediaPhoto(draft.photo, caption=draft.text, parse_mode=ParseMode.HTML)
                await self.bot.edit_message_media(
                    media, chat_id=chat_id, message_id=message_id, reply_markup=draft.markup
                )
            else:
                await self.bot.edit_message_text(
                    draft.text, chat_id=chat_id, message_id=message_id,
                    parse_mode=ParseMode.HTML, reply_markup=draft.markup,
                )
        except BadRequest as exc:
            if not_modified(exc):
                return True
            if "not found" in exc.message.lower() or "can't be edited" in exc.message.lower():
                return False
            raise
        return True

    async def _retire(self, chat_id: int, message_id: int, delete: bool) -> None:
        """Take an old message out of play: delete it, or at least remove its buttons."""
        try:
            if delete and await self.bot.delete_message(chat_id, message_id):
                return
        except TelegramError:
            pass
        try:
            await self.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
        except TelegramError:
            pass  # already without buttons, or gone

    # --- lobby -------------------------------------------------------------------------
    def _lobby_draft(self, game: Game) -> Draft | None:
        t = translator(game.language)
        if game.status is Status.LOBBY:
            text = texts.lobby_text(t, game)
            return Draft(digest(text, "lobby"), text,
                         keyboards.lobby(t, game, self.bot_username,
                                         bool(game.partnerships)))
        if game.messages.lobby is None:
            return None
        if game.status is Status.CANCELLED or game.match is None:
            text = t("This table was closed before the game started.")
        else:
            text = texts.lobby_text(t, game).split("\n\n")[0] + "\n" + t("The game has started.")
        return Draft(digest(text, "closed"), text, None)

    async def _sync_lobby(self, game: Game, draft: Draft) -> bool:
        messages = game.messages
        if messages.lobby is not None and messages.lobby_key == draft.key:
            return False
        if messages.lobby is None or not await self._edit(game.chat_id, messages.lobby, draft):
            sent = await self._send(game.chat_id, draft.text, None, draft.markup, game.thread_id)
            messages.lobby = sent.message_id
        messages.lobby_key = draft.key
        return True

    # --- table -------------------------------------------------------------------------
    def _table_draft(self, game: Game) -> Draft | None:
        match = game.match
        if (match is None or not match.hands or game.status in (Status.LOBBY, Status.CANCELLED)
                or game.messages.topic_gone):
            return None  # (a table left in a closed or deleted topic is not posted again)
        t = translator(game.language)
        key = digest(game.status.value, game.move_no, game.language, self.pictures.theme,
                     game.timer.warned)
        if key_of(game.messages.table_key) == key and game.messages.table_hand == match.hand.number:
            return None
        view = table_view(match)
        caption = texts.table_caption(t, game, view)
        if not game.status.open:
            caption += "\n" + (t("The game was stopped.") if game.status is Status.STOPPED
                               else t("The game is over."))
        markup = keyboards.table(t, game) if game.status is Status.PLAYING else None
        return Draft(key, caption, markup, drawing=self.pictures.table_drawing(game, view))

    async def _sync_table(self, game: Game, draft: Draft) -> bool:
        messages = game.messages
        match = game.match
        assert match is not None
        number = match.hand.number
        if messages.table is not None and messages.table_hand != number:
            await self._finish_table(game, messages.table, messages.table_hand)
            messages.table = None
        if messages.table is None or not await self._edit(
            game.chat_id, messages.table, draft, messages.table_key
        ):
            sent = await self._send(game.chat_id, draft.text, draft.photo, draft.markup,
                                    game.thread_id)
            messages.table = sent.message_id
        messages.table_hand = number
        messages.table_key = draft.stored
        return True

    async def _finish_table(self, game: Game, message_id: int, hand_number: int | None) -> None:
        """The table of a hand that is over shows how it ended (the last tile, knock or dead
        tile; no turn, no buttons) before the next hand gets a table of its own."""
        match = game.match
        assert match is not None
        if hand_number is None or not 0 <= hand_number < len(match.hands):
            await self._retire(game.chat_id, message_id, delete=False)
            return
        async with self.locks.game(game.game_id):
            view = table_view(match, hand_number)
            caption = texts.table_caption(translator(game.language), game, view)
            drawing = self.pictures.table_drawing(game, view)
        final = await self.drawn(Draft("final", caption, None, drawing=drawing))
        if not await self._edit(game.chat_id, message_id, final):
            await self._retire(game.chat_id, message_id, delete=False)

    # --- private hands -----------------------------------------------------------------
    def _hand_draft(self, game: Game, seat: int, language: str | None) -> Draft | None:
        if game.players[seat].is_computer:
            return None  # a computer player reads its view from the engine, not from a chat
        match = game.match
        if match is None or not match.hands or game.status in (Status.LOBBY, Status.CANCELLED):
            return None
        if seat in game.messages.unreachable:
            return None  # unreachable seats wait for /start or "My tiles"
        view = player_view(match, seat)
        hand_number = match.hand.number
        t = translator(language or game.language)
        caption = texts.hand_caption(t, game, view, table_link=self._table_link(t, game))
        if not game.status.open:
            caption += "\n" + texts.game_end_line(t, game)
        if game.status is Status.PLAYING and view.my_turn:
            key = f"{hand_number}:A:{game.move_no}"
        else:  # a waiting message changes only when what it says changes
            key = f"{hand_number}:W:{digest(caption, len(view.hand))}"
        current = game.messages.hands.get(seat)
        if current is not None and key_of(current.key) == key:
            return None
        # Matador: a player may hold no tiles while the hand goes on (no buttons to show)
        markup = keyboards.hand(t, game, view, game.move_no) \
            if game.status.open and view.hand else None
        return Draft(key, caption, markup, drawing=self.pictures.hand_drawing(view, t.language))

    def choice_caption(self, game: Game, view: PlayerView, t: Translator,
                       choosing: Tile | None) -> str:
        """The hand message's caption while its player picks an end (or confirms a dead tile)
        for ``choosing``, or back at their tiles."""
        return texts.hand_caption(t, game, view, choosing, self._table_link(t, game))

    async def _farewells(self, game: Game) -> None:
        """A player whose seat a computer took is told so, in place of their last hand (whose
        buttons would no longer work)."""
        for change in game.seat_changes:
            current = game.messages.hands.get(change.seat)
            if current is None or not game.players[change.seat].is_computer:
                continue
            language = await self.service.storage.user_language(change.left.user_id)
            t = translator(language or game.language)
            text = t("🤖 {computer} plays your seat now. Thanks for playing!",
                     computer=texts.esc(game.players[change.seat].name))
            try:
                await self.bot.edit_message_caption(
                    chat_id=change.left.user_id, message_id=current.message_id, caption=text,
                    parse_mode=ParseMode.HTML, reply_markup=None)
            except Forbidden:
                pass  # they blocked the bot: nothing to tell
            except BadRequest:  # the hand message is gone: say it in a message of its own
                with contextlib.suppress(TelegramError):
                    await self._send(change.left.user_id, text, None, None)
            async with self.locks.game(game.game_id):
                game.messages.hands.pop(change.seat, None)
                await self.service.save_messages(game)

    def _table_link(self, t: Translator, game: Game) -> str:
        """A way back to the group's table: a link to the message where Telegram has one
        (supergroups), else the group's name."""
        table = game.messages.table
        chat = str(game.chat_id)
        if table is not None and chat.startswith("-100"):
            url = f"https://t.me/c/{chat[4:]}/{table}"
            return t('↩ <a href="{url}">The table in the group</a>', url=url)
        title = self.chat_titles.get(game.chat_id)
        return t("↩ The table is in the group {name}.", name=texts.quote(title, 64)) if title \
            else ""

    async def _sync_drawn_hand(self, game: Game, seat: int, draft: Draft) -> bool:
        """Draw a hand's picture (in the worker) and bring its message up to date."""
        return await self._sync_hand(game, seat, await self.drawn(draft, Urgency.HAND))

    async def _sync_hand(self, game: Game, seat: int, draft: Draft) -> bool:
        player = game.players[seat]
        messages = game.messages
        current = messages.hands.get(seat)
        fresh = current is None or current.key.split(":")[0] != draft.key.split(":")[0] or (
            ":A:" in draft.key
        )
        try:
            if (
                current is not None
                and not fresh
                and await self._edit(player.user_id, current.message_id, draft, current.key)
            ):
                messages.hands[seat] = HandMessage(current.message_id, draft.stored)
                return True
            with self._sending_hand(game.game_id, seat):
                sent = await self._send(player.user_id, draft.text, draft.photo, draft.markup)
                # Known before the old one goes: from now on only this message's buttons act.
                messages.hands[seat] = HandMessage(sent.message_id, draft.stored)
        except Forbidden:
            await self._unreachable(game, seat)
            return True
        if current is not None:
            await self._retire(player.user_id, current.message_id, delete=True)
        if seat in messages.unreachable:
            messages.unreachable.remove(seat)
        return True

    @contextlib.contextmanager
    def _sending_hand(self, game_id: int, seat: int) -> Iterator[None]:
        """Marks a send of the seat's hand message in flight (see :meth:`hand_sent`)."""
        sending = self._sending[(game_id, seat)] = asyncio.Event()
        try:
            yield
        finally:
            sending.set()
            if self._sending.get((game_id, seat)) is sending:
                del self._sending[(game_id, seat)]

    async def hand_sent(self, game_id: int, seat: int, timeout: float) -> None:
        """Wait, at most ``timeout``, while a send of the seat's hand message is in flight:
        the bot learns the new message's id only from its answer, and a tap on it may come
        first (buttons' stray check)."""
        sending = self._sending.get((game_id, seat))
        if sending is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(sending.wait(), timeout)

    async def _unreachable(self, game: Game, seat: int) -> None:
        """Tell the group once that a player's tiles cannot be sent, and how to fix it."""
        player = game.players[seat]
        await self.service.storage.set_private_ok(player.user_id, False)
        if seat in game.messages.unreachable:
            return
        t = translator(game.language)
        text = t(
            "I cannot send {name} their tiles: they have not started a private chat with me, "
            "or they blocked me. {name}, open {link}, press Start, then tap “My tiles” here. "
            "The game waits; its creator can also /stop it.",
            name=texts.mention(player.user_id, player.name),
            link=keyboards.deep_link(self.bot_username, f"hand{game.game_id}"),
        )
        await self._send(game.chat_id, text, None, None, game.thread_id)
        game.messages.unreachable.append(seat)  # told once, after the group really was

    async def resend_hand(self, game: Game, seat: int) -> None:
        """Forget the seat's hand message so the next sync sends a fresh one."""
        async with self.locks.game(game.game_id):
            current = game.messages.hands.pop(seat, None)
            if seat in game.messages.unreachable:
                game.messages.unreachable.remove(seat)
        if current is not None:
            await self._retire(game.players[seat].user_id, current.message_id, delete=True)
        self.request(game.game_id)
