"""The routes of every button but a hand's tiles: the pickers under a bare /newgame and
/rules, play again, the lobby, the table's "My tiles" and "Table", the questions a game asks
(stop, leave, hand a seat to a computer) and the /settings menu.

Each takes the decoded button and returns the tap's answer; :mod:`.buttons` routes the taps
here by family, :mod:`.tiletaps` serves the hand's tiles.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Message
from telegram.constants import ParseMode
from telegram.error import TelegramError

from .. import wording
from ..errors import GameOverError, SeatHandedOnError, SupersededError, UserError
from ..gamebook import GAMES
from ..i18n import N_, translator
from ..models import Game, Status
from ..presentation import lobbytexts, matchendtexts, returntexts
from ..presentation.composer import SEAT_HANDED
from ..presentation.gamebuttons import (
    AddComputer,
    LeaveAnswer,
    LobbyAction,
    LobbyTap,
    PickGame,
    PlayAgain,
    ReplaceAway,
    SettingTap,
    ShowHand,
    ShowRules,
    ShowTable,
    StopAnswer,
)
from ..publishing.messenger import LOBBY, TABLE
from ..storage import StorageUnavailableError
from .menu import setting_button
from .returns import offer_back
from .runtime import Runtime
from .taps import Answer, Context, game_named, in_background, is_current, translator_of
from .updates import (
    accessible,
    group_tr,
    is_admin,
    is_group,
    open_table,
    player_of,
    remember,
    retire_tapped,
    thread_of,
)

#: What a stray lobby or table message says once found (in the group's language).
STRAY = N_("This message is out of date: the table's newest message is below.")
#: The toast of a tap on the game picker of someone else's /newgame.
NOT_THE_ASKER = N_("Only the player who typed /newgame can pick the game.")
log = logging.getLogger(__name__)


async def _delete_quietly(query: CallbackQuery) -> None:
    await retire_tapped(query)


async def game_picked(rt: Runtime, context: Context, query: CallbackQuery, tap: PickGame
                      ) -> Answer:
    t = translator_of(query)
    chat = query.message.chat if query.message else None
    if chat is None or not is_group(chat) or tap.game not in GAMES:
        return t("That button is out of date."), None
    if query.from_user.id != tap.asker:  # the table would be the tapper's, not the asker's
        return t(NOT_THE_ASKER), None
    await remember(rt, query.from_user)
    thread = thread_of(query.message)
    if query.message is not None:  # (taken away below, once)
        rt.pickers.tapped(chat.id, thread, query.message.message_id)
    try:  # (a refusal, UserError, is the tapper's toast)
        await open_table(rt, chat, query.from_user, tap.game, {}, thread)
    except UserError:
        if rt.service.open_game_in(chat.id, thread) is not None:
            await _delete_quietly(query)  # a table is open in its topic: no use any more
        raise
    await _delete_quietly(query)  # the picker has done its job (one posted before a restart)
    return None, None


async def rules_asked(rt: Runtime, context: Context, query: CallbackQuery, tap: ShowRules
                      ) -> Answer:
    """A game's rules, as a message of their own in the chat of the picker."""
    t = translator_of(query)
    if tap.game not in GAMES or query.message is None:
        return t("That button is out of date."), None
    chat, house = query.message.chat, None
    table = None
    if is_group(chat):  # posted for the group to read, with its house rules (or the
        # options of the table open there, when it plays that game)
        settings = await rt.service.group_settings(chat.id)
        t = await group_tr(rt, chat.id, query.from_user, settings=settings)
        house = settings.game_options(tap.game)
        table = rt.service.open_game_in(chat.id, thread_of(query.message))
    text = lobbytexts.game_rules_text(t, tap.game, table, house)
    if accessible(query.message):  # a reply stays in the picker's forum topic
        await query.message.reply_text(text, parse_mode=ParseMode.HTML)
    else:  # a picker days old: Telegram no longer says which topic it is in
        await query.get_bot().send_message(chat.id, text, parse_mode=ParseMode.HTML)
    return None, None


