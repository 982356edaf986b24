"""A keyboard written for the wire by the bot is what python-telegram-bot would have sent."""

from __future__ import annotations

import random

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, LoginUrl
from telegram.request._requestparameter import RequestParameter

from bot.gamemessages import Messages
from bot.i18n import LANGUAGES, translator
from bot.models import Game, Player, Status
from bot.presentation import keyboards
from bot.publishing.markupwire import markup_json
from engine import Match, player_view

PLAYERS = [Player(1, "Ann"), Player(2, "Bob"), Player(3, "Cy"), Player(4, "Di")]


def ptb(markup: InlineKeyboardMarkup) -> str | None:
    return RequestParameter.from_input("reply_markup", markup).json_value


def the_bots_keyboards() -> list[InlineKeyboardMarkup]:
    """Lobbies, pickers and every seat's hand of a pair hand played out, in every language:
    callback buttons with and without colours, links, rows of every length."""
    out = []
    for language in LANGUAGES:
        t = translator(language)
        lobby = Game(1, -100, Status.LOBBY, "pair", {}, 1, PLAYERS[:2], None, 5, language,
                     Messages())
        out += [keyboards.lobby(t, lobby, "domino_bot"), keyboards.game_picker(t, 7),
                keyboards.rules_picker(t), keyboards.add_to_group(t, "domino_bot")]
    match = Match("pair", 4)
    match.deal_hand(random.Random(3))
    game = Game(2, -100, Status.PLAYING, "pair", {}, 1, PLAYERS, match, 5, "en", Messages())
    t = translator("en")
    move = 0
    while not match.hand.over:
        move += 1
        out += [keyboards.hand(t, game, player_view(match, seat), move)
                for seat in range(4)]
        seat = match.to_move
        assert seat is not None
        match.apply(seat, next(iter(player_view(match, seat).legal)))
    return out


def test_the_bots_keyboards_go_out_as_ptb_writes_them() -> None:
    keyboards_seen = the_bots_keyboards()
    assert len(keyboards_seen) > 40
    styles = {b.style for m in keyboards_seen for row in m.inline_keyboard for b in row}
    assert {None, "success"} <= styles  # both kinds of button were among them
    for markup in keyboards_seen:
        assert markup_json(markup) == ptb(markup)


def test_buttons_of_other_kinds_and_extra_fields_go_through_ptb() -> None:
    login = InlineKeyboardButton("Log in", login_url=LoginUrl("https://example.org/login"))
    extra = InlineKeyboardButton("New", callback_data="x", api_kwargs={"future": 1})
    for markup in (InlineKeyboardMarkup([[InlineKeyboardButton("a", callback_data="a")],
                                         [login]]),
                   InlineKeyboardMarkup([[extra]]), InlineKeyboardMarkup([]),
                   InlineKeyboardMarkup([[InlineKeyboardButton("a", url="https://t.me/x")]],
                                        api_kwargs={"future": True})):
        assert markup_json(markup) == ptb(markup)
