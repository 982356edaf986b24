"""/scoreboard and /stats: who wins in a group, and one's own figures across groups."""

from __future__ import annotations

import time
from functools import partial

from telegram import Update
from telegram.constants import ChatType, ParseMode
from telegram.ext import ContextTypes

from ..errors import UserError
from ..presentation import lobbytexts
from ..presentation.boardtexts import (
    PICTURE_ROWS,
    board_heading,
    provisional_note,
    scoreboard_picture,
    scoreboard_text,
    stats_text,
)
from ..presentation.painter import Urgency
from ..service.scoreboards import parse_query
from .runtime import runtime
from .updates import anonymous, chat_tr, player_of

CAPTION_LIMIT = 1024
CAPTION_ROWS = 5


async def scoreboard_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The group's ranking as a picture, its top rows as the caption."""
    rt = runtime(context)
    chat, message = update.effective_chat, update.effective_message
    if chat is None or message is None:
        return
    settings = await rt.service.group_settings(chat.id)
    t = await chat_tr(update, rt, settings=settings)
    if chat.type == ChatType.PRIVATE:
        await message.reply_text(t("The scoreboard belongs to a group: type /scoreboard there."))
        return
    try:
        query = parse_query(context.args or [])
    except UserError as exc:  # (a filter not known: the games named in the group's language)
        await message.reply_text(t(exc.message, games=lobbytexts.games_list(t), **exc.params),
                                 parse_mode=ParseMode.HTML)  # (the word typed comes escaped)
        return
    board = await rt.service.scoreboard(chat.id, query.game, query.since(time.time()),
                                        include_computers=settings.rank_computers)
    in_topic = bool(message.is_topic_message)
    if not board.standings:
        await message.reply_text(scoreboard_text(t, board, in_topic=in_topic),
                                 parse_mode=ParseMode.HTML)
        return
    caption = scoreboard_text(t, board, CAPTION_ROWS, in_topic=in_topic)
    if len(caption) > CAPTION_LIMIT:  # (the picture's "?" still explained)
        caption = "\n".join([*board_heading(t, board),
                             *provisional_note(t, board.standings[:PICTURE_ROWS])])
    # Drawn in the painter's thread like every picture: FreeType's faces are shared, and
    # drawing on the event loop would hold it up.
    picture = await rt.pictures.drawn(
        partial(scoreboard_picture, t, board, theme=rt.pictures.theme), Urgency.HAND)
    await message.reply_photo(picture, caption=caption, parse_mode=ParseMode.HTML)


async def stats_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The user's own figures per game, across every group: in private in their own
    language, in a group in the group's (everyone there reads them)."""
    rt = runtime(context)
    user, message = update.effective_user, update.effective_message
    if user is None or message is None or await anonymous(update, rt):
        return
    t = await chat_tr(update, rt)
    stats = await rt.service.player_stats(user.id, player_of(user).name)
    await message.reply_text(stats_text(t, stats), parse_mode=ParseMode.HTML)
