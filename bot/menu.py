"""The /settings menu: a group's house rules, turn timer and language, one tap per change."""

from __future__ import annotations

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ParseMode
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from .admins import admins_of
from .callbacks import Button, Kind
from .i18n import N_, Translator, translator
from .runtime import Runtime, runtime
from .settings import CODES, GroupSettings
from .texts import TITLES

LANGUAGE_NAMES = {"en": "English", "ru": "Русский", "id": "Bahasa Indonesia"}
ROWS = (("game", "target"), ("turn", "lang"), ("deal", "dead"), ("b25",), ("lead", "block"),
        ("ai",))
LABELS = {
    "game": N_("Game: {value}"),
    "target": N_("Target: {value}"),
    "turn": N_("Turn time: {value}"),
    "lang": N_("Language: {value}"),
    "deal": N_("Gaple deal: {value}"),
    "dead": N_("Dead tiles: {value}"),
    "b25": N_("Lone 0-0 counts 25: {value}"),
    "lead": N_("Pair first lead: {value}"),
    "block": N_("Pair blocked hand counts: {value}"),
    "ai": N_("Computers on the scoreboard: {value}"),
}


def value_text(t: Translator, name: str, settings: GroupSettings) -> str:
    value = getattr(settings, name)
    if name == "default_game":
        return t("ask") if value is None else t(TITLES[value])
    if name == "target":
        return t("the game's own") if value is None else str(value)
    if name == "turn_seconds":
        return t("off") if value == 0 else t("{seconds} s", seconds=value)
    if name == "language":
        return t("the first opener's") if value is None else LANGUAGE_NAMES[value]
    if name == "deal":
        return t("6 each, 4 in the middle") if value == 6 else t("7 each, none in the middle")
    if name == "first_lead":
        return t("highest double") if value == "6-6" else t("by lot")
    if name == "block_count":
        return t("opponents' hands") if value == "opponents" else t("all four hands")
    return t("on") if value else t("off")


def menu_text(t: Translator, settings: GroupSettings) -> str:
    lines = [t("<b>Settings of this group</b>"),
             t("New games take them; a running game keeps its own. Tap to change.")]
    for code, name in CODES.items():
        lines.append("• " + t(LABELS[code], value=value_text(t, name, settings)))
    return "\n".join(lines)


def menu_keyboard(t: Translator, settings: GroupSettings) -> InlineKeyboardMarkup:
    rows = [
        [InlineKeyboardButton(t(LABELS[code], value=value_text(t, CODES[code], settings)),
                              callback_data=Button(Kind.SETTING, word=code).encode())
         for code in row]
        for row in ROWS
    ]
    rows.append([InlineKeyboardButton(t("✔ Done"),
                                      callback_data=Button(Kind.SETTING, word="done").encode())])
    return InlineKeyboardMarkup(rows)


async def group_settings(rt: Runtime, chat_id: int) -> GroupSettings:
    return GroupSettings.from_json(await rt.storage.chat_settings(chat_id))


async def may_change(context: ContextTypes.DEFAULT_TYPE, chat_id: int, user_id: int) -> bool:
    """Admins may; in a group whose only admins are bots (or none), everybody may."""
    humans = await admins_of(context, chat_id)
    return not humans or user_id in humans


async def settings_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    rt = runtime(context)
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or message is None:
        return
    settings = await group_settings(rt, chat.id)
    t = translator(settings.language or user.language_code)
    if chat.type not in ("group", "supergroup"):
        await message.reply_text(t("Settings belong to a group: type /settings there."))
        return
    if not await may_change(context, chat.id, user.id):
        await message.reply_text(t("Only the group's admins can change its settings."))
        return
    await message.reply_text(menu_text(t, settings), parse_mode=ParseMode.HTML,
                             reply_markup=menu_keyboard(t, settings))


async def setting_button(
    rt: Runtime, context: ContextTypes.DEFAULT_TYPE, query: CallbackQuery, button: Button
) -> str | None:
    """Cycle one setting (or close the menu); returns the toast."""
    message = query.message
    chat_id = message.chat.id if message is not None else None
    t = translator(query.from_user.language_code)
    if chat_id is None or (button.word != "done" and button.word not in CODES):
        return t("That button is out of date.")
    if not await may_change(context, chat_id, query.from_user.id):
        return t("Only the group's admins can change its settings.")
    settings = await group_settings(rt, chat_id)
    if button.word == "done":
        if isinstance(message, Message) and message.reply_markup is not None:
            try:
                await query.edit_message_reply_markup(reply_markup=None)
            except TelegramError:
                pass
        return t("Saved.")
    settings = settings.cycled(CODES[button.word])
    await rt.storage.save_chat_settings(chat_id, settings.to_json())
    shown = translator(settings.language or query.from_user.language_code)
    try:
        await query.edit_message_text(menu_text(shown, settings), parse_mode=ParseMode.HTML,
                                      reply_markup=menu_keyboard(shown, settings))
    except TelegramError:
        pass
    return None
