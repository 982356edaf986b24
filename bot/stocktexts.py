"""The sentences of the games with a stock (seed 002): draws, cuts, ends up and down, tiles
laid across, points scored during play, the stock's size.

Kept apart from :mod:`bot.movetexts` and :mod:`bot.captions` to keep each module readable; it
reads only public views, and one seat's own view (with the tiles it drew) for that seat's
private message.

How the group hears of a hand (every game, one policy): everything that happens during a hand
(each lay with what it scored and why, draws, knocks, Kolbasa's cut and who takes the piece) is
told in the table's caption, the one group message kept up to date, whose lines show the last
round of moves; the hand's result then lists every seat's points of play by reason. New group
messages are sent only for a hand's result, the match's result, and what asks someone to act
(the table is ready, a player seems away). A group playing every evening reads the table, not
a stream of "Ayu scores 5"; and every group message counts against Telegram's 20 a minute.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from engine import ActionKind, End, LayoutView, PublicMove, ScoreReason, TableView, Tile

from .i18n import N_, Translator
from .stockplay import END_WORDS

# Why a lay scored, after "+15: ..." (a knock's cost is said in its own sentence: knock_cost)
REASONS: dict[ScoreReason, str] = {
    ScoreReason.FIFTEEN: N_("the open ends add up to {points}"),
    ScoreReason.DOUBLE_HEADER: N_("a double header"),
    ScoreReason.TRIPLE_HEADER: N_("a triple header"),
    ScoreReason.DOUBLE_LEAD: N_("the hand was led with a double"),
    ScoreReason.MATADOR: N_("a matador laid across"),
    ScoreReason.JOINT: N_("a tile laid along"),
    ScoreReason.FREE_SIX: N_("a free 6 left open"),
    ScoreReason.OUT: N_("went out"),
    ScoreReason.BLOCKED: N_("the lightest hand in a blocked hand"),
}

# The same, as nouns, in a hand's list of the points of play: "matadors 2 times 10"
REASON_NOUNS: dict[ScoreReason, str] = {
    ScoreReason.FIFTEEN: N_("count"),
    ScoreReason.DOUBLE_HEADER: N_("double headers"),
    ScoreReason.TRIPLE_HEADER: N_("triple headers"),
    ScoreReason.DOUBLE_LEAD: N_("double lead"),
    ScoreReason.MATADOR: N_("matadors"),
    ScoreReason.JOINT: N_("tiles along"),
    ScoreReason.FREE_SIX: N_("free sixes"),
    ScoreReason.KNOCK: N_("knocks"),
    ScoreReason.OUT: N_("going out"),
    ScoreReason.BLOCKED: N_("blocked hand"),
}

# Kolbasa: the ribbon that must wait, explained where its ⏸ is shown
WAITS: dict[End, str] = {
    End.LEFT: N_("⏸ The left ribbon waits until the right one catches up."),
    End.RIGHT: N_("⏸ The right ribbon waits until the left one catches up."),
}

# A lay as the group reads it: (end, across) -> sentence
_LAID: dict[tuple[End, bool], str] = {
    (End.LEFT, False): N_("{name} laid {tile} on the left."),
    (End.RIGHT, False): N_("{name} laid {tile} on the right."),
    (End.UP, False): N_("{name} laid {tile} upwards."),
    (End.DOWN, False): N_("{name} laid {tile} downwards."),
    (End.LEFT, True): N_("{name} laid {tile} across on the left."),
    (End.RIGHT, True): N_("{name} laid {tile} across on the right."),
    (End.UP, True): N_("{name} laid {tile} across upwards."),
    (End.DOWN, True): N_("{name} laid {tile} across downwards."),
}


def esc(text: str) -> str:
    return html.escape(text, quote=False)


def describe_lay(t: Translator, move: PublicMove, name: str) -> str:
    """A lay at an end (``name`` already escaped): along or across, left, right, up, down."""
    assert move.tile is not None and move.end is not None
    return t(_LAID[move.end, bool(move.cross)], name=name, tile=str(move.tile))


def describe_draw(t: Translator, name: str) -> str:
    return t("{name} drew a tile from the stock.", name=name)


def describe_draws(t: Translator, name: str, count: int) -> str:
    if count == 1:
        return describe_draw(t, name)
    return t.plural("{name} drew {count} tile from the stock.",
                    "{name} drew {count} tiles from the stock.", count, name=name)


def describe_cut(t: Translator, move: PublicMove, name: str, taker: str) -> str:
    """Kolbasa's cut (names already escaped): which ribbon went to whom, and how many tiles."""
    assert move.tile is not None
    if move.end is End.LEFT:
        return t.plural(
            "✂ {name} cut with {tile}: {taker} takes the left ribbon, {count} tile, and "
            "moves next.",
            "✂ {name} cut with {tile}: {taker} takes the left ribbon, {count} tiles, and "
            "moves next.", len(move.taken), name=name, tile=str(move.tile), taker=taker)
    return t.plural(
        "✂ {name} cut with {tile}: {taker} takes the right ribbon, {count} tile, and "
        "moves next.",
        "✂ {name} cut with {tile}: {taker} takes the right ribbon, {count} tiles, and "
        "moves next.", len(move.taken), name=name, tile=str(move.tile), taker=taker)


