"""Command handlers: decode the command, call the game service, reply.

Every reply is a translated sentence; what a game changes reaches the chats through the
publisher, which the service wakes after each commit.
"""

from __future__ import annotations

import contextlib
import logging
import re
from dataclasses import replace
from itertools import takewhile

from telegram import (
    Message,
    ReplyParameters,
    Update,
    User,
)
from telegram.error import BadRequest, TelegramError
from telegram.ext import ContextTypes

from engine import OptionValueError, variant

from .. import wording
from ..errors import PrivateChatClosedError, UserError
from ..gamebook import read_game
from ..i18n import N_, Translator
from ..models import Game, Status
from ..presentation import keyboards, lobbytexts, returntexts
from ..publishing.groupsync import TABLE_REFUSED
from ..publishing.messenger import reply_target_gone
from ..publishing.tablerequests import NOT_IN_THE_GROUP
from ..service.lobby import NEXT_TABLE, NOTIFIED, already_there
from .returns import left_with_leave, left_words, offered_back, tables_of
from .runtime import Runtime, runtime
from .updates import (
    anonymous,
    as_group_admin,
    chat_tr,
    is_admin,
    is_group,
    open_table,
    remember,
    reply,
    thread_of,
    tr,
)

log = logging.getLogger(__name__)

OPTION_FORM = re.compile(r"([A-Za-z_0-9]{1,32})=([A-Za-z0-9-]{1,32})")
#: The highest whole number a group may type for an option the rules leave open (a match's
#: target): a match to a million points is already one nobody finishes.
TYPED_MAX = 1_000_000



