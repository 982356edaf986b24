"""A finished hand told again, move by move, from the match's record: what a replay shows.

Made from the deals and the moves alone, as a stored match is, so a replay can be had of any
hand of any stored match, after a restart too.
"""

from __future__ import annotations

from dataclasses import replace

from .errors import HandNotOverError
from .match import Match
from .views import TableView, table_view


def replayed_before(match: Match, number: int) -> Match:
    """A match of ``match``'s game and table with its hands before ``number`` played again
    from their deals and moves (seeds left out: each hand's seed is checked on its own)."""
    again = Match(match.variant, match.seats, match.options.to_dict(match.variant.option_names))
    for earlier in match.hands[:number]:
        again.start_hand(replace(earlier.deal, seed=None))
        for move in earlier.moves:
            again.step(move.seat, move.action)
    return again


def hand_tables(match: Match, hand_number: int) -> tuple[TableView, ...]:
    """The public table of the finished hand ``hand_number`` of ``match``: as dealt, after
    each of its moves in turn (knocks and draws too), the last with every hand laid open."""
    if not 0 <= hand_number < len(match.hands) or not match.hands[hand_number].over:
        raise HandNotOverError(f"hand {hand_number} of this match is not finished")
    again = replayed_before(match, hand_number)
    hand = match.hands[hand_number]
    again.start_hand(hand.deal)
    tables = [table_view(again)]
    for move in hand.moves:
        again.step(move.seat, move.action)
        tables.append(table_view(again))
    return tuple(tables)
