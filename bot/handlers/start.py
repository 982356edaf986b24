"""/start in the private chat: it opens the chat the hands go to, and its deep links join
a table, send a player's tiles again, or let /notify go on."""

from __future__ import annotations

import re

from telegram import Update
from telegram.ext import ContextTypes

from ..errors import SeatHandedOnError, UserError
from ..i18n import N_, Translator
from ..models import Game, Status
from ..presentation import keyboards, lobbytexts
from ..service.lobby import NOTIFY_LINKS
from ..wording import named, shorten
from .returns import offer_back
from .runtime import Runtime, runtime
from .updates import is_group, player_of, private_sender, reply
from .welcome import ADDED_PAYLOAD

#: A deep link's table number as the bot writes it: no leading zero, at most 18 digits.
TABLE_NUMBER = r"{}([1-9][0-9]{{0,17}})"
#: /start from someone seated at a table not started yet (its link, or a plain /start).
SEATED_IN = N_("You have a seat at the table in {group}: your tiles will come here when the "
               "game starts.")
SEATED = N_("You have a seat at the table: your tiles will come here when the game starts.")


async def seated_text(rt: Runtime, t: Translator, lobbies: list[Game]) -> str:
    """What /start says to someone seated at ``lobbies`` (not started yet): where, so that a
    /start sent while waiting reads as the seat it is, not as a newcomer's greeting (QA)."""
    lines = []
    for lobby in lobbies:
        group = (await rt.place_of(lobby))[0]
        lines.append(t(SEATED_IN, group=named(shorten(group, 64))) if group else t(SEATED))
    return "\n".join(dict.fromkeys(lines))  # (two tables in groups not named: said once)


async def start_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start in private: opens the chat hands go to; deep links join a table or resend tiles."""
    rt = runtime(context)
    chat = update.effective_chat
    if (context.args == [ADDED_PAYLOAD] and chat is not None and is_group(chat)
            and not rt.welcomes.due(chat.id)):
        return  # the "Add me to a group" link: its help was posted as the bot arrived
    sender = await private_sender(update, rt, lobbytexts.help_text)
    if sender is None:
        return
    user, t = sender
    given = rt.start_links.take(user.id)  # a link just handed out, opened by hand instead
    payload = context.args[0] if context.args else given
    if payload in NOTIFY_LINKS:  # from /notify's button: the chat is open, /notify can go on
        topic = payload == NOTIFY_LINKS[1]
        await reply(update, t(lobbytexts.NOTIFY_CHAT_OPEN_TOPIC if topic
                              else lobbytexts.NOTIFY_CHAT_OPEN))
        return
    resent = await rt.resend_unreached(user.id)
    await rt.service.reach_changed_everywhere(user.id, rt.locks)
    if payload.startswith(("join", "hand")) and not re.fullmatch(
        TABLE_NUMBER.format(payload[:4]), payload
    ):
        await reply(update, t("That link does not name a table: tap Join or “My tiles” in "
                              "the group instead."))
        return
    if m := re.fullmatch(TABLE_NUMBER.format("join"), payload):
        lobby = rt.service.game(int(m.group(1)))
        seat = lobby.seat_of(user.id) if lobby is not None else None
        if lobby is not None and lobby.status is Status.PLAYING and seat is not None:
            # the lobby's link followed after Start by someone seated: the game is theirs
            await rt.resend_hand(lobby, seat)
            return
        if lobby is not None and lobby.status is Status.PLAYING and lobby.played_by(user.id) \
                and await _seat_or_why(update, rt, t, lobby, user.id) is None:
            return  # (player QA: one who left was told the table "started without you")
        if lobby is not None and lobby.status is Status.PLAYING:
            await reply(update, t("That table has started without you. When its game is "
                                  "over, anyone can open the next one with /newgame."))
            return
        if lobby is None or lobby.status is not Status.LOBBY:
            await reply(update, t(
                "That table is no longer open. Ask the group to open another with /newgame."
            ))
            return
        refused: UserError | None = None
        async with rt.locks.game(lobby.game_id):
            try:
                if lobby.seat_of(user.id) is None or user.id in lobby.pending:
                    await rt.service.join(lobby, player_of(user))
            except UserError as exc:
                refused = exc
        if refused is not None:  # (said once the lock is free: a slow chat holds no lobby)
            await reply(update, t(refused.message, **refused.params))
            return
        await reply(update, await seated_text(rt, t, [lobby]))
        return
    if m := re.fullmatch(TABLE_NUMBER.format("hand"), payload):
        playing = rt.service.game(int(m.group(1)))
        if playing is not None and playing.status is Status.PLAYING and (
                playing.played_by(user.id)):
            # (a computer took their seat: they are told so, not greeted as new)
            if (seat := await _seat_or_why(update, rt, t, playing, user.id)) is not None:
                await rt.resend_hand(playing, seat)
            return
    seated = [(game, seat) for game in rt.service.games_of_user(user.id)
              if game.status is Status.PLAYING and (seat := game.seat_of(user.id)) is not None]
    if seated:  # back in private mid-game (an unblock, a chat cleared): their tiles, not a
        for game, seat in seated:  # newcomer's greeting
            if game.game_id not in resent:
                await rt.resend_hand(game, seat)
        return
    waiting = [game for game in rt.service.games_of_user(user.id)
               if game.status is Status.LOBBY and user.id not in game.pending]
    if waiting:  # seated at a table not started yet (QA: greeted as a newcomer)
        await reply(update, await seated_text(rt, t, waiting))
        return
    if await told_why_left(update, rt, t, user.id):
        return
    await reply(update, t("Hello! Add me to a group and type /newgame there. "
                          "Your tiles will come to you here, in private."),
                reply_markup=keyboards.add_to_group(t, rt.bot_username))


async def told_why_left(update: Update, rt: Runtime, t: Translator, user_id: int) -> bool:
    """To someone seated nowhere whose seat in a match under way a computer took: why no
    tiles come (:func:`_why_no_tiles`: the way back, or the reason there is none); whether
    there was such a match."""
    left = await rt.service.read_games_left_by(user_id)  # (a fleet worker may adopt one)
    return bool(left) and await _seat_or_why(update, rt, t, left[0], user_id) is None


async def _seat_or_why(update: Update, rt: Runtime, t: Translator, game: Game, user_id: int
                       ) -> int | None:
    """The seat of ``user_id`` at ``game``; else None, and they are told why no tiles come
    from it (:func:`_why_no_tiles`: the way back, or the reason there is none)."""
    try:
        return rt.service.seat_of(game, user_id)
    except UserError as exc:  # their seat went to a computer: what they may do
        await _why_no_tiles(update, rt, t, game, exc)
        return None


async def _why_no_tiles(update: Update, rt: Runtime, t: Translator, game: Game,
                        refusal: UserError) -> None:
    """Why no tiles come from ``game``: a computer took the seat. When it was handed on
    while they were away and they may take it back, the way back (its button), else why."""
    seat = refusal.seat if isinstance(refusal, SeatHandedOnError) else None
    user = update.effective_user
    if seat is None or user is None or not await offer_back(rt, game, user.id, seat):
        await reply(update, t(refusal.message, **refusal.params))
