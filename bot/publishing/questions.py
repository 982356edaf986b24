"""The questions a running game asks in the group (/stop's and /leave's "are you sure?"):
once the game is over nobody may answer them, so their buttons go."""

from __future__ import annotations

import logging

from telegram.error import BadRequest

from ..i18n import translator
from ..models import Game, Status
from .messenger import Draft, Messenger

log = logging.getLogger(__name__)


async def close_questions(messenger: Messenger, game: Game) -> bool:
    """Edit the game's unanswered questions to say it is over, without their buttons, once
    it is; whether any was (the caller saves the game's messages)."""
    messages = game.messages
    if game.status.open or not messages.questions:
        return False
    t = translator(game.language)
    text = t("The game was stopped.") if game.status is Status.STOPPED else t(
        "This game is over.")
    for message_id in list(messages.questions):
        try:
            await messenger.edit(game.chat_id, message_id, Draft("closed", text, None))
        except BadRequest:
            log.info("question %s of game %s could not be closed", message_id, game.game_id)
        if message_id in messages.questions:  # (unless answered meanwhile)
            messages.questions.remove(message_id)
    return True
