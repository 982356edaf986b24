"""What a game is: a small declarative definition the shared hand and match code consult.

Adding a game means adding a subclass here (its seats, deal, opening, stuck action, scoring
and match end), not changing :mod:`engine.hand` or :mod:`engine.match`. Games with a stock,
a spinner or scoring during play will add hooks here when they arrive.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING

from ..deal import Deal
from ..errors import BadInputError
from ..events import HandEndReason
from ..options import SET_ANY, Options, OptionSpec, build_options, target
from ..tiles import Tile

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..hand import Hand
    from ..table import StockHand


PIPS = attrgetter("pips")


@dataclass(frozen=True, slots=True)
class Opening:
    """Who acts first in a hand and what they may lead."""

    opener: int
    must_lead: tuple[Tile, ...] = ()  # empty: any tile (or the line is already started)
    turned_up: Tile | None = None  # a middle tile that starts the line, belonging to nobody


@dataclass(frozen=True, slots=True)
class PreviousHand:
    """What the next hand's opening may depend on."""

    opener: int
    winner_side: int | None
    winner_seat: int | None  # in games of one seat a side; None in partnership games


@dataclass(frozen=True, slots=True)
class HandScore:
    winner: int | None  # side; None for a drawn hand
    points: tuple[int, ...]  # per side


class Variant:
    """Base of every game definition. Subclasses set the class attributes and hooks."""

    name: str = ""
    aliases: tuple[str, ...] = ()  # other names a player may type, lower case
    seat_counts: tuple[int, ...] = (4,)
    option_specs: tuple[OptionSpec, ...] = (SET_ANY, target(100))  # in display order
    lowest_total_wins: bool = False  # points count against a seat (penalty games)
    doubles_across: bool = False  # only the picture changes

    def __repr__(self) -> str:
        return f"variant({self.name!r})"

    # --- options -----------------------------------------------------------------------
    @property
    def option_names(self) -> tuple[str, ...]:
        return tuple(spec.name for spec in self.option_specs)

    def option_spec(self, name: str) -> OptionSpec | None:
        return next((spec for spec in self.option_specs if spec.name == name), None)

    def default_target(self, seats: int) -> int:
        """The target for a table of ``seats``: the spec's default unless the game says."""
        spec = self.option_spec("target")
        assert spec is not None and type(spec.default) is int
        return spec.default

    def default_options(self, seats: int) -> Options:
        """The options a table of ``seats`` plays with when nobody changes any."""
        values = {spec.name: spec.default for spec in self.option_specs}
        values["target"] = self.default_target(seats)
        return Options(**values, names=self.option_names)  # type: ignore[arg-type]

    @property
    def defaults(self) -> Options:
        """The default options for the game's first seat count."""
        return self.default_options(self.seat_counts[0])

    def options(self, given: Mapping[str, object], seats: int) -> Options:
        """Validated options for a table of ``seats``. Raises :class:`BadInputError`
        (:class:`UnknownOptionError` or :class:`OptionValueError` for an option)."""
        self.check_seats(seats)
        return build_options(given, self.option_specs, self.default_options(seats))

    def check_seats(self, seats: object) -> None:
        if type(seats) is not int or seats not in self.seat_counts:
            allowed = " or ".join(map(str, self.seat_counts))
            raise BadInputError(f"{self.name} is played by {allowed} players, not {seats}")

    def sides(self, seats: int) -> tuple[tuple[int, ...], ...]:
        """Which seats score together; one side a seat unless a partnership game says so."""
        return tuple((seat,) for seat in range(seats))

    def side_of(self, seat: int, seats: int) -> int:
        for index, side in enumerate(self.sides(seats)):
            if seat in side:
                return index
        raise BadInputError(f"no seat {seat}")

    def hand_size(self, options: Options, seats: int) -> int:
        return 7

    def middle_size(self, options: Options, seats: int) -> int:
        return 0

    def stock_size(self, options: Options, seats: int) -> int:
        """Tiles dealt to the stock, face down in draw order (none in the first three games)."""
        return 0

    def new_hand(
        self,
        options: Options,
        deal: Deal,
        opening: Opening,
        number: int,
        scores_before: tuple[int, ...],
    ) -> Hand | StockHand:
        """The state of a new hand: the line games' bit-mask :class:`Hand` by default."""
        from ..hand import Hand

        return Hand(self, options, deal, opening, number, scores_before)

    def has_dead_tiles(self, options: Options) -> bool:
        return False

    # --- hands -------------------------------------------------------------------------
    def opening(self, options: Options, deal: Deal, previous: PreviousHand | None) -> Opening:
        """Who opens this hand. Raises :class:`BadInputError` when nobody can lead it."""
        raise NotImplementedError  # every concrete game defines its opening

    def totals(
        self, options: Options, hands: Sequence[Sequence[Tile]], dead: Sequence[Sequence[Tile]]
    ) -> tuple[int, ...]:
        """Per seat, the pips that count against it: by default the tiles left in hand."""
        return tuple([sum(map(PIPS, hand)) for hand in hands])

    def score(
        self,
        options: Options,
        reason: HandEndReason,
        out_seat: int | None,
        totals: tuple[int, ...],
        hands: Sequence[Sequence[Tile]],
        dead: Sequence[Sequence[Tile]],
    ) -> HandScore:
        raise NotImplementedError  # every concrete game defines its scoring

    def match_outcome(
        self, options: Options, scores: tuple[int, ...], reached: bool
    ) -> tuple[bool, int | None, bool]:
        """(over, winner, target reached so far): :meth:`match_result` unless a game keeps
        playing after the target (the games of seed 002, on a tie for the best score)."""
        over, winner = self.match_result(options, scores)
        return over, winner, over

    def match_result(self, options: Options, scores: tuple[int, ...]) -> tuple[bool, int | None]:
        """(over, winning side): by default the first side to reach the target wins."""
        for side, score in enumerate(scores):
            if score >= options.target:
                return True, side
        return False, None


def highest_double_lead(deal: Deal) -> Opening:
    """The holder of the highest double dealt must lead it."""
    best: Tile | None = None
    best_seat = 0
    for seat, hand in enumerate(deal.hands):
        for tile in hand:
            if tile.is_double and (best is None or tile.low > best.low):
                best, best_seat = tile, seat
    if best is None:
        raise BadInputError("no double was dealt, so nobody can lead the first hand")
    return Opening(best_seat, (best,))


def lot_seat(deal: Deal) -> int:
    """The seat drawn by lot, checked only where a game uses it (elsewhere it is ignored)."""
    if type(deal.lot) is not int or not 0 <= deal.lot < deal.seats:
        raise BadInputError(f"the seat drawn by lot must be 0 to {deal.seats - 1}")
    return deal.lot
