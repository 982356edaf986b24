"""The /settings menu: a group's house rules per game, its turn timer and its language.

The main page shows the group's settings, which games it plays its own way, and a button per
game, whose page shows that game's house rules (one game a page, never all at once in the
group); a setting's button opens a row of its choices with the current one marked, one tap
picks one, and "Back" returns. The menu works only on the latest menu message of the group it
was sent in (its id is stored with the group's settings, so a restart keeps it): a settings
button on any other message, or in another chat, changes nothing. A group has one live menu:
a new one (/settings, /language) turns the one before into a line pointing to it, without
buttons, and a tap on an older one still showing buttons (an edit that failed) does the same
to it (QA: two menus open at once, one showing a language the group no longer spoke).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from engine import variant

from ..errors import UserError
from ..gamebook import GAMES, presentation
from ..i18n import LANGUAGE_NAMES, N_, Translator, private_translator
from ..models import Game
from ..presentation.gamebuttons import SettingTap
from ..presentation.houserules import game_label, game_value
from ..service.settings import GENERAL, GroupSettings
from ..wording import esc
from .admins import admins_of
from .ownlanguage import own_language_command
from .runtime import Runtime, runtime
from .speech import own_tr, speech_of
from .updates import accessible, as_group_admin, chat_tr, edit_tapped, group_tr, is_group

GENERAL_LABELS = {
    "default_game": N_("Game: {value}"),
    "turn_seconds": N_("Turn time: {value}"),
    "language": N_("Language: {value}"),
    "rank_computers": N_("Computers ranked: {value}"),
}
#: The group's language when no admin chose one: its adder's, or its first started table's.
AUTOMATIC_LANGUAGE = N_("automatic ({language})")
AUTOMATIC = N_("automatic")
CHOICES_PER_ROW = 3
SHORT_CHOICE = 10  # characters: three such buttons fit a row on a phone
DONE = "done"
#: An older menu's words once a newer one is posted, and the toast of a tap on it.
MENU_REPLACED = N_("That message is out of date: use the newest one.")
SAVED = N_("Saved.")  # (a choice's toast: QA read it in English under a Russian menu)
#: A choice's toast when a table open in the group keeps what it opened with: an admin takes
#: a table not started yet for a new one, and the creator's options must not change under it.
KEPT_BY_OPEN_TABLE = N_("Saved. A table already open here keeps its own settings; new tables "
                        "take these.")


def general_value(t: Translator, name: str, value: Any,
                  settings: GroupSettings | None = None) -> str:
    """A general setting's ``value`` as the menu words it (``settings``: the group's)."""
    if name == "default_game":
        return t("ask") if value is None else t(presentation(value).title)
    if name == "turn_seconds":
        return t("no limit") if value == 0 else t("{seconds} s", seconds=value)
    if name == "language":
        if value is not None:
            return LANGUAGE_NAMES[value]
        auto = settings.auto_language if settings else None  # (what "automatic" speaks)
        return t(AUTOMATIC_LANGUAGE, language=LANGUAGE_NAMES[auto]) if auto else t(AUTOMATIC)
    return t("on") if value else t("off")


def game_choices(game: str, name: str) -> tuple[Any, ...]:
    """What /settings offers for a game's option: the variant's choices that its entry words
    (gaple-dead's deal of 5 is not a choice: 5 players are always dealt 5); for the target,
    the game's own (None) and the entry's suggestions."""
    if name == "target":  # (a suggestion that is the game's one target is its default: QA
        # read "✅ game default (101)" and "101" side by side in French)
        rules = variant(game)
        own = {rules.default_target(seats) for seats in rules.seat_counts}
        return (None, *(target for target in presentation(game).targets
                        if len(own) > 1 or target not in own))
    spec = variant(game).option_spec(name)
    assert spec is not None
    worded = presentation(game).options[name].choices
    return tuple(choice for choice in spec.choices if choice in worded)


def game_option_names(game: str) -> tuple[str, ...]:
    """The options /settings shows for ``game``: the target, then those its entry words."""
    return ("target", *presentation(game).options)


def chosen_value(settings: GroupSettings, game: str, name: str) -> Any:
    if name == "target":
        return settings.games.get(game, {}).get("target")
    return settings.option(game, name)


# --- pages ---------------------------------------------------------------------------------
def _button(text: str, tap: SettingTap) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=tap.encode())


def _rows(
    buttons: Sequence[InlineKeyboardButton], per_row: int
) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row)]


def _general(t: Translator, settings: GroupSettings) -> list[str]:
    """Each general setting's line: its name and the group's value."""
    return [t(label, value=general_value(t, name, getattr(settings, name), settings))
            for name, label in GENERAL_LABELS.items()]


def _summary(t: Translator, settings: GroupSettings) -> list[str]:
    """What the group has set, as the menu's first page lists it."""
    # Each game's house rules are on its own page: the group reads the menu, not nine games'
    # rules at once. Here, only which games this group plays its own way.
    changed = [esc(t(presentation(game).title)) for game in GAMES if settings.games.get(game)]
    return ["• " + esc(line) for line in _general(t, settings)] + [
        "", t("House rules changed for: {games}.", games=", ".join(changed)) if changed
        else t("Every game is played by its own rules here.")]


def main_page(t: Translator, settings: GroupSettings) -> tuple[str, InlineKeyboardMarkup]:
    lines = [t("<b>Settings of this group</b>"),
             t("New tables take them; a table already open, waiting for players or playing, "
               "keeps its own, but speaks a new language at once. Tap to change."),
             *_summary(t, settings), t("Tap a game for its house rules.")]
    general = [_button(text, SettingTap("", name))
               for name, text in zip(GENERAL_LABELS, _general(t, settings), strict=True)]
    games = [_button(t(presentation(game).title) + " …", SettingTap(game)) for game in GAMES]
    rows = _rows(general, 1) + _rows(games, 1)
    rows.append([_button(t("✔ Done"), SettingTap("", DONE))])
    return "\n".join(lines), InlineKeyboardMarkup(rows)


def closed_page(t: Translator, settings: GroupSettings) -> str:
    """The menu once closed (✔ Done): what the group has set, no buttons to tap."""
    return "\n".join([t("<b>Settings of this group</b>"), *_summary(t, settings)])


def game_page(t: Translator, settings: GroupSettings, game: str
              ) -> tuple[str, InlineKeyboardMarkup]:
    lines = [t("<b>{title}</b>: house rules", title=esc(t(presentation(game).title)))]
    buttons = []
    for name in game_option_names(game):
        text = game_label(t, game, name, chosen_value(settings, game, name))
        lines.append("• " + text)
        buttons.append([_button(text, SettingTap(game, name))])
    buttons.append([_button(t("↩ Back"), SettingTap())])
    return "\n".join(lines), InlineKeyboardMarkup(buttons)


def choice_page(t: Translator, settings: GroupSettings, page: str, name: str
                ) -> tuple[str, InlineKeyboardMarkup]:
    if page:
        choices, current = game_choices(page, name), chosen_value(settings, page, name)
        words = [game_value(t, page, name, choice) for choice in choices]
        heading = game_label(t, page, name, current)
    else:
        choices, current = GENERAL[name], getattr(settings, name)
        words = [general_value(t, name, choice, settings) for choice in choices]
        heading = t(GENERAL_LABELS[name], value=general_value(t, name, current, settings))
    buttons = [
        _button(("✅ " if _same(choice, current) else "") + word, SettingTap(page, name, index))
        for index, (choice, word) in enumerate(zip(choices, words, strict=True))
    ]
    # Short choices share a row; long ones ("6 each, 4 in the middle") get a row each.
    per_row = CHOICES_PER_ROW if max(map(len, words)) <= SHORT_CHOICE else 1
    rows = _rows(buttons, per_row)
    rows.append([_button(t("↩ Back"), SettingTap(page))])
    return "<b>" + heading + "</b>\n" + t("Tap a choice."), InlineKeyboardMarkup(rows)


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b


def page_for(t: Translator, settings: GroupSettings, tap: SettingTap
             ) -> tuple[str, InlineKeyboardMarkup]:
    if tap.name and tap.choice is None:
        return choice_page(t, settings, tap.page, tap.name)
    if tap.page:
        return game_page(t, settings, tap.page)
    return main_page(t, settings)


def chose(settings: GroupSettings, tap: SettingTap) -> GroupSettings:
    """``settings`` with the choice ``tap`` picked. Raises IndexError/KeyError/ValueError for a
    tap that names no setting or choice."""
    assert tap.choice is not None
    if not tap.page:
        if tap.name not in GENERAL:
            raise KeyError(tap.name)
        return settings.with_general(tap.name, GENERAL[tap.name][tap.choice])
    if tap.page not in GAMES or tap.name not in game_option_names(tap.page):
        raise KeyError(tap.name)
    value = game_choices(tap.page, tap.name)[tap.choice]
    if tap.name != "target" and value == variant(tap.page).default_options(
            variant(tap.page).seat_counts[0]).get(tap.name):
        value = None  # the game's own again: nothing stored
    return settings.with_option(tap.page, tap.name, value)


def kept_by_open_tables(tap: SettingTap, open_games: Sequence[Game]) -> bool:
    """Whether a table open in the group keeps what it opened with instead of the choice
    ``tap``: the turn time, or the house rules of the game it plays. (It speaks a new
    language at once; which game /newgame offers and whether computers are ranked are no
    table's.)"""
    if tap.page:
        return any(game.game_name == tap.page for game in open_games)
    return tap.name == "turn_seconds" and bool(open_games)


def valid_tap(tap: SettingTap) -> bool:
    if tap.page and tap.page not in GAMES:
        return False
    if not tap.name:
        return tap.choice is None
    if not tap.page:
        return (tap.name == DONE and tap.choice is None) or tap.name in GENERAL
    return tap.name in game_option_names(tap.page)


# --- handlers ------------------------------------------------------------------------------
async def refusal_to_change(
    rt: Runtime, context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int, t: Translator
) -> str | None:
    """Why ``user_id`` may not change the settings now (the service decides), or None."""
    try:
        rt.service.check_may_change_settings(user_id, await admins_of(context, chat_id))
    except UserError as refused:
        return t(refused.message, **refused.params)
    return None


async def settings_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    await _open_menu(update, context, SettingTap())


async def language_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/language (/lang): in a group, /settings opened at its choice of languages (QA: no
    reply at all); in private, the person's own language, to choose
    (:mod:`.ownlanguage`)."""
    chat, user = update.effective_chat, update.effective_user
    if chat is not None and user is not None and not is_group(chat):
        await own_language_command(update, runtime(context), user)
        return
    await _open_menu(update, context, SettingTap("", "language"))


async def _open_menu(update: Update, context: ContextTypes.DEFAULT_TYPE, tap: SettingTap
                     ) -> None:
    """Post the group's /settings menu at the page ``tap`` opens, for an admin; anyone else
    reads why not, and what is set."""
    rt = runtime(context)
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or message is None:
        return
    settings = await rt.service.group_settings(chat.id)
    t = await chat_tr(update, rt, settings=settings)
    if not is_group(chat):
        await message.reply_text(t("Settings belong to a group: type /settings there."))
        return
    refused = None if as_group_admin(update) else await refusal_to_change(
        rt, context, chat.id, user.id, t)
    if refused is not None:  # what is set, at least: a player asks to know the turn time
        await message.reply_text("\n".join([esc(refused), "", t("<b>Settings of this group</b>"),
                                             *_summary(t, settings)]),
                                 parse_mode=ParseMode.HTML)
        return
    text, markup = page_for(t, settings, tap)
    older = await rt.service.settings_menu(chat.id)
    sent = await message.reply_text(text, parse_mode=ParseMode.HTML, reply_markup=markup)
    await rt.service.settings_menu_posted(chat.id, sent.message_id)
    if older is not None and older != sent.message_id:
        await _retire_menu(context, chat.id, older, t(MENU_REPLACED))


async def _retire_menu(context: ContextTypes.DEFAULT_TYPE, chat_id: int, message_id: int,
                       text: str) -> None:
    """Put ``text`` in place of an old menu's words and buttons: one gone, or already
    without them, counts as done."""
    with contextlib.suppress(TelegramError):
        await context.bot.edit_message_text(text, chat_id, message_id,
                                            parse_mode=ParseMode.HTML, reply_markup=None)


def _shows_tap(query: CallbackQuery) -> bool:
    """Whether the tapped message is one with the tapped button on it (a menu's), as far as
    the tap shows it: a message days old comes without its buttons (see ``accessible``)."""
    message = query.message
    return accessible(message) and message.reply_markup is not None and any(
        button.callback_data == query.data
        for row in message.reply_markup.inline_keyboard for button in row)


async def setting_button(
    rt: Runtime, context: ContextTypes.DEFAULT_TYPE, query: CallbackQuery, tap: SettingTap
) -> str | None:
    """Show a page of the menu, or pick a choice; returns the toast."""
    message = query.message
    t = own_tr(query.from_user)
    if message is None or not is_group(message.chat) or not valid_tap(tap):
        return t("That button is out of date.")
    chat_id = message.chat.id
    latest = await rt.service.settings_menu(chat_id)
    if latest != message.message_id:  # an older menu, or one closed (✔ Done): it acts on
        # nothing (what it shows may be out of date), and its buttons go
        if _shows_tap(query):  # (else no menu's buttons: gone already, or a forged tap)
            settings = await rt.service.group_settings(chat_id)
            shown = await group_tr(rt, chat_id, query.from_user, settings=settings)
            with contextlib.suppress(TelegramError):  # none open: what is set, as ✔ Done
                await edit_tapped(query, text=closed_page(shown, settings) if latest is None
                                  else shown(MENU_REPLACED))
        return t("That button is out of date.") if latest is None else t(MENU_REPLACED)
    refused = await refusal_to_change(rt, context, chat_id, query.from_user.id, t)
    if refused is not None:
        return refused
    if tap.name == DONE:  # (each choice was saved as it was made: nothing to save here)
        settings = await rt.service.group_settings(chat_id)
        shown = await group_tr(rt, chat_id, query.from_user, settings=settings)
        try:  # the group's settings as they stand, without the words that said to tap (QA)
            await edit_tapped(query, text=closed_page(shown, settings))
        except TelegramError:
            pass
        await rt.service.settings_menu_posted(chat_id, None)
        return None
    toast, kept = None, None
    if tap.choice is not None:
        try:  # (the settings as stored now, under the chat's lock: another change is kept)
            settings, spoken = await rt.service.change_group_settings(
                chat_id, lambda now: chose(now, tap), rt.locks)
        except (IndexError, KeyError, ValueError):
            return t("That button is out of date.")
        for game_id in spoken:  # a new language is spoken at once
            rt.publisher.request(game_id)
        kept = kept_by_open_tables(tap, rt.service.open_games_in(chat_id))
        tap = SettingTap(tap.page)
    else:
        settings = await rt.service.group_settings(chat_id)
    shown = await group_tr(rt, chat_id, query.from_user, settings=settings)
    if kept is not None:  # a choice made: its toast in the group's language as its games'
        # hands speak it to this admin (QA: an English Telegram's admin read "Saved." under
        # an Indonesian menu)
        told = private_translator(speech_of(query.from_user), shown.language) \
            if settings.spoken else t
        toast = told(KEPT_BY_OPEN_TABLE) if kept else told(SAVED)
    text, markup = page_for(shown, settings, tap)
    try:
        await edit_tapped(query, text=text, markup=markup)
    except TelegramError:
        pass
    return toast
