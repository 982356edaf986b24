"""Inline keyboards: lobby, game picker, table, a player's hand, the choice of a lay, stop."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine import Discard, PlayerView, Tile

from ..computers import COMPUTER_LEVELS
from ..gamebook import GAMES
from ..i18n import N_, Translator
from ..models import Game
from ..wording import isolated, shorten, title
from .callbacks import Button
from .gamebuttons import (
    AddComputer,
    LeaveAnswer,
    LobbyAction,
    LobbyTap,
    PickGame,
    PlayAgain,
    ShowHand,
    ShowRules,
    ShowTable,
    StopAnswer,
)
from .laychoices import lay_words, lays_of
from .lobbytexts import FREE_SEATS_BUTTON, PRIVATE_CHAT_BUTTON
from .tilebuttons import BackToHand, Lay, TileIntent, TileTap

TILES_PER_ROW = 4
LEVEL_BUTTONS = {"easy": N_("🤖 + easy"), "normal": N_("🤖 + normal"), "hard": N_("🤖 + hard"),
                 "expert": N_("🤖 + expert")}
LEVELS_PER_ROW = 2  # four levels: two rows, so each button's word fits on a phone


class Style(StrEnum):
    """An inline button's own colour (Bot API 10.0), beside the mark in its label, which
    clients that draw no colours still show."""

    PLAY = "success"  # green: a tile that can be laid, a way it can go
    CHOOSE = "primary"  # blue: a tile that may be put face down
    DANGER = "danger"  # red: a choice that ends or gives something up


def _button(text: str, button: Button, style: Style | None = None) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=button.encode(),
                                style=None if style is None else style.value)


def deep_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"


def game_picker(t: Translator, asker: int) -> InlineKeyboardMarkup:
    """A button per game, for ``asker`` (who typed the bare /newgame) alone to pick."""
    return InlineKeyboardMarkup(
        [[_button(title(t, game), PickGame(game, asker))] for game in GAMES]
    )


def rules_picker(t: Translator) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[_button(title(t, game), ShowRules(game))] for game in GAMES]
    )


def add_to_group(t: Translator, bot_username: str) -> InlineKeyboardMarkup:
    """Telegram's startgroup link: the user picks a group and the bot is added to it."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        t("👥 Add me to a group"), url=f"https://t.me/{bot_username}?startgroup=new")]])


def _computer_rows(t: Translator, game: Game) -> list[list[InlineKeyboardButton]]:
    """While a seat is free, one button per computer level, two to a row; while a computer
    sits, the one that takes one off, on a row of its own: it says what it does in words (a
    bare "🤖 ✕" told nobody), and a third button beside two levels would cut them. A button
    that could only be refused is not shown (a full table's levels)."""
    gid = game.game_id
    rows: list[list[InlineKeyboardButton]] = []
    if len(game.players) < max(game.seat_counts):
        buttons = [_button(t(LEVEL_BUTTONS[level]), AddComputer(gid, level))
                   for level in COMPUTER_LEVELS]
        rows += [buttons[i : i + LEVELS_PER_ROW] for i in range(0, len(buttons), LEVELS_PER_ROW)]
    if any(player.is_computer for player in game.players):
        rows.append([_button(t("🤖 ✕ Remove a computer player"),
                             LobbyTap(gid, LobbyAction.REMOVE_COMPUTER))])
    return rows


def lobby(
    t: Translator, game: Game, bot_username: str, pairs: bool = False
) -> InlineKeyboardMarkup:
    """The lobby's buttons; ``pairs``: the table is played in partnerships, and full. While
    a rematch's seats wait for their players' Join, its creator may free them instead."""
    gid = game.game_id
    return InlineKeyboardMarkup(
        [
            [_button(t("✋ Join"), LobbyTap(gid, LobbyAction.JOIN)),
             _button(t("Leave"), LobbyTap(gid, LobbyAction.LEAVE))],
            [_button(t("▶ Start"), LobbyTap(gid, LobbyAction.START)),
             _button(t("Cancel"), LobbyTap(gid, LobbyAction.CANCEL))],
            *([[_button(t(FREE_SEATS_BUTTON), LobbyTap(gid, LobbyAction.FREE_SEATS))]]
              if game.pending else []),
            *_computer_rows(t, game),
            *([[_button(t("🔀 Other pairs"), LobbyTap(gid, LobbyAction.OTHER_PAIRS))]]
              if pairs else []),
            [InlineKeyboardButton(t(PRIVATE_CHAT_BUTTON),
                                  url=deep_link(bot_username, f"join{gid}"))],
        ]
    )


def my_tiles(t: Translator, game: Game) -> InlineKeyboardMarkup:
    """The table message's buttons: "My tiles", sent again in private, and "Table", posted
    again at the bottom of the group when talk has scrolled it away."""
    return InlineKeyboardMarkup([[_button(t("👀 My tiles"), ShowHand(game.game_id)),
                                  table_button(t, game)]])


def play_again(t: Translator, game: Game) -> InlineKeyboardMarkup:
    """A finished match's last hand message in private: the rematch, as the group's result
    offers it (player QA: a player of the private chat could not start one from there)."""
    return InlineKeyboardMarkup([[_button(t("🔁 Play again"), PlayAgain(game.game_id))]])


