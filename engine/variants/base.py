"""What a game is: a small declarative definition the shared hand and match code consult.

Adding a game means adding a subclass (its seats, deal, opening, scoring and match end) that
declares its seams: the layout and matching rule, the stock and drawing rule, what a stuck
player does, who moves next, when a hand ends, points during play and how tiles lie. The
defaults are the plain line's (equal numbers, no stock, knock, next seat, out or blocked, no
points in play, everything along). :mod:`engine.machine` applies them; nothing else changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from operator import attrgetter
from typing import TYPE_CHECKING

from ..board import Piece
from ..deal import Deal
from ..errors import BadInputError
from ..events import HandEndReason, ScoreReason
from ..machine import EVERY_TILE, SHOWS, mask_of
from ..options import SET_ANY, Options, OptionSpec, build_options, target
from ..tiles import End, Tile

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..board import Board
    from ..hand import Hand
    from ..machine import HandCore
    from ..table import StockHand


PIPS = attrgetter("pips")
Score = tuple[int, ScoreReason]  # points scored during play and why
NO_POINTS: tuple[Score, ...] = ()
# The seams the plain line's fast path takes as they are here: a game overriding one of
# them is played on the board (see :meth:`Variant.plain_line`).
LINE_HOOKS = (
    "lead_cross", "ways", "end_open", "cut_mask", "lead_points", "play_points", "knock_points",
    "out_seat", "blocked_by_table",
)
_PLAIN_HOOKS: dict[type, bool] = {}  # per game class: keeps every hook in LINE_HOOKS


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
    # Bergen's blocked hand where every player holds a double: the lowest, which won it
    lowest_double: Tile | None = None


class Variant:
    """Base of every game definition. Subclasses set the class attributes and hooks."""

    name: str = ""
    aliases: tuple[str, ...] = ()  # other names a player may type, lower case
    seat_counts: tuple[int, ...] = (4,)
    option_specs: tuple[OptionSpec, ...] = (SET_ANY, target(100))  # in display order
    lowest_total_wins: bool = False  # points count against a seat (penalty games)
    doubles_across: bool = False  # only the picture changes
    # The seams (defaults: the plain line of the first three games).
    layout: str = "line"  # "line", "spinner" (Muggins) or "ribbons" (Kolbasa)
    join_sum: int | None = None  # None: equal numbers join; else halves adding up to it
    matadors: frozenset[Tile] = frozenset()  # laid crosswise at any end
    matadors_along: bool = True  # a matador may also go along where it fits (not 0-0)
    draw_limit: int | None = None  # tiles a stuck player may draw in one turn (None: no limit)
    stock_reserve: int = 0  # tiles of the stock that are never drawn (Bergen: 2)
    skip_empty: bool = False  # a seat with no tiles and an empty stock is skipped
    has_cut: bool = False  # Kolbasa's ribbons may be cut
    points_in_play: bool = False  # most points come during play: points decide, not wins
    keeps_scored: bool = False  # a hand's result lists per seat what was scored in play

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

    def lobby_options(self, given: Mapping[str, object], seated: int) -> Options:
        """The options of a table still filling, with ``seated`` players: for that many seats
        when they are a table the game is played by and the options fit it, else for the
        fewest seats they fit (``deal=5`` is for five players). Raises
        :class:`BadInputError` (the first seat count's) when they fit no table."""
        error: BadInputError | None = None
        for seats in sorted(self.seat_counts, key=lambda seats: (seats != seated, seats)):
            try:
                return self.options(given, seats)
            except BadInputError as exc:
                error = error or exc
        assert error is not None
        raise error

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
        """The state of a new hand, on the layout the seams call for."""
        line, board = _layouts()
        kind = line if self.plain_line(options, deal.seats) else board
        return kind(self, options, deal, opening, number, scores_before)

    def plain_line(self, options: Options, seats: int) -> bool:
        """Whether every seam is the plain line's, so that the bit-mask line plays the game:
        equal numbers on one line, no stock, no cut, no crosswise tile, no points in play."""
        cls = type(self)
        hooks = _PLAIN_HOOKS.get(cls)
        if hooks is None:
            hooks = all(getattr(cls, hook) is getattr(Variant, hook) for hook in LINE_HOOKS)
            _PLAIN_HOOKS[cls] = hooks
        return (
            hooks
            and self.layout == "line"
            and self.join_sum is None
            and not self.matadors
            and not self.has_cut
            and not self.skip_empty
            and not self.points_in_play
            and not self.stock_size(options, seats)
        )

    def has_dead_tiles(self, options: Options) -> bool:
        """What a stuck player does: discard a dead tile (True), or draw while the stock
        allows and then knock (False)."""
        return False

    # --- laying: the matching rule and how tiles lie ---------------------------------------
    def lead_cross(self, tile: Tile) -> bool:
        """Whether the lead lies crosswise (the rules fix it)."""
        return False

    def joins(self, number: int, tile: Tile) -> int | None:
        """The half of ``tile`` that may touch an open ``number`` along, or None."""
        if self.join_sum is None:
            return number if tile.shows(number) else None
        if number == 0:
            return None  # nothing is laid along on a blank
        need = self.join_sum - number
        return need if 0 <= need <= 6 and tile.shows(need) else None

    def along(self, opens: tuple[int, ...], tile: Tile) -> Piece | None:
        for number in opens:
            half = self.joins(number, tile)
            if half is not None:
                return Piece(tile, half, tile.other_half(half), False)
        return None

    def ways(self, board: Board, end: End, tile: Tile) -> tuple[Piece, ...]:
        """Every legal way to lay ``tile`` at ``end``: along first, then crosswise."""
        opens = board.opens(end)
        out: list[Piece] = []
        if tile in self.matadors:
            if self.matadors_along and not tile.is_double:
                piece = self.along(opens, tile)
                if piece is not None:
                    out.append(piece)
            out.append(Piece(tile, tile.low, tile.high, True))
            return tuple(out)
        piece = self.along(opens, tile)
        return () if piece is None else (piece,)

    def lay_mask(self, board: Board) -> int:
        """The tiles that could be laid somewhere on ``board`` now, as a bit mask (cuts
        included): one AND with a hand says whether it can lay."""
        if board.center is None:
            return EVERY_TILE
        fit = self.cut_mask(board)
        for end in board.arms:
            if self.end_open(board, end):
                fit |= self.end_fit(board, end)
        return fit

    def end_fit(self, board: Board, end: End) -> int:
        """The tiles that may be laid at ``end`` in some way (a superset :meth:`ways` sorts
        out: it is exact for every game here)."""
        fit = self.matador_mask
        total = self.join_sum
        for number in board.opens(end):
            if total is None:
                fit |= SHOWS[number]
            elif number and 0 <= total - number <= 6:
                fit |= SHOWS[total - number]
        return fit

    @cached_property
    def matador_mask(self) -> int:
        return mask_of(tuple(self.matadors))

    def only_matadors(self, numbers: Sequence[int]) -> bool:
        """Whether no ordinary tile of the set may join any of ``numbers``: only a matador
        goes there (never, in a game without matadors)."""
        if not self.matadors:
            return False
        tiles = [Tile(a, b) for a in range(7) for b in range(a, 7)]
        return not any(self.joins(number, tile) is not None for number in numbers
                       for tile in tiles if tile not in self.matadors)

    @cached_property
    def lays_crosswise(self) -> bool:
        """Whether a tile ever lies crosswise in this game: it has matadors, or a lead or a
        double lies across (a picture draws such a line tile by tile as it lies)."""
        tiles = [Tile(a, b) for a in range(7) for b in range(a, 7)]
        return bool(self.matadors) or any(self.lead_cross(tile) for tile in tiles)

    def cut_mask(self, board: Board) -> int:
        return 0

    def end_open(self, board: Board, end: End) -> bool:
        """Whether a tile may be laid at ``end`` now (Kolbasa keeps its ribbons level)."""
        return True

    # --- points during play ------------------------------------------------------------
    def lead_points(self, board: Board, piece: Piece) -> tuple[Score, ...]:
        return NO_POINTS

    def play_points(
        self, options: Options, board: Board, piece: Piece, end: End
    ) -> tuple[Score, ...]:
        if piece.cross and piece.tile in self.matadors and self.matador_score(options):
            return ((10, ScoreReason.MATADOR),)
        return NO_POINTS

    def matador_score(self, options: Options) -> bool:
        return False

    def knock_points(self, options: Options) -> tuple[Score, ...]:
        return NO_POINTS

    # --- the end of a hand -------------------------------------------------------------
    def out_seat(self, hand: HandCore, mover: int) -> int | None:
        """The seat whose empty hand ends the hand now, if any: by default the mover."""
        return mover if not hand.masks[mover] else None

    def blocked_by_table(self, hand: HandCore) -> bool:
        """Another way a hand blocks (French: no tile off the table fits anywhere)."""
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

    def pips_decide(self, reason: HandEndReason) -> bool:
        """Whether the pips left in hand (:meth:`totals`) count towards a hand that ended for
        ``reason``: where they count for nothing, a hand's result does not show them."""
        return True

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

    def score_hand(
        self,
        options: Options,
        reason: HandEndReason,
        out_seat: int | None,
        hands: Sequence[Sequence[Tile]],
        scored: tuple[int, ...],
        dead: Sequence[Sequence[Tile]] = (),
        totals: tuple[int, ...] | None = None,
    ) -> HandScore:
        """The hand's result: the points at its end (:meth:`score`) plus those scored during
        play (``scored``, per seat; empty where the game scores none). ``totals``: the
        :meth:`totals` of ``hands`` and ``dead`` when the caller has them already."""
        dead = dead or [[] for _ in hands]
        if totals is None:
            totals = self.totals(options, hands, dead)
        end = self.score(options, reason, out_seat, totals, hands, dead)
        if not scored:
            return end
        return HandScore(end.winner, tuple(a + b for a, b in zip(end.points, scored, strict=True)),
                         end.lowest_double)

    def match_outcome(
        self, options: Options, scores: tuple[int, ...], reached: bool
    ) -> tuple[bool, int | None, bool]:
        """(over, winner, target reached so far): :meth:`match_result` unless a game keeps
        playing after the target (the games of seed 002, on a tie for the best score)."""
        over, winner = self.match_result(options, scores)
        return over, winner, over

    def settlement(self, scores: tuple[int, ...], winner: int | None) -> tuple[int, ...] | None:
        """What the match's end shows as settled, apart from the scores: per side, what it
        receives (negative: pays); None where the game settles nothing (all but Six-matador)."""
        return None

    def match_result(self, options: Options, scores: tuple[int, ...]) -> tuple[bool, int | None]:
        """(over, winning side): by default the first side to reach the target wins."""
        for side, score in enumerate(scores):
            if score >= options.target:
                return True, side
        return False, None


@cache
def _layouts() -> tuple[type[Hand], type[StockHand]]:
    """The two layouts, imported once (they import this module)."""
    from ..hand import Hand
    from ..table import StockHand

    return Hand, StockHand


def lightest(totals: Sequence[int]) -> int | None:
    """The one seat with the fewest pips, or None on a tie."""
    low = min(totals)
    seats = [seat for seat, total in enumerate(totals) if total == low]
    return seats[0] if len(seats) == 1 else None


def winner_takes_the_rest(
    reason: HandEndReason, out_seat: int | None, totals: tuple[int, ...]
) -> HandScore:
    """Gaple's scoring (also Kolbasa's and Matador's): the out seat, or the one lightest
    hand, takes the pips of every other hand; a tie for lightest scores nobody."""
    winner = out_seat if reason is HandEndReason.OUT else lightest(totals)
    points = [0] * len(totals)
    if winner is not None:
        points[winner] = sum(totals) - totals[winner]
    return HandScore(winner, tuple(points))


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
