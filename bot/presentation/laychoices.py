"""The second tap's lays: which lays of a tile are worth a button, and each button's words.

A lay is named by its end ("◀ left 5", Kolbasa's "▲ upper 4"); where a tile may lie two ways
there, or lies crosswise unlike others of its kind, by its way too, and then by what it
leaves ("▶ right 1 across → 1/6", Muggins' "◀ left 4 across → count 16"); a cut by the pips
of the ribbon it gives away. What a lay leaves is the engine's (:func:`engine.lay_outcome`,
the lay tried on a fork of the hand): nothing here works the rules out again.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Cut, End, LayOutcome, Match, Play, PlayerView, Tile, lay_outcome, variant

from ..i18n import N_, Translator
from ..wording import end_words

END_MARKS = {End.LEFT: "◀", End.RIGHT: "▶", End.UP: "▲", End.DOWN: "▼"}
# Kolbasa's ribbons lie one above the other on the picture, marked there as here
RIBBON_MARKS = {End.LEFT: "▲", End.RIGHT: "▼"}

#: Where the game scores the count (Muggins), what a way leaves is the count after it.
COUNT_AFTER = N_("→ count {count}")


def lays_of(view: PlayerView, tile: Tile, match: Match) -> tuple[Play | Cut, ...]:
    """Every legal lay of ``tile`` that does something the others do not: each end and way,
    and the cuts it makes; of two lays on a line's two ends alike, the first (player QA: a
    Bergen double led, and 6-1 asked "◀ left 6 / ▶ right 6", the same move twice); of two
    ways at one end that leave the same (Muggins' 0-0, along or across, counts 0), the
    first; of a last tile's lays that each end the hand with the same result, the first
    (player QA: Gaple's last 1-5 on ends 1 and 5 asked "◀ left 1 / ▶ right 5", "gaple!"
    either way). ``match`` is the view's (the ways are tried on it)."""
    lays: list[Play | Cut] = []
    for action in view.legal:
        if isinstance(action, Play | Cut) and action.tile is tile \
                and not any(_alike(view, action, kept) or _ways_alike(match, view, action, kept)
                            for kept in lays):
            lays.append(action)
    if len(lays) > 1 and len(view.hand) == 1:
        return _last_lays(match, view, lays)
    return tuple(lays)


def _last_lays(match: Match, view: PlayerView, lays: Sequence[Play | Cut]
               ) -> tuple[Play | Cut, ...]:
    """A last tile's lays but those that end the hand as an earlier one does
    (:meth:`engine.LayOutcome.ends_alike`: the same result, points and scores after it).
    Whether going out ends the hand is the engine's: in Matador the seat is skipped and the
    hand goes on, so where the tile goes still matters to the others, and it still asks; in
    Muggins each end leaves its own count, so the points differ, and it still asks. Tried on
    the engine for the last tile alone, with more than one lay, so the keyboard stays
    cheap."""
    kept: list[tuple[Play | Cut, LayOutcome]] = []
    for lay in lays:
        outcome = _outcome(match, view, lay)
        if not any(outcome.ends_alike(other) for _, other in kept):
            kept.append((lay, outcome))
    return tuple(lay for lay, _ in kept)


def _alike(view: PlayerView, one: Play | Cut, other: Play | Cut) -> bool:
    """Whether two lays of a tile leave the same hand but for which side is which: one way,
    on a line's (no spinner, no ribbons) two ends alike in all the line keeps of an end (its
    open numbers, whether a tile may go there, what it counts, whether the tile ending it is
    a double and how it lies), scoring alike. Points are asked last: a move's hand message
    builds its keyboard on every sync, and most tiles have one lay."""
    layout = view.table.layout
    if type(one) is not Play or type(other) is not Play or layout.kind != "line" \
            or not layout.line or one.cross != other.cross \
            or {one.end, other.end} != {End.LEFT, End.RIGHT}:
        return False
    ends = {end.end: end for end in layout.ends}
    if one.end not in ends or other.end not in ends:
        return False
    first, last = layout.line[0], layout.line[-1]
    if (ends[End.LEFT].numbers, ends[End.LEFT].open, ends[End.LEFT].only_matadors,
            ends[End.LEFT].counted, first.tile.is_double, first.cross) != (
            ends[End.RIGHT].numbers, ends[End.RIGHT].open, ends[End.RIGHT].only_matadors,
            ends[End.RIGHT].counted, last.tile.is_double, last.cross):
        return False
    return view.points_of(one) == view.points_of(other)


def _ways_alike(match: Match, view: PlayerView, one: Play | Cut, other: Play | Cut) -> bool:
    """Whether two ways of a tile at one end leave positions that play and score alike from
    then on (:meth:`engine.LayOutcome.plays_alike`): tried on the engine only for a tile
    with two ways at one end, so the hand's keyboard stays cheap."""
    if type(one) is not Play or type(other) is not Play or one.end is not other.end \
            or one.cross is None or other.cross is None or one.cross == other.cross:
        return False
    return lay_outcome(match, view.seat, one).plays_alike(lay_outcome(match, view.seat, other))


def says_lie(view: PlayerView, play: Play, lays: Sequence[Play | Cut]) -> bool:
    """Whether the button names how ``play`` lies ("along", "across"): where ``lays`` (the
    tile's, :func:`lays_of`) offer both ways at its end, and where a tile lies crosswise
    unlike others of its kind (a matador or honour, doubles among them: Matador's 0-0 lies
    across, its other doubles along), so the player knows before the tap. Another double
    with one way is left unsaid: it lies as that game lays its doubles (an "across" on every
    Bergen double, or on Muggins' spinner, would say nothing new)."""
    if play.cross is None:
        return False
    odd = not play.tile.is_double or play.tile in variant(view.table.game).matadors
    ways = sum(1 for lay in lays if type(lay) is Play and lay.end is play.end)
    return (play.cross and odd) or ways > 1


def choice_question(t: Translator, view: PlayerView, tile: Tile, match: Match | None) -> str:
    """The caption's question above the buttons of ``tile``'s lays, in their words: what the
    → of a way says, what the ✂ of a cut says (the caption's note names who takes it)."""
    lays = lays_of(view, tile, match) if match is not None and view.my_turn else ()
    if any(type(lay) is Cut for lay in lays):
        return t("Where does {tile} go? Tap a ribbon, or cut: ✂ says how many pips the "
                 "ribbon you give holds.", tile=str(tile))
    if any(type(lay) is Play and says_lie(view, lay, lays) for lay in lays):
        if view.table.layout.scores_count:  # (a way's → is the count then: Indonesian QA)
            return t("Where does {tile} go? Tap an end and a way: → says the count it leaves, "
                     "+ what it scores.", tile=str(tile))
        return t("Where does {tile} go? Tap an end and a way: → says what it leaves.",
                 tile=str(tile))
    if view.table.layout.scores_count and any(not view.points_of(lay) for lay in lays):
        return t("Where does {tile} go? Tap an end: → says the count it leaves, + what it "
                 "scores.", tile=str(tile))
    if view.table.layout.scores_count:  # every end scores (review: no button had a →)
        return t("Where does {tile} go? Tap an end: + says what it scores.", tile=str(tile))
    return t("Where does {tile} go? Tap an end.", tile=str(tile))


def lay_words(t: Translator, view: PlayerView, match: Match, action: Play | Cut,
              lays: Sequence[Play | Cut]) -> str:
    """A lay's button: its end and number as on the picture, how it lies where
    :func:`says_lie` asks for it and then what it leaves at that end ("→ 1/6"; where the game
    scores the count, the count after it, on every end), or the ribbon a cut gives and its
    pips; and what it would score at once."""
    layout = view.table.layout
    if type(action) is Cut:
        # The pips of the ribbon given, which go into the previous player's hand (the caption
        # says whose) and count against it: the two ribbons of a cut always hold as many
        # tiles (a cut needs them level), so their counts told nothing (player QA). Each
        # button has its own row, the phone's whole width.
        pips = sum(tile.pips for tile in _outcome(match, view, action).taken)
        text = t.plural("✂ give upper ribbon: {count} pip",
                        "✂ give upper ribbon: {count} pips", pips) \
            if action.give is End.LEFT else \
            t.plural("✂ give lower ribbon: {count} pip",
                     "✂ give lower ribbon: {count} pips", pips)
    else:  # a plain line's two ends are named as every other layout's ("◀ left 5")
        assert type(action) is Play and action.end is not None
        marks = RIBBON_MARKS if layout.kind == "ribbons" else END_MARKS
        numbers = next("/".join(map(str, end.numbers)) for end in layout.ends
                       if end.end is action.end)
        text = f"{marks[action.end]} {t(end_words(layout.kind)[action.end])} {numbers}"
        if says_lie(view, action, lays):
            text += " " + (t("across") if action.cross else t("along"))
            text += " " + _leaves(t, _outcome(match, view, action))
        elif layout.scores_count and not view.points_of(action):
            # where the count scores, an end that scores nothing says the count it leaves (a
            # scoring one says its points, the count itself); player QA: Muggins' doubles
            # said "→ count 5", other tiles nothing
            text += " " + _leaves(t, _outcome(match, view, action))
    points = view.points_of(action)
    return text + (f" +{points}" if points else "")


def _outcome(match: Match, view: PlayerView, action: Play | Cut) -> LayOutcome:
    return lay_outcome(match, view.seat, action)


def _leaves(t: Translator, outcome: LayOutcome) -> str:
    """What a way leaves: the numbers open at its end then ("→ 1/6", as the caption's open
    ends write a crosswise matador's), or where the count scores, the count then."""
    if outcome.layout.scores_count:
        return t(COUNT_AFTER, count=outcome.layout.count)
    play = outcome.action
    end = outcome.end(play.end) if type(play) is Play and play.end is not None else None
    return "→ " + ("/".join(map(str, end.numbers)) if end is not None else "—")