async def again_tapped(rt: Runtime, context: Context, query: CallbackQuery, tap: PlayAgain
                       ) -> Answer:
    """A rematch: the same table again, its players asked to confirm. A stale button (a
    newer game played since) is refused and taken off its message, after the answer."""
    old, user, t = await game_named(rt, tap.game_id, query), query.from_user, translator_of(query)
    try:
        async with rt.locks.chat(old.chat_id):
            lobby = rt.service.open_game_in(old.chat_id, old.thread_id)
            if lobby is None or not rt.service.is_rematch(lobby, old):
                await rt.service.rematch(old, player_of(user))
                in_background(rt.retire_pickers(old.chat_id, old.thread_id),
                              f"pickers-{query.id}")  # (not under the lock, nor the toast)
                return t("A new table is open: the others press Join to play again."), None
            # Another player opened it first: this tap takes a seat there, as Join would.
            async with rt.locks.game(lobby.game_id):
                await rt.service.rematch(old, player_of(user))
    except SupersededError:
        # In the background: the edit waits its turn in the group's budget of messages, the
        # toast (which says why) does not wait for it.
        if accessible(query.message):
            in_background(_take_buttons_off(rt, query.message), f"unbutton-{query.id}")
        raise
    except UserError:
        running = _played_on(rt, old, query)
        if running is None:
            raise
        # An old hand's Play again tapped in private while the next game is played there
        # (its sync takes these off as that game starts: a tap came first, or one not
        # known): the button goes, and a player of that game is told where their tiles are.
        in_background(_unbutton_private(rt, query), f"unbutton-{query.id}")
        if running.seat_of(user.id) is None:
            raise
        return t(PLAYING_ON), None
    return t("You joined the game."), None


#: An old match's Play again tapped in private by a player of the game since begun there.
PLAYING_ON = N_("The new match is on and you are at its table: your tiles are in the newest "
                "message (/hand sends them again).")


def _played_on(rt: Runtime, old: Game, query: CallbackQuery) -> Game | None:
    """The game being played where ``old`` was, when the tap that would play ``old`` again
    came from a private chat (an old hand's Play again); else None."""
    message = query.message
    if message is None or message.chat.id != query.from_user.id:
        return None
    running = rt.service.open_game_in(old.chat_id, old.thread_id)
    return running if running is not None and running.status is Status.PLAYING \
        and running.game_id > old.game_id else None


async def _unbutton_private(rt: Runtime, query: CallbackQuery) -> None:
    """The tapped private message's buttons off, its words kept (Telegram unanswered
    changes nothing: a tap there is answered the same again)."""
    message = query.message
    if message is None:
        return
    try:
        await rt.publisher.messenger.unbutton(message.chat.id, message.message_id)
    except TelegramError as error:
        log.debug("an old hand's Play again kept its button: %s", error)


async def _take_buttons_off(rt: Runtime, message: Message) -> None:
    """A stale result's buttons off its message, and the line that points to them; Telegram
    unanswered changes nothing (the toast has said why, and a tap there is refused again)."""
    caption = message.caption_html if message.caption else None
    try:
        await rt.publisher.messenger.unbutton(
            message.chat.id, message.message_id,
            None if caption is None else matchendtexts.without_play_again(caption))
    except TelegramError as error:
        log.debug("a stale Play again kept its button: %s", error)


async def settings_tapped(rt: Runtime, context: Context, query: CallbackQuery, tap: SettingTap
                          ) -> Answer:
    return await setting_button(rt, context, query, tap), None


