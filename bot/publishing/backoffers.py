"""The words a player replaced by a computer gets in private, in place of their last hand: a
farewell (they left) or the way back to their seat ("↩ Take my seat back", they were away),
and the ways back offered since, of which one at a time keeps its button, and none once the
seat is theirs again or the match is over."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from .. import wording
from ..i18n import Translator, private_translator
from ..models import Game, Status
from ..presentation import returntexts
from ..service import GameService
from ..service.locks import Locks
from ..service.returns import may_take_back
from .messenger import Messenger
from .places import Places


@dataclass(frozen=True, slots=True)
class BackOffers:
    """The hands channel's farewells and ways back (see the module)."""

    messenger: Messenger
    service: GameService
    locks: Locks
    places: Places
    request: Callable[[int], None]  # the publisher's: sync a game soon
    table_link: Callable[[Translator, Game], str]  # the way back to the game's table

    async def farewells(self, game: Game) -> None:
        """A player whose seat a computer took is told so, in place of their last hand (whose
        buttons would no longer work): one who left, thanks; one who was away, why, that
        "↩ Take my seat back" gives it back while the match is on (its button, while it is),
        and that "Play again" seats them again. Each seat as its last change left it."""
        for change in game.last_changes().values():
            current = game.messages.hands.get(change.seat)
            if current is None or not game.players[change.seat].is_computer \
                    or change.left.is_computer:
                continue
            t = private_translator(
                await self.service.storage.user_language(change.left.user_id), game.language)
            # which table (player QA: at two tables, each with a "🤖 Rio", it could be either)
            place = self.table_link(t, game)
            markup = None
            if change.away:
                text = returntexts.handed_while_away(t, game.players[change.seat].name, place)
                if game.status is Status.PLAYING:
                    markup = returntexts.take_back(t, game.game_id, change.seat)
            else:
                computer = wording.named(game.players[change.seat].name.removeprefix("🤖 "))
                text = "\n".join(filter(None, [t(  # one robot
                    "🤖 {computer} plays your seat now. Thanks for playing!",
                    computer=computer), place]))
            offer: int | None = None
            photo = True  # (in the hand's picture; else a message of its own)
            try:
                await self.messenger.bot.edit_message_caption(
                    chat_id=change.left.user_id, message_id=current.message_id, caption=text,
                    parse_mode=ParseMode.HTML, reply_markup=markup)
                offer = current.message_id
            except Forbidden:
                pass  # they blocked the bot: nothing to tell
            except BadRequest:  # the hand message is gone: say it in a message of its own
                photo = False
                with contextlib.suppress(TelegramError):
                    offer = await self.messenger.send(change.left.user_id, text, None, markup)
            async with self.locks.game(game.game_id):
                game.messages.hands.pop(change.seat, None)
                if markup is not None and offer:  # (its button goes when it means nothing)
                    _keep_offer(game, change.left.user_id, offer, photo)
                await self.service.save_messages(game)

    async def offer_back(self, game: Game, user_id: int, seat: int,
                         message_id: int | None = None) -> None:
        """The way back to ``seat``, handed to a computer while ``user_id`` was away, in
        their private chat: in place of ``message_id`` (an old hand of theirs, tapped),
        else (or when it cannot be edited) in a message of its own. Telegram's refusals
        raise. It is kept with the game's messages, the newest of the player's offers: the
        next sync takes the button off the older ones (one live offer per player and game),
        and off this one too once the seat is theirs again or the match is over
        (:meth:`close_stale`)."""
        await self.places.learn(game)
        t = private_translator(await self.service.storage.user_language(user_id),
                               game.language)
        text = returntexts.handed_while_away(t, game.players[seat].name,
                                             self.table_link(t, game))
        markup = returntexts.take_back(t, game.game_id, seat)
        offer: int | None = None
        if message_id is not None:
            with contextlib.suppress(BadRequest):  # (not a picture's caption, or gone)
                await self.messenger.bot.edit_message_caption(
                    chat_id=user_id, message_id=message_id, caption=text,
                    parse_mode=ParseMode.HTML, reply_markup=markup)
                offer = message_id
        photo = offer is not None  # (in an old hand's picture; else a message of its own)
        if offer is None:
            offer = await self.messenger.send(user_id, text, None, markup)
        async with self.locks.game(game.game_id):
            _keep_offer(game, user_id, offer, photo)
            await self.service.save_messages(game)
        self.request(game.game_id)

    async def close_stale(self, game: Game) -> bool:
        """Take the button off each way back offered in private that no longer means
        anything: every one of a player's but the newest, and all of them once the seat is
        theirs again (whichever offer they tapped) or the match is over; whether any was
        (the caller saves the game's messages). Its words go too, as :meth:`close` says.
        One already without it, gone or in a chat closed to the bot counts as done;
        Telegram unanswered raises, and the next sync tries again (:meth:`Messenger.unbutton`).
        Each goes through the private chat's limits as every call of the bot does."""
        offers = game.messages.back_offers
        stale = [(user_id, message_id, photo) for user_id, ids in list(offers.items())
                 for message_id, photo in list(ids.items())[
                     :-1 if may_take_back(game, user_id) else None]]
        for user_id, message_id, photo in stale:
            async with self.locks.game(game.game_id):  # (the tap that took it back may have
                if message_id not in offers.get(user_id, {}):  # closed it meanwhile)
                    continue
            await self.close(game, user_id, message_id, photo)
            async with self.locks.game(game.game_id):
                forget_offer(game, user_id, message_id)
        return bool(stale)

    async def close(self, game: Game, user_id: int, message_id: int,
                    photo: bool | None = None, note: str | None = None) -> None:
        """One way back offered to ``user_id`` in ``message_id``, out of play: once their
        seat is theirs again, an offer in an old hand's picture (``photo``; None: not known)
        is deleted, its tiles long gone (their tiles' new message has them); else, or where
        it cannot be deleted (after 48 hours), its button goes and its words say why it no
        longer works (player QA: "Tap ↩ Take my seat back" stayed under no button), in
        their language: ``note`` (HTML) when given, else the seat is back, the match is
        over, a newer offer holds the button, or the seat is no longer theirs to take."""
        if game.seat_of(user_id) is not None and photo is not False:
            with contextlib.suppress(TelegramError):  # (too old to delete, or gone)
                if await self.messenger.bot.delete_message(user_id, message_id):
                    return
        if note is None:
            t = private_translator(await self.service.storage.user_language(user_id),
                                   game.language)
            note = returntexts.closed_offer(t, _why_closed(game, user_id),
                                            self.table_link(t, game))
        await self.messenger.unbutton(user_id, message_id, note, photo)