def describe_cut_to_taker(t: Translator, move: PublicMove, name: str) -> str:
    """The cut, in the private message of the player who takes the ribbon: which tiles
    they got (``name``, the cutter's, already escaped)."""
    assert move.tile is not None
    tiles = ", ".join(map(str, move.taken))
    if move.end is End.LEFT:
        return t("✂ {name} cut with {tile}: you take the left ribbon: {tiles}.", name=name,
                 tile=str(move.tile), tiles=tiles)
    return t("✂ {name} cut with {tile}: you take the right ribbon: {tiles}.", name=name,
             tile=str(move.tile), tiles=tiles)


def ends_line(t: Translator, layout: LayoutView) -> str:
    """"Open ends: left 3 · right 5 · up 2" (Kolbasa's ribbon that must wait is marked)."""
    parts = []
    for end in layout.ends:
        text = f"{t(END_WORDS[end.end])} {'/'.join(map(str, end.numbers))}"
        parts.append(text if end.open else text + " ⏸")
    return t("Open ends: {ends}.", ends=" · ".join(parts))


def stock_line(t: Translator, view: TableView) -> str:
    return t.plural("Stock: {count} tile.", "Stock: {count} tiles.", view.stock_count)


def drawn_line(t: Translator, tiles: Sequence[Tile]) -> str:
    """Private: which tiles the bot drew for the player."""
    return t.plural("I drew a tile for you: {tiles}.", "I drew {count} tiles for you: {tiles}.",
                    len(tiles), tiles=", ".join(map(str, tiles)))


def gains_line(t: Translator, gains: Sequence[tuple[Tile, End | None, int]]) -> str:
    """Private: what each playable tile would score now."""
    parts = [f"{tile} {t(END_WORDS[end])} +{points}" if end is not None else f"{tile} +{points}"
             for tile, end, points in gains]
    return t("Points if you lay now: {list}.", list=" · ".join(parts))


def move_points(t: Translator, move: PublicMove) -> str:
    """What one lay scored, after the lay's own sentence: "+20: the open ends add up to
    20.", "+6: a tile laid along, a free 6 left open." ("" if none, and for a knock, whose
    sentence says its cost: see :func:`knock_cost`)."""
    if not move.points or move.kind is ActionKind.KNOCK:
        return ""
    points = sum(amount for amount, _ in move.points)
    why = ", ".join(t(REASONS[reason], points=abs(amount)) for amount, reason in move.points)
    return f"{points:+d}: {why}."


def knock_cost(move: PublicMove) -> str:
    """What a knock cost, signed ("-6" in Six-matador's strict scoring), or "" if nothing."""
    cost = sum(amount for amount, _ in move.points) if move.kind is ActionKind.KNOCK else 0
    return f"{cost:+d}" if cost else ""


def points_list(t: Translator, moves: Sequence[PublicMove], seat: int) -> str:
    """A seat's points of play in a hand, by reason: "count 10 + 5 + 15", "matadors 2 times
    10, tiles along 8 times 1, knocks 2 times -6" (with a multiplication sign); "" if the
    seat scored nothing."""
    amounts: dict[ScoreReason, list[int]] = {}
    for move in moves:
        if move.seat == seat:
            for amount, reason in move.points:
                amounts.setdefault(reason, []).append(amount)
    parts = []
    for reason in REASON_NOUNS:  # always in the same order
        scored = amounts.get(reason)
        if not scored:
            continue
        if len(scored) == 1:
            figures = str(scored[0])
        elif len(set(scored)) == 1:
            figures = f"{len(scored)} \N{MULTIPLICATION SIGN} {scored[0]}"
        else:
            figures = " + ".join(map(str, scored)).replace("+ -", "- ")
        parts.append(f"{t(REASON_NOUNS[reason])} {figures}")
    return ", ".join(parts)


def waiting_line(t: Translator, layout: LayoutView) -> str:
    """Kolbasa: what the ⏸ by a ribbon's end means ("" while both ribbons may take a tile)."""
    waits = [end.end for end in layout.ends if not end.open]
    if not waits or waits[0] not in WAITS:
        return ""
    return t(WAITS[waits[0]])