async def lobby_tapped(rt: Runtime, context: Context, query: CallbackQuery,
                       tap: LobbyTap | AddComputer) -> Answer:
    game = await game_named(rt, tap.game_id, query)
    user, t = query.from_user, translator_of(query)
    if not await is_current(rt, query, game, LOBBY, translator(game.language)(STRAY)):
        return t("That message is out of date: use the newest one."), None
    async with rt.locks.game(game.game_id):
        if isinstance(tap, AddComputer):
            added = await rt.service.add_computer(game, user.id, tap.level)
            return t("{name} takes a seat.", name=wording.isolated(added.name)), None
        if tap.action is LobbyAction.JOIN:
            await remember(rt, user)
            await rt.service.take_seat(game, player_of(user))
            return t("You joined the game."), None
        if tap.action is LobbyAction.LEAVE:
            await rt.service.leave(game, user.id)
            return t("You left the game."), None
        if tap.action is LobbyAction.CANCEL:
            await rt.service.cancel(game, user.id, await is_admin(context, game.chat_id, user.id))
            return t("The table is closed."), None
        if tap.action is LobbyAction.REMOVE_COMPUTER:
            await rt.service.remove_computer(game, user.id)
            return t("A computer player left the table."), None
        if tap.action is LobbyAction.OTHER_PAIRS:
            await rt.service.other_pairs(game, user.id)
            return t("New pairs: see the table."), None
        if tap.action is LobbyAction.FREE_SEATS:
            freed = await rt.service.free_unconfirmed(game, user.id)
            names = wording.toast_names(freed)
            return t.plural("Seat freed: {names}. Others can Join now, or add a computer "
                            "player (🤖).",
                            "Seats freed: {names}. Others can Join now, or add computer "
                            "players (🤖).", len(freed), names=names), None
        await rt.service.start(game, user.id)
    await give_language(rt, game)  # (the chat's lock: not in the game's)
    return t("Let's play!"), None


async def give_language(rt: Runtime, game: Game) -> None:
    """The table started (committed): a group with no language yet takes its language
    (:meth:`bot.service.chats.Chats.table_started`). Its write failing costs that alone (the
    group's next table to start gives it one), not the Start tap's "Let's play!": an error
    there read as a game that did not start (review)."""
    try:
        await rt.service.table_started(game, rt.locks)
    except StorageUnavailableError as away:  # (its outage is told by the engine: one line)
        log.warning("game %s: its group's language not stored: %s", game.game_id, away)
    except Exception:
        log.exception("game %s: storing its group's language failed", game.game_id)


async def replace_tapped(rt: Runtime, context: Context, query: CallbackQuery, tap: ReplaceAway
                         ) -> Answer:
    """Hand an away player's seat to a computer player (the creator or an admin; anyone still
    playing when the creator is the one away or gone: bot.service.seats.Seats.replace_away)."""
    user = query.from_user
    game = await game_named(rt, tap.game_id, query)
    admin = await is_admin(context, game.chat_id, user.id)
    async with rt.locks.game(game.game_id):
        away = game.players[tap.seat] if 0 <= tap.seat < len(game.players) else None
        newcomer = await rt.service.replace_away(game, user.id, admin, tap.seat)
        await _answered(rt, query, game)  # (the game's end has no buttons to take off it)
    # The question is answered: deleted, as /stop's and /leave's are, since the group's
    # announcement says what became of it (player QA: the offer edited to say so and the
    # announcement were the same news twice). Past the 48 hours a bot may delete it, its
    # words say so instead: its "can hand the seat" would read as still open.
    await retire_tapped(query, translator(game.language)(
        SEAT_HANDED, name=wording.who(away) if away else "?",
        computer=wording.named(newcomer.name)))
    t = translator_of(query)
    return t("A computer player takes the seat."), None


async def stop_tapped(rt: Runtime, context: Context, query: CallbackQuery, tap: StopAnswer
                      ) -> Answer:
    game = await game_named(rt, tap.game_id, query)
    user, t = query.from_user, translator_of(query)
    admin = await is_admin(context, game.chat_id, user.id)
    rt.service.check_may_stop(game, user.id, admin)
    async with rt.locks.game(game.game_id):
        if tap.confirm:  # (a game that ended meanwhile refuses: its end closes the question)
            await rt.service.stop(game, user.id, admin,
                                  by=wording.mention(user.id, player_of(user).name))
        await _answered(rt, query, game)
    await _delete_quietly(query)
    return t("The game is stopped.") if tap.confirm else t("The game goes on."), None


