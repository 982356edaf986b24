"""Gaple with dead tiles: stuck players discard face down; lowest total wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..deal import Deal
from ..errors import BadInputError, OptionValueError
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
        totals, hands, dead = end.totals, end.hands, end.dead

        def rank(seat: int) -> tuple[int, int, int]:
            counted = list(hands[seat]) + list(dead[seat])
            if not counted:
                return (totals[seat], -1, -1)
            lowest = min(counted, key=lambda t: (t.pips, t.low))
            return (totals[seat], lowest.pips, lowest.low)

        winner = min(range(len(totals)), key=rank)
        return HandScore(winner, totals)

    def match_result(self, options: Options, scores: tuple[int, ...]) -> tuple[bool, int | None]:
        if max(scores) < options.target:
            return False, None
        lowest = min(scores)
        leaders = [side for side, score in enumerate(scores) if score == lowest]
        return True, leaders[0] if len(leaders) == 1 else None
