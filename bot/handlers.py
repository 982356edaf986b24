"""Telegram handlers: decode the update, call the game service, ask for a sync, answer.

Every callback query is answered exactly once, with a short toast when refused.
"""

from __future__ import annotations

import contextlib
import logging
import re
from dataclasses import replace

from telegram import CallbackQuery, Chat, Message, ReplyParameters, Update, User
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from engine import BadInputError, PlayerView, player_view

from . import keyboards, texts
from .admins import admins_of
from .callbacks import Button, Kind, decode
from .errors import UserError
from .games import COMPUTER_LEVELS, GAMES, REPLACEMENT_LEVEL, Game, Player, Status
from .i18n import DEFAULT_LANGUAGE, Translator, pick_language, translator
from .menu import group_settings, setting_button
from .runtime import Runtime, runtime

log = logging.getLogger(__name__)

GAME_ALIASES = {
    "gaple": "gaple", "gaple-dead": "gaple-dead", "dead": "gaple-dead", "gapledead": "gaple-dead",
    "pair": "pair", "pairs": "pair",
}
OPTION_FORM = re.compile(r"^([a-z_0-9]+)=([A-Za-z0-9-]+)$")


def player_of(user: User) -> Player:
    return Player(user.id, texts.short_name(user.full_name or user.username or str(user.id)))


def tr(update: Update, rt: Runtime | None = None, game: Game | None = None) -> Translator:
    """Group messages speak the game's language; private ones the user's own."""
    chat = update.effective_chat
    if game is not None and chat is not None and chat.type != ChatType.PRIVATE:
        return translator(game.language)
    user = update.effective_user
    return translator(user.language_code if user else None)


def is_group(chat: Chat | None) -> bool:
    return chat is not None and chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


async def remember(rt: Runtime, user: User, private_ok: bool | None = None) -> None:
    await rt.storage.remember_user(
        user.id, player_of(user).name, user.username, user.language_code, private_ok
    )


async def is_admin(context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int) -> bool:
    return user_id in await admins_of(context, chat_id)


async def reply(update: Update, text: str, **kwargs: object) -> None:
    message = update.effective_message
    if message is not None:
        await message.reply_text(text, parse_mode=ParseMode.HTML, **kwargs)  # type: ignore[arg-type]


# --- commands ------------------------------------------------------------------------------
async def start_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start in private: opens the chat hands go to; deep links join a table or resend tiles."""
    rt = runtime(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    t = tr(update)
    if chat.type != ChatType.PRIVATE:
        await reply(update, texts.help_text(t))
        return
    await remember(rt, user, private_ok=True)
    payload = context.args[0] if context.args else ""
    for game in rt.service.games_of_user(user.id):
        seat = game.seat_of(user.id)
        if seat is not None and seat in game.messages.unreachable:
            await rt.publisher.resend_hand(game, seat)
    if m := re.fullmatch(r"join(\d{1,18})", payload):
        lobby = rt.service.game(int(m.group(1)))
        if lobby is None or lobby.status is not Status.LOBBY:
            await reply(update, t(
                "That table is no longer open. Ask the group to open another with /newgame."
            ))
            return
        async with rt.locks.game(lobby.game_id):
            try:
                await rt.service.join(lobby, player_of(user))
            except UserError as exc:
                await reply(update, t(exc.message, **exc.params))
                return
        await reply(update, t("You have a seat at the table. Your tiles will come here."))
        return
    if m := re.fullmatch(r"hand(\d{1,18})", payload):
        playing = rt.service.game(int(m.group(1)))
        seat = playing.seat_of(user.id) if playing else None
        if playing is not None and seat is not None and playing.status is Status.PLAYING:
            await rt.publisher.resend_hand(playing, seat)
            return
    await reply(update, t("Hello! Add me to a group and type /newgame there. "
                          "Your tiles will come to you here, in private."))


async def newgame_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    rt = runtime(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    t = tr(update)
    if not is_group(chat):
        await reply(update, t("Add me to a group and type /newgame there."))
        return
    await remember(rt, user)
    args = context.args or []
    existing = rt.service.open_game_in(chat.id)
    if existing is not None:
        target = existing.messages.table or existing.messages.lobby
        t = translator(existing.language)
        await reply(update, t("A game is already running in this chat."),
                    reply_parameters=ReplyParameters(target, allow_sending_without_reply=True)
                    if target else None)
        return
    settings = await group_settings(rt, chat.id)
    if not args and settings.default_game is not None:
        args = [settings.default_game]
    if not args:
        await reply(update, t("Which game?"), reply_markup=keyboards.game_picker(t))
        return
    name = GAME_ALIASES.get(args[0].lower())
    if name is None:
        await reply(update, t("I don't know the game {game}. I play: {games}.",
                              game=texts.esc(args[0]), games=", ".join(GAMES)))
        return
    options: dict[str, object] = {}
    for arg in args[1:]:
        m = OPTION_FORM.match(arg)
        if not m:
            await reply(update, t("Options are written name=value, like target=150."))
            return
        options[m.group(1)] = _option_value(m.group(2))
    refusal = await create_game(rt, chat, user, name, options)
    if refusal is not None:
        await reply(update, refusal)


def _option_value(text: str) -> object:
    if text.isdigit():
        return int(text)
    return {"true": True, "false": False, "on": True, "off": False}.get(text.lower(), text)


async def create_game(
    rt: Runtime, chat: Chat, user: User, name: str, options: dict[str, object]
) -> str | None:
    """Open a table with the group's settings (``options`` win); returns a refusal, or None."""
    settings = await group_settings(rt, chat.id)
    if settings.language is None:
        # A group speaks the language of whoever opened its first table, until /settings.
        settings = replace(settings, language=pick_language(user.language_code))
        await rt.storage.save_chat_settings(chat.id, settings.to_json())
    language = settings.language or DEFAULT_LANGUAGE
    t = translator(language)
    merged = settings.game_options(name) | options
    async with rt.locks.chat(chat.id):
        try:
            await rt.service.create(chat.id, player_of(user), name, language, merged,
                                    settings.turn_seconds)
        except UserError as exc:
            return t(exc.message, **exc.params)
        except BadInputError:
            return t("Those options are not valid for this game.")
    return None


