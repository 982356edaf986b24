"""Gaple with dead tiles: stuck players discard face down; lowest total wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..deal import Deal
from ..errors import BadInputError, OptionValueError
from ..events import DecidedBy, Decision
from ..options import SET_ANY, Options, choice, target
from ..seams import HandEnd, HandScore, Opening, PreviousHand
from ..tiles import Tile
from .base import Variant
from .openings import doubles_from, holder, lot_seat

BLANK_DOUBLE = Tile(0, 0)
DEAL_FOUR = choice("deal", 6, 7)  # what 4 players may be dealt
DEAL_FIVE = choice("deal", 5)


class GapleDead(Variant):
    name = "gaple-dead"
    aliases = ("gaple-mati", "mati", "dead", "dead-tiles", "gaple-dead-tiles", "gapledead",
               "гапле-мертвые")
    seat_counts = (4, 5)
    lowest_total_wins = True
    option_specs = (
        SET_ANY,
        target(101),
        choice("deal", 6, 7, 5),
        choice("dead_tiles", True, False),
        choice("blank_double_25", False, True),
    )

    def options(self, given: Mapping[str, object], seats: int) -> Options:
        options = super().options(given, seats)
        if seats == 5:
            if options.deal != 5 and "deal" in given:
                raise OptionValueError(
                    "with 5 players each player is dealt 5 tiles", "deal", DEAL_FIVE
                )
            # Stored as 5 so that the match's own record says what was played, and replays.
            return replace(options, deal=5)
        if options.deal not in (6, 7):
            raise OptionValueError(
                "with 4 players each player is dealt 6 or 7 tiles", "deal", DEAL_FOUR
            )
        return options

    def default_options(self, seats: int) -> Options:
        options = super().default_options(seats)
        return replace(options, deal=5) if seats == 5 else options

    def hand_size(self, options: Options, seats: int) -> int:
        return options.deal

    def middle_size(self, options: Options, seats: int) -> int:
        if seats == 5:
            return 3
        return 0 if options.deal == 7 else 4

    def has_dead_tiles(self, options: Options) -> bool:
        return options.dead_tiles

    def opening(self, options: Options, deal: Deal, previous: PreviousHand | None) -> Opening:
        if deal.middle:
            opener = lot_seat(deal) if previous is None else previous.winner_seat
            assert opener is not None
            return Opening(opener, turned_up=deal.middle[0])
        if previous is None:
            dealt = [t for hand in deal.hands for t in hand if t.is_double]
            if not dealt:
                raise BadInputError("no double was dealt, so nobody can lead the first hand")
            lowest = min(dealt, key=lambda t: t.low)
            return Opening(holder(deal.hands, lowest), (lowest,))
        start = previous.winner_seat
        assert start is not None
        return doubles_from(deal, start)

    def totals(
        self, options: Options, hands: Sequence[Sequence[Tile]], dead: Sequence[Sequence[Tile]]
    ) -> tuple[int, ...]:
        return tuple(
            self._total(options, list(hand) + list(gone))
            for hand, gone in zip(hands, dead, strict=True)
        )

    @staticmethod
    def _total(options: Options, counted: list[Tile]) -> int:
        total = sum(t.pips for t in counted)
        others = (t for t in counted if t is not BLANK_DOUBLE)
        if options.blank_double_25 and BLANK_DOUBLE in counted and not any(
            t.shows(0) for t in others
        ):
            total += 25
        return total

    def score(self, options: Options, end: HandEnd) -> HandScore:
        totals = end.totals
        lowest = [lowest_counted(list(hand) + list(gone))
                  for hand, gone in zip(end.hands, end.dead, strict=True)]

        def rank(seat: int) -> tuple[int, int, int]:
            tile = lowest[seat]
            if tile is None:  # no counted tiles at all beats some
                return (totals[seat], -1, -1)
            return (totals[seat], tile.pips, tile.low)

        winner = min(range(len(totals)), key=rank)
        return HandScore(winner, totals, tie_break(winner, totals, lowest))

    def match_result(self, options: Options, scores: tuple[int, ...]) -> tuple[bool, int | None]:
        if max(scores) < options.target:
            return False, None
        lowest = min(scores)
        leaders = [side for side, score in enumerate(scores) if score == lowest]
        return True, leaders[0] if len(leaders) == 1 else None


def lowest_counted(counted: Sequence[Tile]) -> Tile | None:
    """A seat's lowest counted tile for the tie-break: the smallest value (0-0 is worth 0,
    even where it counts 25), then the smaller lower half; None for no tiles."""
    return min(counted, key=lambda t: (t.pips, t.low), default=None)


def tie_break(winner: int, totals: Sequence[int], lowest: Sequence[Tile | None]
              ) -> Decision | None:
    """What broke the winner's tie for the lowest total (None: it had the lowest alone):
    the seats level with it, the winner first, with their lowest counted tiles."""
    level = [seat for seat, total in enumerate(totals)
             if total == totals[winner] and seat != winner]
    if not level:
        return None
    seats = (winner, *level)
    tile = lowest[winner]
    if tile is None:
        by = DecidedBy.NO_TILES
    elif any((other := lowest[seat]) is not None and other.pips == tile.pips for seat in level):
        by = DecidedBy.LOWER_HALF
    else:
        by = DecidedBy.LOWEST_TILE
    return Decision(by, seats, tuple(lowest[seat] for seat in seats))
