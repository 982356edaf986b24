"""Private /language: the person's own language, how it was decided, and a button for each
language the bot speaks and one for "Automatic" (:func:`bot.i18n.private_language`'s rule).

A choice is saved with the person (``users.chosen_language``) and wins over their Telegram's
and their groups' languages for everything the bot writes them alone: this chat's replies,
their toasts, their tiles and turns in every group's game (whose hands are brought up to
date at once). A group's own messages keep the group's language.
"""

from __future__ import annotations

import contextlib

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update, User
from telegram.error import TelegramError

from ..i18n import (
    LANGUAGE_NAMES,
    LANGUAGES,
    N_,
    WEAK_LANGUAGE,
    Speech,
    Translator,
    supported_language,
)
from ..presentation.gamebuttons import ChooseLanguage
from ..wording import esc
from .runtime import Runtime
from .speech import chose, own_tr, speech_of
from .taps import Answer, Context
from .updates import edit_tapped, remember, reply

#: The person chose a language in this page: it wins everywhere they alone read.
CHOSEN = N_("Your language: {language}, as you chose. I write to you in it here, and your "
            "tiles and turns of every group's game come in it too.")
#: Automatic, and their Telegram's language is one the bot speaks, other than English.
AUTOMATIC_OWN = N_("Your language: {language}, your Telegram app's (automatic). I write to "
                   "you in it here, and your tiles and turns of every group's game come in "
                   "it too.")
#: Automatic, their Telegram in English: Telegram's apps fall back to English for an
#: interface they lack (there is no Icelandic one), so it tells little.
AUTOMATIC_ENGLISH = N_("Your language: automatic. Your Telegram app is in English, so I "
                       "write to you in English here, and your tiles and turns of a group's "
                       "game come in that group's language.")
#: Automatic, their Telegram's language is none the bot speaks (or unknown).
AUTOMATIC_UNSPOKEN = N_("Your language: automatic. I do not speak your Telegram app's "
                        "language, so I write to you in English here, and your tiles and "
                        "turns of a group's game come in that group's language.")
PICK = N_("Tap a language to read me in it, here and in your tiles, whatever your Telegram "
          "and your groups speak; Automatic goes back to the rule above. A group's own "
          "language is chosen there, with /language.")
AUTOMATIC_BUTTON = N_("Automatic")
SAVED_CHOSEN = N_("Saved: I write to you in {language}.")
SAVED_AUTOMATIC = N_("Saved: your language is automatic again.")
OUT_OF_DATE = N_("That button is out of date.")
#: "✅ " before the choice in force, as in /settings.
CURRENT_MARK = "✅ "
#: Language buttons a row (four names fit a phone's width in two rows).
LANGUAGES_PER_ROW = 2
#: ``ChooseLanguage``'s language for "Automatic".
AUTOMATIC_DATA = ""


def page(t: Translator, speech: Speech) -> tuple[str, InlineKeyboardMarkup]:
    """The page's words and buttons for a person whose language is ``speech``."""
    chosen = speech.chosen if speech.chosen in LANGUAGES else None
    own = supported_language(speech.telegram)
    if chosen is not None:
        said = t(CHOSEN, language=LANGUAGE_NAMES[chosen])
    elif own is not None and own != WEAK_LANGUAGE:
        said = t(AUTOMATIC_OWN, language=LANGUAGE_NAMES[own])
    elif own is not None:
        said = t(AUTOMATIC_ENGLISH)
    else:
        said = t(AUTOMATIC_UNSPOKEN)
    buttons = [_button(LANGUAGE_NAMES[code], code, chosen) for code in LANGUAGES]
    rows = [buttons[i:i + LANGUAGES_PER_ROW] for i in range(0, len(buttons), LANGUAGES_PER_ROW)]
    rows.append([_button(t(AUTOMATIC_BUTTON), AUTOMATIC_DATA, chosen or AUTOMATIC_DATA)])
    return esc(said) + "\n\n" + esc(t(PICK)), InlineKeyboardMarkup(rows)


def _button(word: str, code: str, current: str | None) -> InlineKeyboardButton:
    mark = CURRENT_MARK if code == current else ""
    return InlineKeyboardButton(mark + word, callback_data=ChooseLanguage(code).encode())


async def own_language_command(update: Update, rt: Runtime, user: User) -> None:
    """/language in private: the page, in the person's own language."""
    await remember(rt, user, private_ok=True)
    speech = speech_of(user)
    text, markup = page(own_tr(user), speech)
    await reply(update, text, reply_markup=markup)


async def language_chosen(rt: Runtime, context: Context, query: CallbackQuery,
                          tap: ChooseLanguage) -> Answer:
    """A tap on the page: save the choice, show the page in it, say so in the toast; the
    person's hands in open games are brought up to date in it."""
    user = query.from_user
    message = query.message
    if (message is None or message.chat.id != user.id
            or tap.language not in (*LANGUAGES, AUTOMATIC_DATA)):
        return own_tr(user)(OUT_OF_DATE), None
    language = tap.language or None
    await remember(rt, user, private_ok=True)
    await rt.storage.choose_language(user.id, language)
    chose(user.id, language)
    t = own_tr(user)
    text, markup = page(t, speech_of(user))
    with contextlib.suppress(TelegramError):  # (the same choice again: nothing to change)
        await edit_tapped(query, text=text, markup=markup)
    for game in rt.service.games_of_user(user.id):  # their tiles speak it at once
        rt.publisher.request(game.game_id)
    toast = (t(SAVED_CHOSEN, language=LANGUAGE_NAMES[language])
             if language is not None else t(SAVED_AUTOMATIC))
    return toast, None
