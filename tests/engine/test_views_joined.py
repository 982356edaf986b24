"""Each laid tile in the table's view says which number of the tile before it (towards the
lead; on Muggins' up and down arms, the spinner's) it was laid against: after a crosswise
matador, both of whose numbers are open, a picture that turns the line there shows that one
towards it (``LaidTile.joined``). Checked over whole hands of every game, played at random."""

from __future__ import annotations

import random

import pytest

from engine import LaidTile, LayoutView, Match, table_view, variant

GAMES = ["french", "matador", "six-matador", "muggins", "bergen", "kolbasa", "pair"]


def _touching(before: LaidTile, outward: bool) -> tuple[int, ...]:
    """The numbers ``before`` offered the tile after it: both of a crosswise tile, else the
    half it shows that way (``outward``: towards the right, or out along a spinner arm)."""
    if before.cross:
        return (before.first, before.second)
    return (before.second,) if outward else (before.first,)


def _pairs(layout: LayoutView) -> list[tuple[LaidTile, LaidTile, bool]]:
    """(the tile before, the tile, whether the line runs right or out) for every tile but
    the lead."""
    line, c = layout.line, layout.center
    assert c is not None
    pairs = [(line[i - 1], line[i], True) for i in range(c + 1, len(line))]
    pairs += [(line[i + 1], line[i], False) for i in range(c)]
    if layout.spinner is not None:
        hub = line[layout.spinner]
        for arm in (layout.up, layout.down):
            pairs += [(b, t, True) for b, t in zip((hub, *arm), arm, strict=False)]
    return pairs


def _check(game: str, layout: LayoutView) -> int:
    rules = variant(game)
    line, c = layout.line, layout.center
    if c is None:
        assert not line
        return 0
    assert line[c].joined is None  # the lead joined nothing
    seen = 0
    for before, tile, outward in _pairs(layout):
        if tile.cross:
            assert tile.joined is None, (game, tile)
            continue
        assert tile.joined in _touching(before, outward), (game, before, tile)
        inner = tile.first if outward else tile.second
        assert rules.joins(tile.joined, tile.tile) == inner, (game, before, tile)
        seen += before.cross and before.first != before.second
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_each_tile_says_which_number_of_the_tile_before_it_it_joined(game: str) -> None:
    rng = random.Random(5)
    matadors = 0
    for _ in range(12):
        match = Match(game, variant(game).seat_counts[0])
        match.deal_hand(rng)
        _check(game, table_view(match).layout)  # before the lead too
        while match.hand.result is None:
            seat = match.to_move
            assert seat is not None
            legal = match.legal_actions()
            match.apply(seat, legal[rng.randrange(len(legal))])
            matadors += _check(game, table_view(match).layout)
    if game in ("french", "matador", "six-matador"):
        assert matadors  # tiles laid on a crosswise matador were seen