def table_button(t: Translator, game: Game) -> InlineKeyboardButton:
    """The table posted again at the bottom of the group (on the table and on each hand)."""
    return _button(t("⬇ Table"), ShowTable(game.game_id))


def tables_picker(t: Translator, places: Sequence[tuple[Game, str, str]]
                  ) -> InlineKeyboardMarkup:
    """/table in private from a person at several tables: one "Table" button a table, named
    by its group and topic (``places``: each game with them; "" unknown), else its game."""
    def label(game: Game, group: str, topic: str) -> str:
        names = [isolated(shorten(name, 32)) for name in (group, topic) if name]
        return "⬇ " + (" · ".join(names) or title(t, game.game_name))

    return InlineKeyboardMarkup([[_button(label(*place), ShowTable(place[0].game_id))]
                                 for place in places])


def stop_confirmation(t: Translator, game: Game) -> InlineKeyboardMarkup:
    gid = game.game_id
    return InlineKeyboardMarkup(
        [[_button(t("Yes, stop the game"), StopAnswer(gid, confirm=True), Style.DANGER),
          _button(t("No, play on"), StopAnswer(gid, confirm=False))]]
    )


def leave_confirmation(t: Translator, game: Game, seat: int) -> InlineKeyboardMarkup:
    """Carries the seat it asks, so only that player's tap counts."""
    gid = game.game_id
    return InlineKeyboardMarkup(
        [[_button(t("Yes, leave"), LeaveAnswer(gid, seat, confirm=True), Style.DANGER),
          _button(t("No, stay"), LeaveAnswer(gid, seat, confirm=False))]]
    )


def hand_order(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    """The order a player's tiles are shown in, as buttons and on the hand picture alike:
    by their low half, then their high half (0-0, 0-1, ... 0-6, 1-1, ...)."""
    return tuple(sorted(tiles, key=lambda tile: (tile.low, tile.high)))


def tile_label(tile: Tile) -> str:
    """A tile as every button, caption and announcement writes it: "3-4"."""
    return str(tile)


def hand(t: Translator, game: Game, view: PlayerView, move_no: int) -> InlineKeyboardMarkup:
    """The player's tiles: playable ones marked and live (a tile with one lay lays it, one
    with several asks which), the others inert."""
    gid = game.game_id
    match = game.match
    assert match is not None
    discards = {a.tile for a in view.legal if type(a) is Discard}
    buttons = []
    for tile in hand_order(view.hand):
        label = tile_label(tile)
        lays = lays_of(view, tile, match)
        if len(lays) == 1:
            buttons.append(_button(f"✅ {label}", Lay.of(gid, move_no, lays[0]), Style.PLAY))
        elif lays:
            buttons.append(_button(f"✅ {label}", TileTap(gid, move_no, tile,
                                                         TileIntent.CHOOSE_END), Style.PLAY))
        elif tile in discards:  # (a last tile alone goes face down by itself: engine)
            buttons.append(_button(f"⬛ {label}", TileTap(gid, move_no, tile,
                                                         TileIntent.ASK_DISCARD), Style.CHOOSE))
        else:
            buttons.append(_button(label, TileTap(gid, move_no, tile, TileIntent.INERT)))
    rows = [buttons[i : i + TILES_PER_ROW] for i in range(0, len(buttons), TILES_PER_ROW)]
    return InlineKeyboardMarkup([*rows, [table_button(t, game)]])


def discard_confirmation(t: Translator, game: Game, move_no: int, tile: Tile
                         ) -> InlineKeyboardMarkup:
    gid = game.game_id
    return InlineKeyboardMarkup([
        [_button(t("⬛ Yes, put {tile} face down", tile=str(tile)),
                 TileTap(gid, move_no, tile, TileIntent.DISCARD), Style.CHOOSE)],
        [_button(t("↩ Back"), BackToHand(gid, move_no))],
    ])


def lay_choice(
    t: Translator, game: Game, view: PlayerView, move_no: int, tile: Tile
) -> InlineKeyboardMarkup:
    """The second tap: one button per lay of ``tile`` that differs (:func:`lays_of`), then
    Back. Each end is named as on the picture, with its number ("◀ left 5", Kolbasa's "▲
    upper 5"), how the tile lies and what that leaves where the way is said ("◀ left 1 across
    → 1/6"), a cut by the pips it gives, each with what it would score
    (:func:`.laychoices.lay_words`); a plain line's two ends stand side by side, elsewhere
    each end and way has its row, and each ribbon a cut may give away. (The callback data
    keep the engine's ends, L and R, whatever the words.)"""
    gid = game.game_id
    match = game.match
    assert match is not None
    lays = lays_of(view, tile, match)
    buttons = [_button(lay_words(t, view, match, action, lays), Lay.of(gid, move_no, action),
                       Style.PLAY) for action in lays]
    rows = [buttons] if view.table.layout.plain else [[button] for button in buttons]
    rows.append([_button(t("↩ Back"), BackToHand(gid, move_no))])
    return InlineKeyboardMarkup(rows)
