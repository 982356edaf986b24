"""A game's group or topic gone from under it (Telegram refused a send for it): the games open
there end, their players told; a lobby no topic ever showed ends quietly, its creator told
in private."""

from __future__ import annotations

import logging

from telegram.error import BadRequest, Forbidden

from ..i18n import N_, private_translator
from ..models import Game, Status
from ..service import GameService
from ..service.locks import Locks
from ..wording import named, shorten, title
from .messenger import ChatGoneError, Messenger

log = logging.getLogger(__name__)

#: Said in private to who sent /newgame in a forum topic the bot may not write in (closed:
#: only admins write there; or deleted meanwhile), by whether the bot knows its name.
TOPIC_CLOSED = {
    True: N_("I could not open the {game} table: the topic “{topic}” is closed, so I may not "
             "write there. Reopen it, or send /newgame in another topic."),
    False: N_("I could not open the {game} table: its topic is closed, so I may not write "
              "there. Reopen it, or send /newgame in another topic."),
}
TOPIC_DELETED = N_("I could not open the {game} table: its topic was deleted. Send /newgame "
                   "in another topic.")


class GoneChats:
    """Ends the games of a group or topic Telegram says is gone (see the module)."""

    def __init__(self, service: GameService, locks: Locks, messenger: Messenger) -> None:
        self.service = service
        self.locks = locks
        self.messenger = messenger

    async def chat_gone(self, game_id: int, gone: ChatGoneError) -> None:
        """Telegram says a game's group is gone (deleted, and no update told): every game
        open there ends as when the bot is removed from the group (its players told so in
        private); a game already over there is only logged."""
        ended = []
        for game in self.service.open_games_in(gone.chat_id):  # one per topic in a forum
            async with self.locks.game(game.game_id):
                if game.status.open:
                    await self.service.abandon(game, group_gone=True)
                    ended.append(game.game_id)
        if ended:
            log.info("group %s is gone (Telegram: %s): game %s stopped", gone.chat_id,
                     gone.refusal, ", ".join(map(str, ended)))
        else:  # (its last messages, after the stop: said above)
            log.debug("group sync of game %s refused: %s", game_id, gone)

    async def topic_gone(self, game_id: int, thread_id: int, deleted: bool) -> None:
        """The topic of a game was closed or deleted: stop the game, tell General. A lobby
        the topic never showed (a /newgame sent by an admin in a closed topic, where the bot
        may not write) was seen by nobody: General hears nothing of it (player QA: it was
        answered there), its creator is told in private."""
        game = self.service.game(game_id)
        if game is None:
            return
        async with self.locks.game(game_id):
            unseen = game.status is Status.LOBBY and game.messages.lobby is None
            if not await self.service.topic_gone(game, thread_id, deleted, quiet=unseen):
                return
            log.info("game %s stopped: its topic %s was %s", game_id, thread_id,
                     "deleted" if deleted else "closed")
        if unseen:
            await self._tell_creator(game, thread_id, deleted)

    async def _tell_creator(self, game: Game, thread_id: int, deleted: bool) -> None:
        """Tell the creator of a lobby its topic refused why there is no table (nothing when
        they have no private chat with the bot: never a word in General)."""
        storage = self.service.storage
        try:
            t = private_translator(await storage.user_language(game.creator_id),
                                   game.language)
            topic = await storage.topic_name(game.chat_id, thread_id)
            names = {"game": title(t, game.game_name), "topic": named(shorten(topic or "", 40))}
            text = t(TOPIC_DELETED if deleted else TOPIC_CLOSED[bool(topic)], **names)
            await self.messenger.send(game.creator_id, text, None, None)
        except (Forbidden, BadRequest):
            pass  # no private chat with the bot: nothing said, anywhere
        except Exception:
            log.exception("telling the creator of game %s its topic refused it failed",
                          game.game_id)

