"""The match's winners cheered in private with a burst of 🎉, once each: whatever edits their
result message later (the group renamed, then a restart syncing the games closed lately) does
not cheer them again (QA: a second "You won the match" came in the middle of the next game)."""

from __future__ import annotations

import contextlib

from telegram import Bot
from telegram.constants import ParseMode
from telegram.error import TelegramError

from .. import wording
from ..i18n import Translator
from ..models import Game, Status

#: Telegram's 🎉 message effect, on the match's win in the winner's private chat (private
#: chats only: Telegram refuses effects elsewhere).
WIN_EFFECT = "5046509860389126442"


async def cheer(bot: Bot, game: Game, seat: int, t: Translator, place: str) -> None:
    """Tell the seat's player they won the match (``place``: which table, a player may be at
    two), when it is over, their side won it, and they were not told yet. Marked told before
    it goes (the game's messages, saved by the sync whose edit of their hand brought it): a
    lost cheer is better than a doubled one."""
    match = game.match
    user_id = game.players[seat].user_id
    if game.status is not Status.FINISHED or match is None or match.result is None \
            or match.result.winner is None or seat not in match.sides[match.result.winner] \
            or user_id in game.messages.cheered:
        return
    game.messages.cheered.append(user_id)
    with contextlib.suppress(TelegramError):
        words = wording.esc(t("🎉 You won the match. Well played!"))
        await bot.send_message(user_id, "\n".join(filter(None, [words, place])),
                               parse_mode=ParseMode.HTML, message_effect_id=WIN_EFFECT)
