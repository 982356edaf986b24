"""The sentences of the games with a stock (seed 002): draws, cuts, ends up and down, tiles
laid across, points scored during play, the stock's size.

Split from :mod:`bot.texts` to keep each module readable; it reads only public views and
events, and one seat's own view (with the tiles it drew) for that seat's private message.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from engine import (
    End,
    Event,
    LayoutView,
    PieceCut,
    PointsScored,
    PublicMove,
    ScoreReason,
    TableView,
    Tile,
)

from .i18n import N_, Translator
from .stockplay import END_WORDS

# What a player reads after "Ayu scores 15: ..."
REASONS: dict[ScoreReason, str] = {
    ScoreReason.FIFTEEN: N_("the open ends add up to {points}"),
    ScoreReason.DOUBLE_HEADER: N_("a double header"),
    ScoreReason.TRIPLE_HEADER: N_("a triple header"),
    ScoreReason.DOUBLE_LEAD: N_("the hand was led with a double"),
    ScoreReason.MATADOR: N_("a matador laid across"),
    ScoreReason.JOINT: N_("a tile laid along"),
    ScoreReason.FREE_SIX: N_("a free 6 left open"),
    ScoreReason.KNOCK: N_("knocked"),
    ScoreReason.OUT: N_("went out"),
    ScoreReason.BLOCKED: N_("the lightest hand in a blocked hand"),
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
    return t.plural("{name} drew {count} tile from the stock.",
                    "{name} drew {count} tiles from the stock.", count, name=name)


def describe_cut(t: Translator, move: PublicMove, name: str) -> str:
    assert move.tile is not None
    if move.end is End.LEFT:
        return t("{name} cut the ribbons with {tile} and gave the left ribbon away.",
                 name=name, tile=str(move.tile))
    return t("{name} cut the ribbons with {tile} and gave the right ribbon away.",
             name=name, tile=str(move.tile))


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


def news(t: Translator, events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """What the group reads of a batch of events besides the table (whose caption already says
    who drew how many tiles and how many are left): points with their reason, and the cut
    with who takes the piece."""
    lines: list[str] = []
    scoring: list[PointsScored] = []  # one move's points (Six-matador: 1 + 5), said at once
    for event in events:
        if isinstance(event, PointsScored):
            if scoring and scoring[-1].seat != event.seat:
                lines.append(points_line(t, scoring, names))
                scoring = []
            scoring.append(event)
            continue
        if scoring:
            lines.append(points_line(t, scoring, names))
            scoring = []
        if isinstance(event, PieceCut):
            lines.append(t.plural(
                "✂ {name} cut with {tile}: {taker} takes {count} tile into their hand and "
                "moves next.",
                "✂ {name} cut with {tile}: {taker} takes {count} tiles into their hand and "
                "moves next.",
                len(event.taken), name=esc(names[event.seat]), tile=str(event.tile),
                taker=esc(names[event.taker])))
    if scoring:
        lines.append(points_line(t, scoring, names))
    return lines


def points_line(t: Translator, scored: Sequence[PointsScored], names: Sequence[str]) -> str:
    """One seat's points of one move, with every reason: "Ayu scores 6: a tile laid along,
    a free 6 left open"."""
    points = sum(event.points for event in scored)
    why = ", ".join(t(REASONS[event.why], points=event.points) for event in scored)
    name = esc(names[scored[0].seat])
    if points < 0:
        return t("{name} loses {points}: {why}.", name=name, points=-points, why=why)
    return t.plural("{name} scores {count} point: {why}.", "{name} scores {count} points: {why}.",
                    points, name=name, why=why)
