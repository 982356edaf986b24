"""How each game is presented: one entry per game, and the only place the bot lists games.

The rules' facts (names, aliases, seats, options with their choices and defaults, whether the
lowest total wins) belong to the engine's variant; an entry here adds what a player reads: the
title, the rules text, how each option and each of its choices is worded in /settings and in
the lobby, and the targets /settings suggests. Everything else in the bot iterates over
:data:`GAMES`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine import Variant, variant

from .i18n import LANGUAGES, N_, translator


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
    # Words the table picture shows for this game in place of the renderers' defaults
    # (TableLabels field -> msgid): French calls its matadors honours.
    picture_words: Mapping[str, str] = field(default_factory=dict)
    # Sentences /rules adds after ``rules``, each a msgid of its own (so the translations of
    # ``rules`` stand): points players asked about, as the engine decides them.
    notes: tuple[str, ...] = ()

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
           "pips wins and scores the same way; a tie is a drawn hand that scores nothing, and "
           "its leader leads the next. First to {target} points wins the match."),
        N_("Gaple! {name} went out with {tile}."),
    ),
    GamePresentation(
        "gaple-dead",
        N_("Gaple with dead tiles"),
        N_("<b>Gaple with dead tiles</b> (4 or 5 players). 4 players take 6 tiles (or 7 with the "
           "deal=7 option), 5 players take 5; the first middle tile is turned up and starts the "
           "line (with 7 each there is no middle: the holder of 0-0 leads it in the first hand, "
           "later the last winner leads a double). If you cannot lay, you put one tile of your "
           "choice face down: a dead tile that counts against you. The hand ends when someone "
           "has no tiles or nobody can lay; every player's total is the pips in hand plus dead "
           "tiles, and the lowest total wins (a tie goes to the player whose lowest counted "
           "tile is the lowest). Who plays first onto the turned tile: a player chosen by lot "
           "in the first hand, later the last winner. Totals add up over the match; when "
           "someone reaches {target}, the lowest running total wins."),
        # Going out does not win here: the lowest total does.
        N_("{name} laid their last tile, {tile}."),
        {
            "deal": OptionText(
                N_("Deal: {value}"),
                {6: N_("6 each (5 with five players), the rest in the middle"),
                 7: N_("7 each, none in the middle")},
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
        notes=(  # (player QA; engine.variants.gaple_dead: score and match_result)
            N_("In a tied hand, a player left with no tiles at all (none in hand, none dead) "
               "wins over a player who has some."),
            N_("If the lowest running total is shared when the match ends, the match is a "
               "draw."),
        ),
    ),
    GamePresentation(
        "pair",
        N_("Pair dominoes"),
        N_("<b>Pair dominoes</b> (4 players in two pairs: 1st and 3rd seats against 2nd and 4th; "
           "7 tiles each). The holder of the highest double leads it in the first hand; later the "
           "lead passes to the next seat. Lay a matching tile or knock; knocking while you can lay "
           "is not allowed. When a player lays their last tile, their pair scores the pips in the "
           "opponents' hands; if nobody can lay, the pair with fewer pips wins them. A blocked "
           "hand with equal pips is a draw: nobody scores. First pair to {target} points wins."),
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
    GamePresentation(
        "kolbasa",
        N_("Kolbasa"),
        N_("<b>Kolbasa</b>, \"the sausage\" (2 to 4 players, 7 tiles each; 2 or 3 players draw "
           "from a stock). The first hand is led with 1-1 (if nobody holds it, the next double "
           "up: 2-2, 3-3 … 6-6, and 0-0 last); later the last winner leads a double. It lies "
           "across as the base, and two "
           "ribbons grow from it side by side, an upper and a lower one: lay a matching tile on "
           "a ribbon that is not longer than the other. When both ribbons are equally long you "
           "may cut them instead: "
           "lay the tile showing both end numbers across them, and give one ribbon to the "
           "previous player, who takes its tiles into their hand and moves next; the other "
           "ribbon is cut off. If you cannot lay, I draw for you until you can (with 4 players "
           "you knock). The first out, or the fewest pips when nobody can lay, scores the pips "
           "in the other hands. First to {target} points wins."),
        N_("{name} went out with {tile}!"),
        targets=(50, 100, 150, 200),
    ),
    GamePresentation(
        "matador",
        N_("Matador"),
        N_("<b>Matador</b> (2 to 4 players, 6 tiles each, 5 with 4 players). A seat chosen by "
           "lot leads any tile. Tiles do not match here, they add up: a tile joins an end when "
           "its touching half and the end's number make 7 (a 6 on a 1, a 2 on a 5), so a 0 end "
           "takes only a matador. The matadors 6-1, 5-2, 4-3 and 0-0 may be laid across at any "
           "end, and then the next tile there may join either of their halves. If you cannot "
           "lay, I draw one tile for you; if it does not fit, you knock. Laying your last tile "
           "does not end the hand: it ends when nobody can lay and the stock is empty, and the "
           "fewest pips in hand scores the pips of all other hands. First to {target} points "
           "wins."),
        N_("{name} laid their last tile, {tile}."),
        {
            "matador_points": OptionText(
                N_("10 points a matador: {value}"), ON_OFF,
                {True: N_("10 points for every matador laid across")},
            ),
        },
        targets=(50, 100, 150, 200),
    ),
    GamePresentation(
        "six-matador",
        N_("Six-matador"),
        N_("<b>Six-matador</b> (2 to 4 players, 6 tiles each, 7 with 4 players). As Matador, "
           "but the halves that touch add up to 6 (0-6, 1-5, 2-4, 3-3), and the matadors 0-6, "
           "1-5, 2-4, 3-3 and 0-0 are always laid across. A 0 end takes only a matador, though 0 "
           "and 6 make 6. Points come during play: 10 for a matador; with strict scoring also 1 "
           "for every tile laid along, 5 more when it leaves a 6 open, and minus 6 for every "
           "knock. The hand goes to the most points; the match ends when someone reaches "
           "{target} and one player leads alone."),
        N_("{name} laid their last tile, {tile}."),
        {
            "scoring": OptionText(
                N_("Scoring: {value}"),
                {"strict": N_("strict"), "simple": N_("matadors only")},
                {"simple": N_("only matadors score")},
            ),
        },
        targets=(50, 100, 150, 200),
    ),
    GamePresentation(
        "french",
        N_("French"),
        N_("<b>French</b> (2 to 5 players, 5 tiles each). The holder of the highest tile leads "
           "it. Tiles join when the touching halves add up to 7, as in Matador, so a 0 end "
           "takes only an honour; the honours 6-1, 5-2, 4-3 and 0-0 may be laid across at any "
           "end, and then the next tile there may join either of their halves. If you cannot "
           "lay, I draw for "
           "you until you can or the stock is empty. The hand ends when someone has no tiles "
           "and the stock is empty, or when no tile left anywhere fits. Every player counts the "
           "pips in their hand as penalty points; when someone reaches {target}, the lowest "
           "total wins."),
        N_("{name} laid their last tile, {tile}."),
        targets=(51, 101, 151, 201),
        picture_words={"only_matador": N_("honour only")},
    ),
    GamePresentation(
        "muggins",
        N_("Muggins"),
        N_("<b>Muggins</b>, all fives (2 players take 7 tiles, 3 or 4 take 5). Lay tiles "
           "matching an open end. The first double is the spinner: it lies across, and once it "
           "is down tiles may also go up and down from it, four ends in all. After each lay the "
           "open ends are added up: when they make a multiple of 5 you score that many (your "
           "hand message shows what each tile would score). If you cannot lay, I draw for you "
           "until you can. Going out scores 10; in a blocked hand the fewest pips scores the "
           "others' pips minus their own, rounded to the nearest 5. The first hand is led by a "
           "player chosen by lot, later hands by the last winner, with any tile. Once the stock "
           "is empty, if you cannot lay you knock. First to {target} points wins."),
        N_("Domino! {name} went out with {tile}."),
        targets=(100, 150, 200, 250),
    ),
    GamePresentation(
        "bergen",
        N_("Bergen"),
        N_("<b>Bergen</b> (2 to 4 players, 6 tiles each, 5 with 4 players). The holder of the "
           "lowest double leads it and scores 2. Lay matching tiles on the line; doubles lie "
           "across. When both ends show the same number you score 2 (a double header), or 3 "
           "when one of the end tiles is a double (a triple header). If you cannot lay, I draw "
           "one tile for you (the last two stay in the stock); if it does not fit, you knock. "
           "Going out scores 2; if nobody can lay, the 2 go to the lightest hand without a "
           "double (if every hand holds one, to the lowest double). With no double dealt, the "
           "holder of the lowest tile leads it. First to {target} points wins."),
        N_("{name} went out with {tile}!"),  # the result says what going out scored
        targets=(10, 15, 21),
    ),
)

PRESENTATIONS: dict[str, GamePresentation] = {entry.name: entry for entry in ENTRIES}
GAMES: tuple[str, ...] = tuple(PRESENTATIONS)  # what the bot offers, in menu order


def presentation(game: str) -> GamePresentation:
    return PRESENTATIONS[game]


# --- the names a player types ---------------------------------------------------------------
#: What does not tell two names apart: spaces, hyphens, dashes, underscores and dots.
_SEPARATORS = re.compile(r"[\s\-_.\u2010-\u2015]+")
#: Letters a keyboard without them writes otherwise (the accents go in :func:`name_key`).
_SPELLED = str.maketrans({"ё": "е", "ð": "d", "þ": "th", "æ": "ae", "ø": "o"})  # noqa: RUF001


def name_key(text: str) -> str:
    """A game's name made comparable: case, separators and accents do not count, so that
    "paradomino", "Sexu matador" and a Russian name typed with e for yo find their game."""
    folded = unicodedata.normalize("NFKD", text.casefold().translate(_SPELLED))
    return _SEPARATORS.sub("", "".join(c for c in folded if not unicodedata.combining(c)))


def names_of(game: str) -> tuple[str, ...]:
    """Every name ``game`` is known by: its id, the engine's aliases and its title in each of
    the bot's languages (what its buttons, /rules and the lobby show)."""
    entry = PRESENTATIONS[game]
    return (game, *entry.variant.aliases, *(translator(lang)(entry.title) for lang in LANGUAGES))


@cache
def _games_by_key() -> dict[str, str]:
    """Each name's key -> its game (built on first use: the titles come from the catalogues)."""
    return {name_key(name): game for game in GAMES for name in names_of(game)}


def find_game(text: str) -> str | None:
    """The game a user means by ``text`` (its id, an alias or a title), if the bot offers it."""
    return _games_by_key().get(name_key(text))


def read_game(words: Sequence[str]) -> tuple[str, int] | None:
    """The game named by the first of ``words`` and how many words its name takes. The longest
    name wins: "Gaple with dead tiles" is that game, not Gaple followed by three words."""
    longest = max(map(len, _games_by_key()))
    found: tuple[str, int] | None = None
    for count in range(1, len(words) + 1):
        key = name_key(" ".join(words[:count]))
        if len(key) > longest:  # (no name is longer: the rest are options)
            break
        if (game := _games_by_key().get(key)) is not None:
            found = game, count
    return found
