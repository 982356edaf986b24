"""How each game is presented: one entry per game, and the only place the bot lists games.

The rules' facts (names, aliases, seats, options with their choices and defaults, whether the
lowest total wins) belong to the engine's variant; an entry here adds what a player reads: the
title, the rules text, how each option and each of its choices is worded in /settings and in
the lobby, and the targets /settings suggests. Everything else in the bot iterates over
:data:`GAMES`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import Variant, variant

from .i18n import N_


@dataclass(frozen=True, slots=True)
class OptionText:
    """An option as /settings and the lobby word it.

    ``label`` has a ``{value}`` placeholder; ``choices`` words each value /settings offers
    (the variant's choices a group may pick, its default among them);
    ``in_force`` says, for a value other than the default, what the lobby lists.
    """

    label: str
    choices: Mapping[Any, str]
    in_force: Mapping[Any, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GamePresentation:
    name: str  # the engine variant's name
    title: str
    rules: str  # may use {target}
    went_out: str  # what the group reads when a player lays their last tile ({name}, {tile})
    options: Mapping[str, OptionText] = field(default_factory=dict)  # set and target aside
    targets: tuple[int, ...] = (50, 100, 101, 150, 200, 250)  # what /settings offers

    @property
    def variant(self) -> Variant:
        return variant(self.name)


ON_OFF = {True: N_("on"), False: N_("off")}

ENTRIES = (
    GamePresentation(
        "gaple",
        N_("Gaple"),
        N_("<b>Gaple</b> (4 players, 7 tiles each). The holder of the highest double leads it in "
           "the first hand; later the last winner leads any tile. Lay a tile whose number matches "
           "an open end; if you cannot, you knock (pass). The first to lay their last tile calls "
           "\"gaple!\" and scores the pips left in all other hands. If nobody can lay, the fewest "
           "pips wins (a tie is a draw). First to {target} points wins the match."),
        N_("Gaple! {name} went out with {tile}."),
    ),
    GamePresentation(
        "gaple-dead",
        N_("Gaple with dead tiles"),
        N_("<b>Gaple with dead tiles</b> (4 or 5 players). 4 players take 6 tiles (or 7 with the "
           "deal-7 option), 5 players take 5; the first middle tile is turned up and starts the "
           "line. If you cannot lay, you put one tile of your choice face down: a dead tile that "
           "counts against you. The hand ends when someone has no tiles or nobody can lay; every "
           "player's total is the pips in hand plus dead tiles, and the lowest total wins. Totals "
           "add up over the match; when someone reaches {target}, the lowest running total "
           "wins."),
        # Going out does not win here: the lowest total does.
        N_("{name} laid their last tile, {tile}."),
        {
            "deal": OptionText(
                N_("Deal: {value}"),
                {6: N_("6 each, 4 in the middle"), 7: N_("7 each, none in the middle")},
                {7: N_("7 tiles each, nothing in the middle")},
            ),
            "dead_tiles": OptionText(
                N_("Dead tiles: {value}"), ON_OFF, {False: N_("knock instead of dead tiles")}
            ),
            "blank_double_25": OptionText(
                N_("0-0 as the only blank counts 25: {value}"), ON_OFF,
                {True: N_("0-0 counts 25 when it is your only blank")},
            ),
        },
    ),
    GamePresentation(
        "pair",
        N_("Pair dominoes"),
        N_("<b>Pair dominoes</b> (4 players in two pairs: 1st and 3rd seats against 2nd and 4th; "
           "7 tiles each). The holder of the highest double leads it in the first hand; later the "
           "lead passes to the next seat. Lay a matching tile or knock; knocking while you can lay "
           "is not allowed. When a player lays their last tile, their pair scores the pips in the "
           "opponents' hands; if nobody can lay, the pair with fewer pips wins them. First pair to "
           "{target} points wins."),
        N_("Domino! {name} went out with {tile}."),
        {
            "first_lead": OptionText(
                N_("First lead: {value}"),
                {"6-6": N_("highest double"), "lot": N_("by lot")},
                {"lot": N_("first lead by lot")},
            ),
            "block_count": OptionText(
                N_("Blocked hand scores: {value}"),
                {"opponents": N_("opponents' hands"), "all": N_("all four hands")},
                {"all": N_("a blocked hand scores all four hands")},
            ),
        },
    ),
)

PRESENTATIONS: dict[str, GamePresentation] = {entry.name: entry for entry in ENTRIES}
GAMES: tuple[str, ...] = tuple(PRESENTATIONS)  # what the bot offers, in menu order


def presentation(game: str) -> GamePresentation:
    return PRESENTATIONS[game]


def find_game(text: str) -> str | None:
    """The game a user means by ``text`` (a name or an alias), if the bot offers it."""
    try:
        name = variant(text).name
    except ValueError:
        return None
    return name if name in PRESENTATIONS else None
