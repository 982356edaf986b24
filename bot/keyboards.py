"""Inline keyboards: lobby, game picker, table, a player's hand, the end choice, stop."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine import Discard, End, PlayerView, Tile

from .callbacks import Button, Kind
from .games import GAMES, Game
from .i18n import Translator
from .texts import title

TILES_PER_ROW = 4


def _button(text: str, button: Button) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=button.encode())


def deep_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"


def game_picker(t: Translator) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[_button(title(t, game), Button(Kind.PICK_GAME, word=game))] for game in GAMES]
    )


def lobby(t: Translator, game: Game, bot_username: str) -> InlineKeyboardMarkup:
    gid = game.game_id
    return InlineKeyboardMarkup(
        [
            [_button(t("✋ Join"), Button(Kind.JOIN, gid)),
             _button(t("Leave"), Button(Kind.LEAVE, gid))],
            [_button(t("▶ Start"), Button(Kind.START, gid)),
             _button(t("Cancel"), Button(Kind.CANCEL, gid))],
            [_button(t("🤖 + easy"), Button(Kind.ADD_COMPUTER, gid, 0)),
             _button(t("🤖 + normal"), Button(Kind.ADD_COMPUTER, gid, 1)),
             _button(t("🤖 + hard"), Button(Kind.ADD_COMPUTER, gid, 2)),
             _button(t("🤖 ✕"), Button(Kind.REMOVE_COMPUTER, gid))],
            [InlineKeyboardButton(t("💬 Open my private chat"),
                                  url=deep_link(bot_username, f"join{gid}"))],
        ]
    )


def table(t: Translator, game: Game) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[_button(t("🀱 My tiles"), Button(Kind.HAND, game.game_id))]])


def stop_confirmation(t: Translator, game: Game) -> InlineKeyboardMarkup:
    gid = game.game_id
    return InlineKeyboardMarkup(
        [[_button(t("Yes, stop the game"), Button(Kind.STOP_YES, gid)),
          _button(t("No, play on"), Button(Kind.STOP_NO, gid))]]
    )


def leave_confirmation(t: Translator, game: Game, seat: int) -> InlineKeyboardMarkup:
    """Carries the seat it asks, so only that player's tap counts."""
    gid = game.game_id
    return InlineKeyboardMarkup(
        [[_button(t("Yes, leave"), Button(Kind.LEAVE_YES, gid, seat)),
          _button(t("No, stay"), Button(Kind.LEAVE_NO, gid, seat))]]
    )


def tile_label(tile: Tile) -> str:
    return f"{tile.low} | {tile.high}"


def hand(t: Translator, game: Game, view: PlayerView, move_no: int) -> InlineKeyboardMarkup:
    """The player's tiles: playable ones marked and live, the others inert."""
    gid = game.game_id
    playable = view.playable()
    discards = {a.tile for a in view.legal if type(a) is Discard}
    buttons = []
    for tile in sorted(view.hand, key=lambda x: (x.low, x.high)):
        label = tile_label(tile)
        ends = view.ends_for(tile)
        if tile in playable:
            kind = Kind.CHOOSE_END if len(ends) > 1 else Kind.PLAY
            buttons.append(_button(f"✅ {label}", Button(kind, gid, move_no, tile, ends[0]
                                                        if len(ends) == 1 else None)))
        elif tile in discards:
            buttons.append(_button(f"🂠 {label}", Button(Kind.DISCARD, gid, move_no, tile)))
        else:
            buttons.append(_button(label, Button(Kind.INERT, gid, move_no, tile)))
    rows = [buttons[i : i + TILES_PER_ROW] for i in range(0, len(buttons), TILES_PER_ROW)]
    return InlineKeyboardMarkup(rows)


def end_choice(
    t: Translator, game: Game, view: PlayerView, move_no: int, tile: Tile
) -> InlineKeyboardMarkup:
    ends = view.table.ends
    assert ends is not None
    gid = game.game_id
    return InlineKeyboardMarkup(
        [
            [_button(t("◀ left ({number})", number=ends[0]),
                     Button(Kind.PLAY, gid, move_no, tile, End.LEFT)),
             _button(t("right ({number}) ▶", number=ends[1]),
                     Button(Kind.PLAY, gid, move_no, tile, End.RIGHT))],
            [_button(t("↩ Back"), Button(Kind.BACK, gid, move_no))],
        ]
    )


