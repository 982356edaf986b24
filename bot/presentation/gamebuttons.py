"""The kinds of button that act on a table or a match rather than on a tile of a hand.

The pickers under a bare /newgame and /rules, the lobby's taps, the table's "My tiles" and
"Table", the questions a game asks (stop, leave, hand a seat to a computer), the way back to a
seat handed on while its player was away, the /settings menu and what sits under a result
(play again, replay a hand, check its deal). Each is declared with
:func:`.buttonforms.kind`; :mod:`.tilebuttons` holds the hand's own buttons, which carry a
move number and engine actions.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .buttonforms import CHOICE, GAME_NAME, LEVEL, NUMBER, WORD, ButtonData, kind, letters


# A picker from before it named its asker ("n:GAME") no longer decodes: its tap is answered
# as out of date (anyone could take the table with it), and the asker types /newgame again.
@kind("game", "n", ("game", GAME_NAME), ("asker", NUMBER))
@dataclass(frozen=True, slots=True)
class PickGame(ButtonData):
    """The game picker under a bare /newgame: open a table of ``game``. Only ``asker``, who
    typed the /newgame, may: the one who taps becomes the table's creator."""

    game: str
    asker: int


@kind("rules", "u", ("game", GAME_NAME))
@dataclass(frozen=True, slots=True)
class ShowRules(ButtonData):
    """The rules picker under a bare /rules: show ``game``'s rules."""

    game: str


@kind("again", "g", ("game_id", NUMBER))
@dataclass(frozen=True, slots=True)
class PlayAgain(ButtonData):
    """Under a match's result: open the same table again (same game, options and players)."""

    game_id: int


class LobbyAction(enum.Enum):
    JOIN = "j"
    LEAVE = "l"
    START = "s"
    CANCEL = "c"
    REMOVE_COMPUTER = "k"  # take the last computer player off
    OTHER_PAIRS = "t"  # partnership games: the next way of pairing the seated players
    FREE_SEATS = "F"  # a rematch goes on without the players who have not confirmed


@kind("lobby", ("action", letters({a.value: a for a in LobbyAction})), ("game_id", NUMBER))
@dataclass(frozen=True, slots=True)
class LobbyTap(ButtonData):
    game_id: int
    action: LobbyAction


@kind("lobby", "a", ("game_id", NUMBER), ("level", LEVEL))
@dataclass(frozen=True, slots=True)
class AddComputer(ButtonData):
    """Seat a computer player of ``level`` (the data carries the level's place in the list)."""

    game_id: int
    level: str


@kind("hand", "h", ("game_id", NUMBER))
@dataclass(frozen=True, slots=True)
class ShowHand(ButtonData):
    """The table's "My tiles": send the tapping player's hand again, privately."""

    game_id: int


@kind("table", "m", ("game_id", NUMBER))
@dataclass(frozen=True, slots=True)
class ShowTable(ButtonData):
    """"Table" (on the table message and a player's hand): the game's table is posted again
    at the bottom of the group, its old message retired."""

    game_id: int


@kind("stop", ("confirm", letters({"y": True, "x": False})), ("game_id", NUMBER))
@dataclass(frozen=True, slots=True)
class StopAnswer(ButtonData):
    game_id: int
    confirm: bool


@kind("leave", ("confirm", letters({"v": True, "w": False})), ("game_id", NUMBER),
      ("seat", NUMBER))
@dataclass(frozen=True, slots=True)
class LeaveAnswer(ButtonData):
    """The answer to "leave the running game?", asked of the player in ``seat`` only."""

    game_id: int
    seat: int
    confirm: bool


@kind("replace", "r", ("game_id", NUMBER), ("seat", NUMBER))
@dataclass(frozen=True, slots=True)
class ReplaceAway(ButtonData):
    """Hand the seat of an away player to a computer player."""

    game_id: int
    seat: int


@kind("take_back", "T", ("game_id", NUMBER), ("seat", NUMBER))
@dataclass(frozen=True, slots=True)
class TakeSeatBack(ButtonData):
    """"Take my seat back", in the private chat of a player whose seat was handed to a
    computer while they were away: they play it again (bot.service.returns)."""

    game_id: int
    seat: int


@kind("settings", "o", ("page", WORD), ("name", WORD), ("choice", CHOICE))
@dataclass(frozen=True, slots=True)
class SettingTap(ButtonData):
    """A tap in the /settings menu.

    ``page`` is "" for the main page, or a game's name for its options. ``name`` is the setting
    whose choices to show ("" to show the page itself; "done" on the main page closes the
    menu); ``choice`` is the index of the choice picked, or None to show the choices.
    """

    page: str = ""
    name: str = ""
    choice: int | None = None


@kind("replay", "R", ("game_id", NUMBER), ("hand", NUMBER))
@dataclass(frozen=True, slots=True)
class ReplayHand(ButtonData):
    """"🎞 Replay" under a hand's result, and each hand of the private /replay list: send
    hand ``hand`` (from 0) of the game as an animation, in the chat of the button."""

    game_id: int
    hand: int


@kind("verify", "V", ("game_id", NUMBER), ("hand", NUMBER))
@dataclass(frozen=True, slots=True)
class CheckDeal(ButtonData):
    """"Check the deal" (under a hand's result, and /verify's earlier hands): the check of
    hand ``hand`` (counting from 0) of the game, sent to the tapper's private chat."""

    game_id: int
    hand: int


@kind("language", "L", ("language", WORD))
@dataclass(frozen=True, slots=True)
class ChooseLanguage(ButtonData):
    """A button of private /language: the person reads the bot in ``language`` from now on
    ("": automatic again, as their Telegram and their games' groups decide)."""

    language: str
