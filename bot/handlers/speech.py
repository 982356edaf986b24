"""The language of what the bot writes one person (a private reply, a toast), decided in one
place: the first handler of an update in private, or of a tap, reads the person's stored
choice of language (private /language) once (:func:`learn`), and :func:`own_tr` and
:func:`tapper_tr` word everything the update tells them with it. A group's messages speak
the group's language, not this.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from dataclasses import dataclass, replace

from telegram import Update, User
from telegram.constants import ChatType

from ..i18n import Speech, Translator, own_language, private_translator, translator
from .failures import failure_line
from .runtime import Runtime

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Known:
    """What this update learnt of its sender: their chosen language (None: automatic), and
    the language of the group's game their tap is about, in private (None: no game)."""

    user_id: int
    chosen: str | None
    game_language: str | None = None


#: The sender of the update being handled (each update runs in a task of its own).
_KNOWN: ContextVar[_Known | None] = ContextVar("speaker", default=None)


async def learn(rt: Runtime, update: Update) -> None:
    """Read the sender's chosen language, for an update in private or a tap anywhere (the
    only ones whose words are theirs alone). The database away: none is known, and the
    handler that follows meets the failure itself."""
    _KNOWN.set(None)
    user, chat = update.effective_user, update.effective_chat
    if user is None or (update.callback_query is None
                        and (chat is None or chat.type != ChatType.PRIVATE)):
        return
    try:
        stored = await rt.storage.user_language(user.id)
    except Exception as error:
        failure = failure_line(error)  # (counted where the handler that follows meets it)
        if failure is None:
            raise
        log.debug("no chosen language read: %s", failure)
        return
    _KNOWN.set(_Known(user.id, stored.chosen if stored is not None else None))


def chose(user_id: int, language: str | None) -> None:
    """The sender has just chosen ``language`` (None: automatic): the rest of this update
    (the page edited, the toast) speaks it."""
    _KNOWN.set(_Known(user_id, language))


def about_game(user_id: int, game_language: str) -> None:
    """The sender's tap (in private or in the group) is about a group's game that speaks
    ``game_language``: its toasts speak as that game's private messages to them do
    (:func:`bot.i18n.private_language`)."""
    known = _KNOWN.get()
    if known is None or known.user_id != user_id:
        known = _Known(user_id, None)
    _KNOWN.set(replace(known, game_language=game_language))


def speech_of(user: User) -> Speech:
    """The person's language as this update knows it: their Telegram's, and their choice."""
    known = _KNOWN.get()
    chosen = known.chosen if known is not None and known.user_id == user.id else None
    return Speech(user.language_code, chosen)


def own_tr(user: User | None) -> Translator:
    """What the bot writes ``user`` alone, in their private chat or a toast: in the language
    they chose, else their Telegram's (:func:`bot.i18n.own_language`)."""
    return translator(own_language(speech_of(user)) if user is not None else None)


def tapper_tr(user: User) -> Translator:
    """A tap's toast (and a private message edited by it): as :func:`own_tr`, or, for a tap
    on a group's game, as that game's private messages to them speak."""
    known = _KNOWN.get()
    if known is not None and known.user_id == user.id and known.game_language is not None:
        return private_translator(speech_of(user), known.game_language)
    return own_tr(user)