async def leave_tapped(rt: Runtime, context: Context, query: CallbackQuery, tap: LeaveAnswer
                       ) -> Answer:
    game = await game_named(rt, tap.game_id, query)
    user, t = query.from_user, translator_of(query)
    async with rt.locks.game(game.game_id):
        # A second tap, "Yes" or "No", on a question whose "Yes" was taken: the leave is done.
        if rt.service.has_left(game, user.id, tap.seat):
            return t("You have left this game."), None
        if tap.confirm:
            await rt.service.quit(game, user.id, asked_seat=tap.seat)
        else:
            rt.service.check_asked(game, user.id, tap.seat)
        await _answered(rt, query, game)
    await _delete_quietly(query)
    return (t("You left the game.") if tap.confirm else t("The game goes on.")), None


async def _answered(rt: Runtime, query: CallbackQuery, game: Game) -> None:
    """The question tapped is answered: it is deleted, so the game's end has nothing to
    close there."""
    if query.message is not None:
        await rt.service.answered(game, query.message.message_id)


async def hand_asked(rt: Runtime, context: Context, query: CallbackQuery, tap: ShowHand
                     ) -> Answer:
    game = await game_named(rt, tap.game_id, query)
    user, t = query.from_user, translator_of(query)
    try:
        seat = rt.service.playing_seat(game, user.id)
    except SeatHandedOnError as handed:  # away, a computer took the seat: the way back
        if handed.seat is None:
            raise
        await rt.service.needs_private_chat(user.id, f"hand{game.game_id}")  # (/start offers)
        if not await offer_back(rt, game, user.id, handed.seat):
            raise
        return t(returntexts.TAKE_BACK_SENT), None
    if not await is_current(rt, query, game, TABLE, translator(game.language)(STRAY)):
        return t("That message is out of date: use the newest one."), None
    await rt.service.needs_private_chat(user.id, f"hand{game.game_id}")
    await rt.resend_hand(game, seat)
    return t("I sent your tiles to our private chat."), None


async def table_asked(rt: Runtime, context: Context, query: CallbackQuery, tap: ShowTable
                      ) -> Answer:
    """"Table": the game's table posted again at the bottom of the group (or its topic);
    from the group, anyone there may ask, from a private hand only its player. Not when the
    table is the newest message there (as far as a bot seen to read the group's every message
    knows), and not twice in a moment."""
    t = translator_of(query)
    game = await game_named(rt, tap.game_id, query)
    message = query.message
    if message is None or message.chat.id != game.chat_id:
        rt.service.playing_seat(game, query.from_user.id)  # a hand's: its player's game
    elif not await is_current(rt, query, game, TABLE, translator(game.language)(STRAY)):
        return t("That message is out of date: use the newest one."), None
    if game.status is not Status.PLAYING:
        raise GameOverError()
    refused = rt.publisher.tables.refused(game.game_id)
    if refused is not None:  # the group refuses its photos, or (asked in private) any message
        rt.table_down(game)  # (tried again now, and down below once the group takes it)
        return t(refused), None
    topic = game.thread_id is not None
    # Pressed again and again: nothing to do. Only where the bot is seen to read every message
    # (privacy mode off when it joined, or an admin): elsewhere people talk below it unseen.
    if rt.publisher.group.reposts.table_is_last(game):
        return (t("The table is already the last message in the topic, as far as I can see. "
                  "To post it again anyway, send /table.") if topic else
                t("The table is already the last message in the group, as far as I can see. "
                  "To post it again anyway, send /table.")), None
    # Answered before the post is tried: should the group refuse it, the tapper hears why in
    # private. Posted again a moment ago: once more when its time is up.
    if rt.table_down(game, query.from_user.id) > 0:
        return wording.table_coming_down(t, topic), None
    return (t("The table is at the bottom of the topic now.") if topic
            else t("The table is at the bottom of the group now.")), None