def _why_closed(game: Game, user_id: int) -> str:
    """Why an offer to ``user_id`` no longer works (one of returntexts' ``OFFER_...``)."""
    if game.seat_of(user_id) is not None:
        return returntexts.OFFER_SEAT_BACK
    if game.status is not Status.PLAYING or game.match is None:
        return returntexts.OFFER_MATCH_OVER
    if may_take_back(game, user_id):
        return returntexts.OFFER_NEWER
    return returntexts.OFFER_CLOSED


def forget_offer(game: Game, user_id: int, message_id: int) -> None:
    """A way back offered to ``user_id`` in ``message_id`` is out of play (the caller holds
    the game's lock and saves its messages)."""
    offers = game.messages.back_offers
    ids = offers.get(user_id)
    if ids is not None:
        ids.pop(message_id, None)
        if not ids:
            del offers[user_id]


def _keep_offer(game: Game, user_id: int, message_id: int, photo: bool) -> None:
    """A way back offered to ``user_id`` in ``message_id`` (``photo``: in a picture's
    caption): their newest (the caller holds the game's lock and saves its messages)."""
    ids = game.messages.back_offers.setdefault(user_id, {})
    ids.pop(message_id, None)  # (an offer that was tapped on is offered again in place)
    ids[message_id] = photo
