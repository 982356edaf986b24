"""The way back to a seat handed to a computer while its player was away
(:mod:`bot.service.returns`): "↩ Take my seat back", and that button offered wherever such a
player reaches for their old seat (an old hand's tile, the group's "My tiles", /start, /hand).
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery
from telegram.error import TelegramError

from .. import wording
from ..errors import UserError
from ..i18n import Translator, private_translator
from ..models import Game
from ..presentation import captions, returntexts
from ..presentation.gamebuttons import TakeSeatBack
from ..publishing.backoffers import forget_offer
from ..publishing.places import table_url
from ..wording import named
from .runtime import Runtime
from .taps import Answer, Context, game_named, in_background, translator_of
from .updates import accessible, player_of

log = logging.getLogger(__name__)


async def take_back_tapped(rt: Runtime, context: Context, query: CallbackQuery,
                           tap: TakeSeatBack) -> Answer:
    """The seat is theirs again at once (the game's lock keeps a computer's move, the
    match's end and a second tap each wholly before or after it); their tiles follow in a
    new message. Whatever the answer, the button tapped has done its work: a refusal (a
    second tap, the match over, the seat taken back already) takes it off too, and the
    offer's words say why it no longer works (:meth:`BackOffers.close`). An offer in an old
    hand's picture goes once the seat is back: the new message has their tiles (player QA:
    the tiles they had when they left stayed, under "✅ You took your seat back")."""
    game = await game_named(rt, tap.game_id, query)
    user, t = query.from_user, translator_of(query)
    try:
        async with rt.locks.game(game.game_id):
            try:
                computer = await rt.service.take_back(game, user.id, tap.seat,
                                                      player_of(user).name)
            except UserError:
                await _forget_tapped(rt, game, user.id, query)
                raise
            await _forget_tapped(rt, game, user.id, query)  # (the tap closes it, not a sync)
    except UserError:
        _close(rt, game, query, None)
        raise
    t_private = private_translator(  # (as their hands speak)
        await rt.service.storage.user_language(user.id), game.language)
    _close(rt, game, query, t_private(returntexts.TAKEN_BACK_NOTE, computer=named(computer.name)))
    await rt.resend_hand(game, tap.seat)  # (its tiles, even where they had bounced before)
    return t(returntexts.TAKEN_BACK), None


async def _forget_tapped(rt: Runtime, game: Game, user_id: int, query: CallbackQuery) -> None:
    """The offer tapped is no longer one the sync closes (the caller holds the game's lock):
    its tap does (:func:`_close`). A failed save leaves it to a later save of the game."""
    message = query.message
    if message is None or message.message_id not in game.messages.back_offers.get(user_id, {}):
        return
    forget_offer(game, user_id, message.message_id)
    try:
        await rt.service.save_messages(game)
    except Exception as error:  # (kept in memory: the next save of the game writes it)
        log.warning("game %s: the offer tapped not saved as closed: %r", game.game_id, error)


def _close(rt: Runtime, game: Game, query: CallbackQuery, note: str | None) -> None:
    """The tapped offer out of play (with ``note``, HTML, when given: see
    :meth:`BackOffers.close`), in the background: the toast does not wait for the edit."""
    message = query.message
    if message is None or message.chat.id != query.from_user.id:  # (offers are private)
        return
    photo = bool(message.photo) if accessible(message) else None  # (too old to read)
    in_background(_edit(rt, game, query.from_user.id, message.message_id, photo, note),
                  f"unbutton-{query.id}")


async def _edit(rt: Runtime, game: Game, user_id: int, message_id: int, photo: bool | None,
                note: str | None) -> None:
    try:
        await rt.publisher.hands.offers.close(game, user_id, message_id, photo, note)
    except TelegramError as error:  # Telegram unanswered: the button stays, harmlessly
        log.debug("a take-back offer kept its button: %s", error)


async def offer_back(rt: Runtime, game: Game, user_id: int, seat: int,
                     message_id: int | None = None) -> bool:
    """Offer ``user_id`` the way back to ``seat`` in private (in place of ``message_id``
    when given: see :meth:`~bot.publishing.backoffers.BackOffers.offer_back`); whether it went
    (a chat closed to the bot, or Telegram unanswered, leaves the toast to say it)."""
    try:
        await rt.publisher.hands.offers.offer_back(game, user_id, seat, message_id)
    except TelegramError as error:
        log.info("the way back to a seat of game %s was not sent: %s", game.game_id, error)
        return False
    return True


async def offered_in_place(rt: Runtime, query: CallbackQuery, game: Game, seat: int
                           ) -> Answer:
    """A tap on an old hand of a player who may take their seat back: the message tapped
    says why its tiles no longer play and offers the way back."""
    message = query.message
    in_private = message is not None and message.chat.id == query.from_user.id
    await offer_back(rt, game, query.from_user.id, seat,
                     message.message_id if in_private and message is not None else None)
    return translator_of(query)(returntexts.TAKE_BACK_BELOW), None


async def offered_back(rt: Runtime, user_id: int, chat_id: int | None) -> bool:
    """/hand from someone seated nowhere whose seat a computer was handed while they were
    away (of the group ``chat_id``, when asked there): the way back to it, in private;
    whether it went."""
    offered = False
    for game in await rt.service.read_games_left_by(user_id):  # (a fleet worker may adopt one)
        back = rt.service.handed_while_away(game, user_id)
        if back is not None and chat_id in (None, game.chat_id) \
                and await rt.service.storage.private_ok(user_id):
            offered = await offer_back(rt, game, user_id, back[0]) or offered
    return offered


async def left_with_leave(rt: Runtime, user_id: int, chat_id: int | None) -> list[Game]:
    """The matches still played that ``user_id`` left with /leave (of the group ``chat_id``,
    when asked there), a computer in their seat: no way back leads to those."""
    return [game for game in await rt.service.read_games_left_by(user_id)
            if chat_id in (None, game.chat_id)
            and (change := game.last_change_of(user_id)) is not None and not change.away
            and 0 <= change.seat < len(game.players) and game.players[change.seat].is_computer]


async def left_words(rt: Runtime, t: Translator, game: Game, user_id: int) -> str:
    """What :func:`left_with_leave`'s ``game`` says to ``user_id`` (HTML): which match, where
    its table is, who plays the seat, and that it cannot be taken back."""
    change = game.last_change_of(user_id)
    assert change is not None
    group, topic = await rt.place_of(game)
    return returntexts.left_with_leave(
        t, wording.title(t, game.game_name),
        game.players[change.seat].name.removeprefix("🤖 "),
        captions.table_place(t, group, topic, table_url(game)))


async def tables_of(rt: Runtime, t: Translator, user_id: int) -> list[str]:
    """Where the tables ``user_id`` sits at are, one line each (HTML): what a command meant
    for the group, sent in private, points to (player QA: /leave in private said only that it
    works in the group, though the bot knew which)."""
    lines = []
    for game in await rt.service.read_games_of_user(user_id):
        group, topic = await rt.place_of(game)
        line = captions.table_place(t, group, topic, table_url(game))
        if line:
            lines.append(line)
    return lines
