"""Group messages whose point passes as the game moves on: the questions a running game
asks (/stop's and /leave's "are you sure?"), whose buttons go once the game is over, the
offers to hand an away player's seat to a computer, whose buttons go then too (and which
are deleted once their player is back), the lobby's calls to start, deleted once the
lobby is closed or a newer one is posted, and the answers to a /table that said the table
comes down in a few seconds, deleted once it has (or never will), and those that said it
cannot be shown, the group refusing photos, deleted once a table is posted there again."""

from __future__ import annotations

import logging

from telegram.error import BadRequest, ChatMigrated, Forbidden

from ..i18n import translator
from ..models import Game, Status
from ..wording import who
from .messenger import Draft, Messenger

log = logging.getLogger(__name__)


async def close_questions(messenger: Messenger, game: Game) -> bool:
    """Edit the game's unanswered questions to say it is over, without their buttons, once
    it is; whether any was (the caller saves the game's messages)."""
    messages = game.messages
    if game.status.open or not messages.questions:
        return False
    t = translator(game.language)
    text = t("The game was stopped.") if game.status is Status.STOPPED else t(
        "This game is over.")
    chat_id = game.chat_id
    for message_id in list(messages.questions):
        if message_id not in messages.questions:  # answered, or the chat moved, meanwhile
            continue
        try:
            await messenger.edit(chat_id, message_id, Draft("closed", text, None))
        except BadRequest:
            log.info("question %s of game %s could not be closed", message_id, game.game_id)
        _forget(messages.questions, message_id)
    return True


async def close_offers(messenger: Messenger, game: Game) -> bool:
    """Take the buttons off the game's offers of a computer for an away player's seat once
    the game is over, keeping their words (who was away); whether there were any (the
    caller saves the game's messages). One answered was deleted and left them (its seat was
    handed over: ``GameService.answered``); one already without buttons or gone counts as
    done (:meth:`Messenger.unbutton`)."""
    offers = game.messages.offers
    if game.status.open or not offers:
        return False
    chat_id = game.chat_id  # (the chat they are in, whatever the game's becomes meanwhile)
    for message_id in list(offers):
        if message_id in offers:
            await messenger.unbutton(chat_id, message_id)
            _forget(offers, message_id)
    return True


async def retire_offers(messenger: Messenger, game: Game) -> bool:
    """Delete the running game's offers of a computer for a seat whose player is no longer
    away (back, the group told so: player QA read "seems to be away" and its button, which
    only answered "at the table and plays on", until the match ended), as an answered offer
    is; past the 48 hours a bot may delete one, its words say the player is back, without
    its button. An offer stored without its seat goes once nobody is away. Whether any
    went (the caller saves the game's messages); Telegram unanswered raises (the next sync
    tries again)."""
    messages = game.messages
    offers, seats = messages.offers, messages.offer_seats
    gone = [m for m in seats if m not in offers]  # (answered, closed, or the chat moved)
    for message_id in gone:
        del seats[message_id]
    if not game.status.open:  # (its end closes them: close_offers)
        return bool(gone)
    away = game.timer.away
    stale = [m for m in offers if (seats[m] not in away if m in seats else not away)]
    chat_id = game.chat_id
    for message_id in stale:
        if message_id not in offers:  # answered meanwhile
            continue
        seat = seats.get(message_id)
        try:
            await messenger.bot.delete_message(chat_id, message_id)
        except BadRequest:  # too old to delete, or gone already
            player = game.players[seat] if seat is not None and seat < len(game.players) \
                else None
            back = None if player is None or player.is_computer else translator(
                game.language)("{name} is back and plays on.", name=who(player))
            await messenger.unbutton(chat_id, message_id, back, photo=False)
        except (Forbidden, ChatMigrated):  # (a chat closed to the bot, or moved: nothing to do)
            pass
        _forget(offers, message_id)
        seats.pop(message_id, None)
    return bool(gone or stale)


async def delete_calls(messenger: Messenger, game: Game) -> bool:
    """Delete the lobby's calls to start posted in the group once the lobby has started or
    been cancelled, and while it is open every call but the newest (the table ready again
    after someone left: the group sees one call, the one that holds); whether any was (the
    caller saves the game's messages). Deletes are not counted against the group's budget."""
    calls = game.messages.calls
    stale = calls[:-1] if game.status is Status.LOBBY else list(calls)
    if not stale:
        return False
    chat_id = game.chat_id
    for message_id in stale:
        if message_id in calls:
            await messenger.delete(chat_id, message_id)
            _forget(calls, message_id)
    return True


async def delete_table_notices(messenger: Messenger, game: Game, waiting: bool) -> bool:
    """Delete the game's "the table comes down in a few seconds" answers to /table once no
    table waits to come down (``waiting``: the game's does, this process knows): it came,
    they have done their job; or it never will (the game ended, a restart or another
    worker dropped the wait), and they would promise it for good. Whether any went (the
    caller saves the game's messages)."""
    if waiting and game.status is Status.PLAYING:
        return False
    return await _delete_all(messenger, game, game.messages.table_notices)


async def delete_photo_notices(messenger: Messenger, game: Game) -> bool:
    """Delete the group's notices that its table cannot be shown, its photos refused (see
    :attr:`~bot.gamemessages.Messages.photo_notices`): the caller has just seen a table go
    through there, and they would say otherwise. Whether any went (the caller saves the
    game's messages)."""
    return await _delete_all(messenger, game, game.messages.photo_notices)


async def tell_no_photos(messenger: Messenger, game: Game, text: str, told: set[int]) -> None:
    """The group refused the table's picture: it is told why (``text``) once, the game then
    in ``told`` (again only after a table went through, which deletes the notice: a notice
    still there, kept with the game's messages, stands for this one after a restart too)."""
    if game.game_id not in told and not game.messages.photo_notices:
        chat = game.chat_id  # (a group become a supergroup meanwhile: the id is not its)
        sent = await messenger.send(chat, text, None, None, game.thread_id)
        if game.chat_id == chat:
            game.messages.photo_notices.append(sent)  # (saved by the sync: changed)
        log.info("game %s: its group %s refuses the bot's photos", game.game_id, game.chat_id)
    told.add(game.game_id)


async def _delete_all(messenger: Messenger, game: Game, notices: list[int]) -> bool:
    """Delete each of the game's group messages in ``notices`` (one of its lists), each
    forgotten as it goes; whether there were any."""
    if not notices:
        return False
    chat_id = game.chat_id
    for message_id in list(notices):
        if message_id in notices:
            await messenger.delete(chat_id, message_id)
            _forget(notices, message_id)
    return True


def _forget(message_ids: list[int], message_id: int) -> None:
    """Drop ``message_id`` from the game's list, unless it went while its call was in flight:
    a group become a supergroup forgets the old chat's message ids (its messages stay there,
    and the same numbers name others in the new chat, never to be touched)."""
    if message_id in message_ids:
        message_ids.remove(message_id)