async def newgame_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    rt = runtime(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    t = await chat_tr(update, rt)
    if not is_group(chat):
        await reply(update, t("Add me to a group and type /newgame there."))
        return
    if await anonymous(update, rt):  # nobody could start such a table
        return
    await remember(rt, user)
    args = context.args or []
    thread = thread_of(update.effective_message)  # a forum's topic holds its own game
    existing = rt.service.open_game_in(chat.id, thread)
    if existing is not None:
        found = read_game(args) if args else None
        await _already_open(update, rt, existing, None if found is None else found[0])
        return
    settings = await rt.service.group_settings(chat.id)
    if not args and settings.default_game is not None:
        args = [settings.default_game]
    if not args:
        picker = await reply(update, t("Which game?"),
                             reply_markup=keyboards.game_picker(t, user.id))
        if picker is not None:  # taken away as a table opens in the topic
            rt.pickers.posted(chat.id, thread, picker.message_id)
        return
    found = read_game(args)
    if found is None:  # quoted: the words before the options, the name they meant to write
        typed = " ".join(takewhile(lambda word: "=" not in word, args)) or args[0]
        await reply(update, t("I don't know the game {game}. I play: {games}.",
                              game=wording.quote(typed), games=lobbytexts.games_list(t)))
        return
    name, length = found
    options, refusal = read_options(t, name, args[length:])
    if refusal is None:
        try:
            await open_table(rt, chat, user, name, options, thread)
        except UserError as exc:
            existing = rt.service.open_game_in(chat.id, thread)
            if existing is not None:
                # A /newgame sent at the same moment opened it while this one waited for the
                # chat's lock: this sender reads what the first got, as if sent after it.
                await _already_open(update, rt, existing)
                return
            refusal = t(exc.message, **exc.params)
    if refusal is not None:
        await reply(update, refusal)


async def _already_open(update: Update, rt: Runtime, existing: Game,
                        wanted: str | None = None) -> None:
    """/newgame where a table is open (or a game is played): say so, replying to it; a lobby
    or table an admin deleted is posted again below the answer. ``wanted``: the game asked
    for, which its creator is told does not open while theirs waits (player QA: "press
    Start" alone read as if the new game had opened)."""
    t = await chat_tr(update, rt, existing)
    user = update.effective_user
    seat = existing.seat_of(user.id) if user is not None else None
    if existing.status is Status.LOBBY and seat is not None and user is not None \
            and user.id not in existing.pending:  # in it already (a rematch's must Join)
        target = existing.messages.lobby
        if user.id != existing.creator_id:
            text = t("You already have a seat at this table: its creator starts the game.")
        elif wanted is not None and wanted != existing.game_name:
            text = t("Your {game} table is still open: press Start on it, or Cancel it to "
                     "open {other} instead.", game=wording.title(t, existing.game_name),
                     other=wording.title(t, wanted))
        else:
            text = t("You opened this table: press Start on it when everyone is in.")
    elif existing.status is Status.LOBBY:
        target, text = existing.messages.lobby, t(already_there(existing))
    else:
        target, text = existing.messages.table_message, t(already_there(existing))
        if seat is None and user is not None:  # a guest: how to hear of the next table;
            # one whose seat a computer took while they were away: the way back (review)
            if rt.service.handed_while_away(existing, user.id) is not None:
                if await offered_back(rt, user.id, existing.chat_id):
                    text += " " + t(returntexts.TAKE_BACK_SENT)
            else:
                text += " " + t(NOTIFIED if await rt.service.notified(
                    existing.chat_id, existing.thread_id, user.id) else NEXT_TABLE)
    if target is None:
        await reply(update, text)
        return
    try:
        await reply(update, text, reply_parameters=ReplyParameters(target))
    except BadRequest as exc:
        if not reply_target_gone(exc):
            raise
        rt.message_gone(existing, lobby=existing.status is Status.LOBBY)
        await reply(update, text)


def read_options(
    t: Translator, game: str, words: list[str]
) -> tuple[dict[str, object], str | None]:
    """The options ``name=value`` a player typed after the game, or what is wrong with them:
    the option's name and what it allows."""
    spec = variant(game)
    options: dict[str, object] = {}
    for word in words:
        m = OPTION_FORM.fullmatch(word)
        if not m:
            return options, t("I could not read “{word}”: options are written name=value, "
                              "like {example}.", word=wording.quote(word),
                              example=lobbytexts.option_example(game))
        option = spec.option_spec(m.group(1).lower())
        if option is None:
            return options, t("{game} has no option {option}. Its options: {names}.",
                              game=wording.title(t, game), option=wording.quote(m.group(1)),
                              names=", ".join(spec.option_names))
        if option.low is not None and option.high is None:
            option = replace(option, high=TYPED_MAX)
        if option.name in options:  # which one was meant? Not silently the last
            return options, t("{option} is given twice: write it once.", option=option.name)
        try:
            options[option.name] = option.parse(m.group(2))
        except OptionValueError:
            if option.name == "set" and len(option.choices) == 1:  # Matador's: "set is 6."
                return options, t("{game} is played with the double-{n} set only.",
                                  game=wording.title(t, game), n=option.choices[0])
            return options, t("{option} is {allowed}.", option=option.name,
                              allowed=lobbytexts.allowed(t, game, option))
    return options, None


async def group_game(
    update: Update, context: ContextTypes.DEFAULT_TYPE
) -> tuple[Runtime, User, Game | None, Translator] | None:
    """For commands about the group's game: None (after saying why) outside a group."""
    rt = runtime(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return None
    if not is_group(chat):
        t = tr(update)  # (a call of t(...): the catalogues extract its words)
        await reply(update, "\n".join([t("This works in the group where the game is played."),
                                        *await tables_of(rt, t, user.id)]))
        return None
    game = rt.service.open_game_in(chat.id, thread_of(update.effective_message))
    return rt, user, game, await chat_tr(update, rt, game)


async def stop_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    found = await group_game(update, context)
    if found is None:
        return
    rt, user, game, t = found
    if game is None:
        await reply(update, t("No game is running here."))
        return
    if game.status is Status.LOBBY:  # nothing to stop yet: the lobby's Cancel closes it
        lobby = game.messages.lobby
        try:
            rt.service.check_may_cancel(game, user.id, as_group_admin(update) or (
                user.id != game.creator_id  # (no admin lookup for the creator)
                and await is_admin(context, game.chat_id, user.id)))
            answer = t("The game has not started yet. To close the table, press Cancel in "
                       "the lobby.")
        except UserError as exc:
            answer = t(exc.message, **exc.params)
        await reply(update, answer,
                    reply_parameters=ReplyParameters(lobby, allow_sending_without_reply=True)
                    if lobby else None)
        return
    try:
        rt.service.check_may_stop(game, user.id, as_group_admin(update)
                                  or await is_admin(context, game.chat_id, user.id))
    except UserError as exc:
        await reply(update, t(exc.message, **exc.params))
        return
    await _ask(rt, game, await reply(update, t("Stop the game? Nobody will win it."),
                                     reply_markup=keyboards.stop_confirmation(t, game)))


async def _ask(rt: Runtime, game: Game, question: Message | None) -> None:
    """Keep the question posted about a running game: it is closed when the game ends."""
    if question is not None:
        async with rt.locks.game(game.game_id):
            await rt.service.asked(game.game_id, question.message_id, question.chat_id)


#: /leave's question in a running game: what leaving does, and that it is for good (player
#: QA: one who left looked for a way back; "↩ Take my seat back" is for a seat handed on
#: while its player was away, never after /leave).
LEAVE_QUESTION = N_("Leave the game? A computer player will take your seat for the rest of the "
                    "match, and the match will count as lost for you. You cannot take the "
                    "seat back.")


async def leave_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/leave: quit the lobby at once, or a running game after a confirmation tap."""
    found = await group_game(update, context)
    if found is None:
        return
    rt, user, game, t = found
    if await anonymous(update, rt):
        return
    if game is None or game.seat_of(user.id) is None:
        await reply(update, t("You are not in a game here."))
        return
    if game.status is Status.LOBBY:
        refused: UserError | None = None
        async with rt.locks.game(game.game_id):
            try:
                await rt.service.leave(game, user.id)
            except UserError as exc:
                refused = exc
        if refused is not None:  # (said once the lock is free: a slow chat holds no lobby)
            await reply(update, t(refused.message, **refused.params))
        return
    await _ask(rt, game, await reply(
        update, t(LEAVE_QUESTION),
        reply_markup=keyboards.leave_confirmation(t, game, game.seat_of(user.id) or 0)))


async def hand_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    rt = runtime(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    if await anonymous(update, rt):
        return
    games = await rt.service.read_games_of_user(user.id)  # (a fleet worker may adopt one)
    if is_group(chat):
        games = [g for g in games if g.chat_id == chat.id]
    playing = [g for g in games if g.status is Status.PLAYING]
    if not playing:
        t = await chat_tr(update, rt)
        if await offered_back(rt, user.id, chat.id if is_group(chat) else None):
            if is_group(chat):
                await reply(update, t(returntexts.TAKE_BACK_SENT))
            return
        left = await left_with_leave(rt, user.id, chat.id if is_group(chat) else None)
        if left:  # which match, and that no way back leads there (player QA)
            await reply(update, "\n\n".join([await left_words(rt, t, game, user.id)
                                             for game in left]))
            return
        await reply(update, t("You are not playing a game right now."))
        return
    try:
        await rt.service.needs_private_chat(user.id, f"hand{playing[0].game_id}")
    except PrivateChatClosedError as closed:
        t = await chat_tr(update, rt, playing[0])
        await reply(update, t(closed.message, link=rt.private_link(closed.payload, user.id)))
        return
    for game in playing:
        await rt.resend_hand(game, rt.service.seat_of(game, user.id))


async def _keep_notice(rt: Runtime, game: Game, notice: Message, photos: bool = False
                       ) -> None:
    """The group's answer to /table that its table comes down in a few seconds (or, with
    ``photos``, that it cannot be shown, photos refused): kept with the game's messages
    (stored, for a restart or another worker to find), for the group's sync to delete once
    the table has come down, or once it never will (player QA: the notice stayed for good,
    even when the game stopped in the wait; QA: the photos' stayed, untrue, once photos were
    allowed and the table came); deleted at once when that happened while it was on its
    way."""
    tables = rt.publisher.tables
    async with rt.locks.game(game.game_id):
        # (the check and the append with no await between: a sync that brings the table
        # down either finds the id, or came first and this sees no table waiting/refused)
        kept = game.status is Status.PLAYING and game.chat_id == notice.chat_id and (
            tables.refused(game.game_id) == TABLE_REFUSED if photos
            else tables.waits(game.game_id))
        if kept:
            messages = game.messages
            (messages.photo_notices if photos else messages.table_notices).append(
                notice.message_id)
            try:
                await rt.service.save_messages(game)
            except Exception as exc:  # (in memory still: the next save of the game stores it)
                log.warning("saving game %s's /table notice %s failed: %r", game.game_id,
                            notice.message_id, exc)
    if not kept:
        with contextlib.suppress(TelegramError):
            await notice.delete()


async def table_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/table: the running game's table posted again at the bottom of its group, the old
    message retired; in private, the table of the game the player plays, or a button for
    each of their tables when they play at several."""
    rt = runtime(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    if is_group(chat):
        game = rt.service.open_game_in(chat.id, thread_of(update.effective_message))
        if game is None or game.status is not Status.PLAYING:
            t = await chat_tr(update, rt, game)
            await reply(update, t("No game is being played here: /newgame opens a table."))
            return
        refused = rt.publisher.tables.refused(game.game_id)
        # (told in private should the group refuse the post: no reply may go here then)
        wait = rt.table_down(game, user.id if refused in (None, *NOT_IN_THE_GROUP) else None)
        if refused in NOT_IN_THE_GROUP:  # no reply may go either
            return
        if refused is not None:  # the table is not there: why
            t = await chat_tr(update, rt, game)
            notice = await reply(update, t(refused))
            if notice is not None and refused == TABLE_REFUSED:  # (true until photos come)
                await _keep_notice(rt, game, notice, photos=True)
        elif wait > 0:  # posted again a moment ago: it comes when the gap ends
            t = await chat_tr(update, rt, game)
            notice = await reply(update, wording.table_coming_down(t, game.thread_id is not None))
            if notice is not None:
                await _keep_notice(rt, game, notice)
        return  # (otherwise the table itself is the answer)
    t = tr(update)
    playing = [g for g in rt.service.games_of_user(user.id) if g.status is Status.PLAYING]
    if not playing:
        await reply(update, t("You are not playing a game right now."))
        return
    if len(playing) > 1:  # one table a place: the person says which (tester: both came down)
        places = [(game, *await rt.place_of(game))
                  for game in sorted(playing, key=lambda g: g.game_id)]
        await reply(update, t("You are playing at more than one table. Which one should I "
                              "post again at the bottom?"),
                    reply_markup=keyboards.tables_picker(t, places))
        return
    refused = rt.publisher.tables.refused(playing[0].game_id)
    # (posted again a moment ago; told why should the group refuse it, unless told now)
    soon = rt.table_down(playing[0], user.id if refused is None else None) > 0
    if refused is not None:  # the group refuses its photos, or any message: not there
        await reply(update, t(refused))
    elif playing[0].thread_id is not None:
        await reply(update, t("Your table comes down to the bottom of its topic in a few "
                              "seconds.") if soon else
                    t("Your table is at the bottom of its topic now."))
    else:
        await reply(update, t("Your table comes down to the bottom of the group in a few "
                              "seconds.") if soon else
                    t("Your table is at the bottom of the group now."))
