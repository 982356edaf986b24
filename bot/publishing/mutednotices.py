"""What a game's players are told in private, once, when the bot may no longer write in
their group (or send photos there): the game goes on here, its table stands still there
until an admin lets the bot. Each notice is sent apart from the group's syncs, tried again
after a flood wait or a failure that surely sent nothing."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection

from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError

from .. import wording
from ..i18n import N_, private_translator
from ..models import Status
from ..service import GameService
from ..waiting import wait_set
from .delivery import outcome_unknown
from .messenger import Messenger
from .places import Places
from .ratelimit import StoppingError, no_retries, seconds_of

log = logging.getLogger(__name__)
#: Times a player's notice that the bot may not write in their group is tried: again after a
#: flood wait (its retry_after waited out) or a failure that surely sent nothing.
MUTED_TRIES = 4
#: What each player of a game hears when the bot may no longer write in its group.
MUTED = N_("I may not send messages in the group {group} now, so its table stands still "
           "there. An admin can let me write again; meanwhile your game goes on here.")
#: What each player hears when the group takes the bot's texts but not its photos.
NO_PHOTOS = N_("I may not send photos in the group {group} now, so I cannot show the game's "
               "table there. An admin can allow media for members, or make me an admin; "
               "meanwhile your game goes on here.")

#: What each player hears (once), and each one who asked for the table below, when the
#: group refused that post, the table above kept and edited.
TABLE_KEPT_NOTE = N_("I may not send messages in the group {group} now, so its table cannot "
                     "come down to the bottom there; I keep the one above up to date. An "
                     "admin can let me write again.")


class MutedNotices:
    """Tells the players of the games whose group is closed to the bot, once a closing."""

    def __init__(self, messenger: Messenger, service: GameService, places: Places,
                 stopping: asyncio.Event) -> None:
        self.messenger = messenger
        self.service = service
        self.places = places
        self._stopping = stopping  # the publisher's: the bot is stopping
        #: Games whose players were told that the bot may not write in their group (or not
        #: send photos there): what they were told.
        self.told: dict[int, str] = {}
        self.tasks: set[asyncio.Task[None]] = set()  # those notices, each on its own

    def forget(self, game_id: int) -> None:
        """The bot writes in the game's group again (or the game left memory): a closing
        after this is told anew."""
        self.told.pop(game_id, None)

    async def tell_players(self, game_id: int, words: str = MUTED,
                           askers: Collection[int] = ()) -> None:
        """Tell a game's players, once, in private, that the bot may not write in their group
        (or send photos there, ``words``): its table stands still there until an admin lets
        it (or cannot come down), and the game goes on; and ``askers``, who asked for its
        table, each time (a player once)."""
        game = self.service.game(game_id)
        if game is None or game.status is not Status.PLAYING:
            return
        players = [p.user_id for p in game.players if not p.is_computer]
        people = [a for a in askers if a not in players]
        if self.told.get(game_id) != words:
            self.told[game_id] = words
            people = players + people
        await self.tell_people(game_id, people, words)

    async def tell_people(self, game_id: int, people: Collection[int], words: str) -> None:
        """Tell these people, in private, each in their language, ``words`` about the game's
        group (named in them as ``{group}``)."""
        game = self.service.game(game_id)
        if game is None or not people:
            return
        title = self.places.chat_titles.get(game.chat_id) \
            or await self.service.storage.chat_title(game.chat_id) or ""
        known = await self.service.storage.user_languages(list(people))
        for user_id in dict.fromkeys(people):
            t = private_translator(known.get(user_id), game.language)
            text = t(words, group=wording.named(wording.shorten(title, 64)))
            # Apart from the sync: a flood wait here must not hold back the group's next one
            task = asyncio.create_task(self._tell(user_id, text),
                                       name=f"muted-{game_id}-{user_id}")
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _tell(self, user_id: int, text: str) -> None:
        """One player's notice that the bot may not write in their group: after a flood wait
        (its retry_after waited out, cut short when the bot stops) or a failure that surely
        sent nothing, tried again, :data:`MUTED_TRIES` times in all; not to one who blocked
        the bot, nor again when it may have arrived (the hands say the rest)."""
        for attempt in range(1, MUTED_TRIES + 1):
            try:
                with no_retries():  # (a 429 comes back at once, its chat paused: see below)
                    await self.messenger.send(user_id, text, None, None)
                return
            except RetryAfter as exc:
                wait, failure = seconds_of(exc), str(exc)
            except StoppingError:
                return
            except NetworkError as exc:
                if isinstance(exc, BadRequest) or outcome_unknown(exc):
                    log.info("telling %s the group is closed to the bot failed: %s", user_id,
                             exc)
                    return
                wait, failure = min(30.0, 2.0 ** attempt), str(exc)
            except TelegramError as exc:  # (blocked: Forbidden)
                log.info("telling %s the group is closed to the bot failed: %s", user_id, exc)
                return
            except Exception:
                log.exception("telling %s the group is closed to the bot failed", user_id)
                return
            if attempt < MUTED_TRIES:
                await wait_set(self._stopping, wait)  # (cut short when the bot stops)
            if self._stopping.is_set():
                break
        log.info("telling %s the group is closed to the bot failed: %s (%d tries)", user_id,
                 failure, attempt)