async def group_game(
    update: Update, context: ContextTypes.DEFAULT_TYPE
) -> tuple[Runtime, User, Game | None, Translator] | None:
    """For commands about the group's game: None (after saying why) outside a group."""
    rt = runtime(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return None
    if not is_group(chat):
        t = tr(update)
        await reply(update, t("This works in the group where the game is played."))
        return None
    game = rt.service.open_game_in(chat.id)
    return rt, user, game, tr(update, rt, game)


async def stop_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    found = await group_game(update, context)
    if found is None:
        return
    _, user, game, t = found
    if game is None:
        await reply(update, t("No game is running here."))
        return
    if user.id != game.creator_id and not await is_admin(context, game.chat_id, user.id):
        await reply(update, t("Only the game's creator or a group admin can stop it."))
        return
    await reply(update, t("Stop the game? Nobody will win it."),
                reply_markup=keyboards.stop_confirmation(t, game))


async def leave_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/leave: quit the lobby at once, or a running game after a confirmation tap."""
    found = await group_game(update, context)
    if found is None:
        return
    rt, user, game, t = found
    if game is None or game.seat_of(user.id) is None:
        await reply(update, t("You are not in a game here."))
        return
    if game.status is Status.LOBBY:
        async with rt.locks.game(game.game_id):
            try:
                await rt.service.leave(game, user.id)
            except UserError as exc:
                await reply(update, t(exc.message, **exc.params))
        return
    await reply(update, t("Leave the game? A computer player will take your seat."),
                reply_markup=keyboards.leave_confirmation(t, game, game.seat_of(user.id) or 0))


async def hand_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    rt = runtime(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    games = rt.service.games_of_user(user.id)
    if is_group(chat):
        games = [g for g in games if g.chat_id == chat.id]
    playing = [g for g in games if g.status is Status.PLAYING]
    if not playing:
        t = tr(update)
        await reply(update, t("You are not playing a game right now."))
        return
    if not await rt.storage.private_ok(user.id):
        t = tr(update)
        link = keyboards.deep_link(rt.publisher.bot_username, f"hand{playing[0].game_id}")
        await reply(update, t("Open {link} and press Start: then I can send you your tiles.",
                              link=link))
        return
    for game in playing:
        seat = game.seat_of(user.id)
        assert seat is not None
        await rt.publisher.resend_hand(game, seat)


async def rules_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    t = tr(update)
    args = context.args or []
    name = GAME_ALIASES.get(args[0].lower()) if args else None
    names = [name] if name else list(GAMES)
    await reply(update, "\n\n".join(texts.rules_text(t, n) for n in names))


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await reply(update, texts.help_text(tr(update)))


async def membership_handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot was removed from a group: its game ends with no result, nothing more is sent.
    A user who blocks or unblocks the bot in private is remembered for the Join link."""
    change = update.my_chat_member
    if change is None:
        return
    rt = runtime(context)
    gone = change.new_chat_member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
    if change.chat.type == ChatType.PRIVATE:
        await rt.storage.set_private_ok(change.chat.id, not gone)
        return
    game = rt.service.open_game_in(change.chat.id)
    if gone and game is not None:
        async with rt.locks.game(game.game_id):
            await rt.service.abandon(game)


async def migrate_handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A group became a supergroup: its game follows it to the new chat id."""
    message = update.effective_message
    if message is None or not message.migrate_to_chat_id:
        return
    rt = runtime(context)
    await rt.service.migrate_chat(message.chat.id, message.migrate_to_chat_id)


# --- buttons -------------------------------------------------------------------------------
async def button_handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None:
        return
    rt = runtime(context)
    t = translator(query.from_user.language_code)
    toast: str | None = None
    url: str | None = None
    try:
        button = decode(query.data)
        if button is None:
            toast = t("That button is out of date.")
        else:
            toast, url = await route(rt, context, query, button)
    except UserError as exc:
        toast = t(exc.message, **exc.params)
    except Exception:
        log.exception("button %r failed", query.data)
        toast = t("Something went wrong. Please try again.")
    await query.answer(text=toast, url=url)


async def route(
    rt: Runtime, context: ContextTypes.DEFAULT_TYPE, query: CallbackQuery, button: Button
) -> tuple[str | None, str | None]:
    user = query.from_user
    t = translator(user.language_code)
    if button.kind is Kind.PICK_GAME:
        chat = query.message.chat if query.message else None
        if chat is None or not is_group(chat) or button.word not in GAMES:
            return t("That button is out of date."), None
        await remember(rt, user)
        refusal = await create_game(rt, chat, user, button.word, {})
        if refusal is None:
            await _delete_quietly(query)  # the picker has done its job
        return refusal, None
    if button.kind is Kind.SETTING:
        return await setting_button(rt, context, query, button), None
    game = rt.service.game(button.game_id)
    if game is None:
        return t("That button is out of date."), None
    if button.kind in (Kind.LEAVE_YES, Kind.LEAVE_NO):
        return await leave_button(rt, query, user, game, button), None
    if button.kind is Kind.REPLACE:
        return await replace_button(rt, context, query, user, game, button), None
    if button.kind in (Kind.JOIN, Kind.LEAVE, Kind.START, Kind.CANCEL, Kind.ADD_COMPUTER,
                       Kind.REMOVE_COMPUTER):
        return await lobby_button(rt, context, user, game, button)
    if button.kind in (Kind.STOP_YES, Kind.STOP_NO):
        return await stop_button(rt, context, query, user, game, button), None
    seat = game.seat_of(user.id)
    if seat is None:
        return t("You are not playing in this game."), None
    if button.kind is Kind.HAND:
        if game.status is not Status.PLAYING:
            return t("This game is over."), None
        if not await rt.storage.private_ok(user.id):
            return None, keyboards.deep_link(rt.publisher.bot_username, f"hand{game.game_id}")
        await rt.publisher.resend_hand(game, seat)
        return t("I sent your tiles to our private chat."), None
    return await hand_button(rt, query, user, game, seat, button), None


async def lobby_button(
    rt: Runtime, context: ContextTypes.DEFAULT_TYPE, user: User, game: Game, button: Button
) -> tuple[str | None, str | None]:
    t = translator(user.language_code)
    async with rt.locks.game(game.game_id):
        if button.kind is Kind.JOIN:
            await remember(rt, user)
            if not await rt.storage.private_ok(user.id):
                # Hands go to the private chat: open it first; /start there takes the seat.
                return None, keyboards.deep_link(rt.publisher.bot_username, f"join{game.game_id}")
            await rt.service.join(game, player_of(user))
            toast = t("You joined the game.")
        elif button.kind is Kind.LEAVE:
            await rt.service.leave(game, user.id)
            toast = t("You left the game.")
        elif button.kind is Kind.CANCEL:
            admin = await is_admin(context, game.chat_id, user.id)
            await rt.service.cancel(game, user.id, admin)
            toast = t("The table is closed.")
        elif button.kind is Kind.ADD_COMPUTER:
            if not 0 <= button.move_no < len(COMPUTER_LEVELS):
                return t("That button is out of date."), None
            added = await rt.service.add_computer(game, user.id, COMPUTER_LEVELS[button.move_no])
            toast = t("{name} takes a seat.", name=added.name)
        elif button.kind is Kind.REMOVE_COMPUTER:
            await rt.service.remove_computer(game, user.id)
            toast = t("A computer player left the table.")
        else:
            if user.id == game.creator_id:
                missing = [
                    p.name for p in game.players
                    if not p.is_computer and not await rt.storage.private_ok(p.user_id)
                ]
                if missing:
                    return t("Waiting for {names} to open a private chat with me.",
                             names=", ".join(missing)), None
            await rt.service.start(game, user.id)
            toast = t("Let's play!")
    return toast, None


async def replace_button(
    rt: Runtime, context: ContextTypes.DEFAULT_TYPE, query: CallbackQuery, user: User,
    game: Game, button: Button,
) -> str | None:
    """Hand an absent player's seat to a computer player (the creator or an admin)."""
    t = translator(user.language_code)
    if user.id != game.creator_id and not await is_admin(context, game.chat_id, user.id):
        return t("Only the game's creator or a group admin can do that.")
    async with rt.locks.game(game.game_id):
        await rt.service.replace(game, button.move_no, REPLACEMENT_LEVEL)
    try:
        await query.edit_message_reply_markup(reply_markup=None)
    except TelegramError:
        pass
    return t("A computer player takes the seat.")


async def stop_button(
    rt: Runtime, context: ContextTypes.DEFAULT_TYPE, query: CallbackQuery, user: User,
    game: Game, button: Button,
) -> str | None:
    t = translator(user.language_code)
    allowed = user.id == game.creator_id or await is_admin(context, game.chat_id, user.id)
    if not allowed:
        return t("Only the game's creator or a group admin can stop it.")
    if button.kind is Kind.STOP_NO:
        await _delete_quietly(query)
        return t("The game goes on.")
    async with rt.locks.game(game.game_id):
        await rt.service.stop(game, user.id, allowed,
                              by=texts.mention(user.id, player_of(user).name))
    await _delete_quietly(query)
    return t("The game is stopped.")


async def leave_button(
    rt: Runtime, query: CallbackQuery, user: User, game: Game, button: Button
) -> str | None:
    t = translator(user.language_code)
    if game.seat_of(user.id) is None or game.seat_of(user.id) != button.move_no:
        return t("This question is for another player.")
    await _delete_quietly(query)
    if button.kind is Kind.LEAVE_NO:
        return t("The game goes on.")
    async with rt.locks.game(game.game_id):
        await rt.service.quit(game, user.id)
    return t("You left the game.")


async def _delete_quietly(query: CallbackQuery) -> None:
    with contextlib.suppress(TelegramError):
        await query.delete_message()


async def hand_button(
    rt: Runtime, query: CallbackQuery, user: User, game: Game, seat: int, button: Button
) -> str | None:
    t = translator(user.language_code)
    if button.kind is Kind.INERT:
        return t("You cannot lay that tile now.")
    async with rt.locks.game(game.game_id):
        if game.status is not Status.PLAYING or game.match is None:
            return t("This game is over.")
        if button.move_no != game.move_no:
            return t("That button is out of date.")
        if button.kind in (Kind.CHOOSE_END, Kind.BACK):
            view = player_view(game.match, seat)
            if not view.my_turn:
                return t("It is not your turn.")
            await _show_choice(query, t, game, view, button)
            return None
        action = button.action()
        if action is None:
            return t("That button is out of date.")
        await rt.service.act(game, user.id, button.move_no, action)
    return None


async def _show_choice(
    query: CallbackQuery, t: Translator, game: Game, view: PlayerView, button: Button
) -> None:
    if button.kind is Kind.CHOOSE_END and button.tile is not None:
        if button.tile not in view.playable():
            raise UserError("You cannot lay that tile now.")
        markup = keyboards.end_choice(t, game, view, game.move_no, button.tile)
    else:
        markup = keyboards.hand(t, game, view, game.move_no)
    current = query.message.reply_markup if isinstance(query.message, Message) else None
    if current == markup:
        return  # a second tap on the same tile: nothing to change
    try:
        await query.edit_message_reply_markup(reply_markup=markup)
    except TelegramError:
        pass  # unchanged, or the message is gone: the toast still answers


async def error_handler(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The one error handler: log it, and tell the user briefly, never with a traceback."""
    log.error("update failed", exc_info=context.error)
    if isinstance(update, Update):
        t = tr(update)
        if update.callback_query is not None:
            with contextlib.suppress(TelegramError):
                await update.callback_query.answer(t("Something went wrong. Please try again."))
        elif update.effective_message is not None:
            with contextlib.suppress(TelegramError):
                await reply(update, t("Something went wrong. Please try again."))
