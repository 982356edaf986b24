"""Replays: a finished hand sent as an animation, drawn in the painter's thread.

A replay is made from the game's record (memory's, or the stored one read back), so any hand
of any stored match can be had, after a restart too. While one is being drawn and sent to a
chat, asking for the same hand there again sends nothing more, and a button's taps send it
there at most once a minute (a group's taps on one button cost one message of its budget,
not one each); once sent, Telegram's file_id sends it again without drawing it (while this
process remembers it).
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections import OrderedDict
from collections.abc import Coroutine
from typing import Any

from telegram import Bot, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import TelegramError

from ..background import held
from ..i18n import translator
from ..models import Game
from ..presentation.pictures import PictureMaker
from ..presentation.replaytexts import replay_caption

log = logging.getLogger(__name__)
#: Animations remembered by their file_id (game, hand, language, theme): a few hundred bytes
#: each.
FILES_KEPT = 512
#: Seconds after a hand's replay was sent to a chat during which its button sends it there no
#: more (the command still does).
BUTTON_PAUSE = 60.0

Key = tuple[int, int, int]  # (chat, game, hand)


class Refusal(enum.Enum):
    """Why a button's replay was not sent."""

    SENDING = "sending"  # that hand is on its way to that chat
    JUST_SENT = "just sent"  # ... or was sent there less than BUTTON_PAUSE ago


class Replays:
    """Sends replays: at most one of a hand to a chat at a time."""

    def __init__(self, bot: Bot, pictures: PictureMaker) -> None:
        self.bot = bot
        self.pictures = pictures
        self._sending: set[Key] = set()
        self._sent_at: OrderedDict[Key, float] = OrderedDict()  # time.monotonic(), oldest first
        self._files: OrderedDict[tuple[int, int, str, str], str] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()

    def sending(self, chat_id: int, game_id: int, hand_number: int) -> bool:
        return (chat_id, game_id, hand_number) in self._sending

    async def send(self, chat_id: int, game: Game, hand_number: int, language: str,
                   thread_id: int | None = None, reply_to: int | None = None) -> bool:
        """Draw hand ``hand_number`` of ``game`` (finished) and send it to the chat, its
        caption in ``language``, in topic ``thread_id``, as a reply to ``reply_to`` when
        that message is still there; False if that hand is already on its way there."""
        key = (chat_id, game.game_id, hand_number)
        if key in self._sending:
            return False
        self._sending.add(key)
        await self._guarded(key, game, language, thread_id, reply_to)
        return True

    def start(self, chat_id: int, game: Game, hand_number: int, language: str,
              thread_id: int | None = None, reply_to: int | None = None) -> Refusal | None:
        """A button's :meth:`send`, in a task of its own (the tap is answered meanwhile);
        why not, if that hand is on its way there or was just sent there."""
        key = (chat_id, game.game_id, hand_number)
        if key in self._sending:
            return Refusal.SENDING
        now = time.monotonic()
        while self._sent_at and next(iter(self._sent_at.values())) <= now - BUTTON_PAUSE:
            self._sent_at.popitem(last=False)
        if key in self._sent_at:
            return Refusal.JUST_SENT
        self._sending.add(key)
        self._keep(self._logged(self._guarded(key, game, language, thread_id, reply_to)),
                   f"replay-{game.game_id}-{hand_number}")
        return None

    async def _guarded(self, key: Key, game: Game, language: str, thread_id: int | None,
                       reply_to: int | None) -> None:
        try:
            await self._send(key[0], game, key[2], language, thread_id, reply_to)
            self._sent_at[key] = time.monotonic()
            self._sent_at.move_to_end(key)
        finally:
            self._sending.discard(key)

    async def _send(self, chat_id: int, game: Game, hand_number: int, language: str,
                    thread_id: int | None, reply_to: int | None) -> None:
        file = (game.game_id, hand_number, language, self.pictures.theme)
        animation: str | bytes | None = self._files.get(file)
        if animation is None:
            animation = await self.pictures.replayed(
                self.pictures.replay_steps(game, hand_number, language))
        sent = await self.bot.send_animation(
            chat_id, animation, caption=replay_caption(translator(language), game, hand_number),
            parse_mode=ParseMode.HTML, message_thread_id=thread_id, filename="replay.gif",
            reply_parameters=None if reply_to is None else ReplyParameters(
                reply_to, allow_sending_without_reply=True))
        if sent.animation is not None:
            self._files[file] = sent.animation.file_id
            self._files.move_to_end(file)
            while len(self._files) > FILES_KEPT:
                self._files.popitem(last=False)

    async def _logged(self, sending: Coroutine[Any, Any, None]) -> None:
        try:
            await sending
        except TelegramError as error:
            log.warning("a replay was not sent: %s", error)
        except Exception:
            log.exception("a replay failed")

    def _keep(self, work: Coroutine[Any, Any, None], name: str) -> None:
        held(self._tasks, work, name)

    async def idle(self, timeout: float | None = None) -> None:
        """Wait for the replays on their way (a stopping bot, a test); after ``timeout``
        seconds, those still on their way are given up."""
        if self._tasks:
            _, late = await asyncio.wait(set(self._tasks), timeout=timeout)
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late)
