"""What a game is: a small declarative definition the shared hand and match code consult.

Adding a game means adding a subclass (its seats, deal, opening, scoring and match end) that
declares its seams: the layout and matching rule, the stock and drawing rule, what a stuck
player does, who moves next, when a hand ends, points during play and how tiles lie. The
defaults are the plain line's (equal numbers, no stock, knock, next seat, out or blocked, no
points in play, everything along). The hand (:mod:`engine.hand`, a floor above) applies
them; a variant never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from operator import attrgetter

from ..board import Board, Piece
from ..deal import Deal
from ..errors import BadInputError, shown
from ..events import HandEndReason, ScoreReason
from ..masks import EVERY_TILE, SHOWS, mask_of
from ..options import SET_ANY, Options, OptionSpec, build_options, target
from ..seams import NO_POINTS, HandEnd, HandScore, HandState, Opening, PreviousHand, Score
from ..tiles import End, Tile, full_set
from .scoring import winner_takes_the_rest

PIPS = attrgetter("pips")
DOUBLE_SIX = full_set(6)  # the games with matadors or crosswise tiles play this set


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
    ends_blocked_only: bool = False  # emptying a hand ends nothing: only a block does (D10)
    has_cut: bool = False  # Kolbasa's ribbons may be cut
    points_in_play: bool = False  # most points come during play: points decide, not wins
    keeps_scored: bool = False  # a hand's result lists per seat what was scored in play
    scores_count: bool = False  # the open ends' count scores (Muggins): each end's part shown
    # The deal and the match.
    deal_sizes: Mapping[int, int] = {4: 7}  # tiles dealt to each player, per seat count
    has_stock: bool = False  # the tiles not dealt are the stock, drawn by a stuck player
    plays_on_tie: bool = False  # after the target, play on while the best score is tied (D3)
    # The hard computer player's budget per decision in simulated moves, where it searches
    # the board (the plain line's games have their own solver): a move costs more in some
    # games, so each keeps its decisions about as quick (benchmarks.tournament).
    search_steps: int = 1500

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

    def seat_counts_for(self, given: Mapping[str, object]) -> tuple[int, ...]:
        """The table sizes the ``given`` options fit (gaple-dead's ``deal=7`` is four
        players', not five); every size the game is played by when they fit none."""
        fitting = []
        for seats in self.seat_counts:
            try:
                self.options(given, seats)
            except BadInputError:
                continue
            fitting.append(seats)
        return tuple(fitting) or self.seat_counts

    def check_seats(self, seats: object) -> None:
        if type(seats) is not int or seats not in self.seat_counts:
            allowed = " or ".join(map(str, self.seat_counts))
            raise BadInputError(f"{self.name} is played by {allowed} players, not {shown(seats)}")

    def sides(self, seats: int) -> tuple[tuple[int, ...], ...]:
        """Which seats score together; one side a seat unless a partnership game says so."""
        return tuple((seat,) for seat in range(seats))

    def side_of(self, seat: int, seats: int) -> int:
        for index, side in enumerate(self.sides(seats)):
            if seat in side:
                return index
        raise BadInputError(f"no seat {seat}")

    def hand_size(self, options: Options, seats: int) -> int:
        return self.deal_sizes[seats]

    def middle_size(self, options: Options, seats: int) -> int:
        return 0

    def stock_size(self, options: Options, seats: int) -> int:
        """Tiles dealt to the stock, face down in draw order: all the set's tiles not dealt
        to a player, in a game that has a stock."""
        if not self.has_stock:
            return 0
        highest = options.set
        return (highest + 1) * (highest + 2) // 2 - seats * self.hand_size(options, seats)

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

    def joined(self, opens: tuple[int, ...], piece: Piece) -> int | None:
        """The number among ``opens`` (an end's, before ``piece`` was laid there) that
        ``piece`` was laid against along: the one its inner half joins (see :meth:`along`);
        ``None`` for a piece laid crosswise, whose middle lies against the end."""
        if piece.cross:
            return None
        return next((n for n in opens if self.joins(n, piece.tile) == piece.inner), None)

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
        ordinary = [tile for tile in DOUBLE_SIX if tile not in self.matadors]
        return not any(self.joins(number, tile) is not None for number in numbers
                       for tile in ordinary)

    @cached_property
    def lays_crosswise(self) -> bool:
        """Whether a tile ever lies crosswise in this game: it has matadors, or a lead or a
        double lies across (a picture draws such a line tile by tile as it lies)."""
        return bool(self.matadors) or any(self.lead_cross(tile) for tile in DOUBLE_SIX)

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
    def out_seat(self, hand: HandState, mover: int) -> int | None:
        """The seat whose empty hand ends the hand now, if any: by default the mover."""
        if self.ends_blocked_only:
            return None
        return mover if not hand.masks[mover] else None

    def blocked_by_table(self, hand: HandState) -> bool:
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

    def ending(
        self,
        options: Options,
        reason: HandEndReason,
        out_seat: int | None,
        hands: Sequence[Sequence[Tile]],
        scored: tuple[int, ...] = (),
        dead: Sequence[Sequence[Tile]] = (),
    ) -> HandEnd:
        """How a hand ended, its :meth:`totals` counted: what :meth:`score_hand` reads."""
        dead = dead or [[] for _ in hands]
        return HandEnd(reason, out_seat, self.totals(options, hands, dead), hands, dead, scored)

    def score(self, options: Options, end: HandEnd) -> HandScore:
        """The points at the hand's end, per side: by default Gaple's (the out seat, or the
        one lightest hand, takes the pips of every other hand)."""
        return winner_takes_the_rest(end.reason, end.out_seat, end.totals)

    def score_hand(self, options: Options, end: HandEnd) -> HandScore:
        """The hand's result: the points at its end (:meth:`score`) plus those scored during
        play (``end.scored``, per seat; empty where the game keeps none)."""
        score = self.score(options, end)
        if not end.scored:
            return score
        points = tuple(a + b for a, b in zip(score.points, end.scored, strict=True))
        return HandScore(score.winner, points, score.decision)

    def match_outcome(
        self, options: Options, scores: tuple[int, ...], reached: bool
    ) -> tuple[bool, int | None, bool]:
        """(over, winner, target reached so far): :meth:`match_result`, or where the game
        plays on after a tie (:attr:`plays_on_tie`), the match ends after the first hand
        that leaves one side alone with the best score once some score reached the target."""
        if not self.plays_on_tie:
            over, winner = self.match_result(options, scores)
            return over, winner, over
        reached = reached or max(scores) >= options.target
        if not reached:
            return False, None, False
        best = min(scores) if self.lowest_total_wins else max(scores)
        leaders = [side for side, score in enumerate(scores) if score == best]
        return (True, leaders[0], True) if len(leaders) == 1 else (False, None, True)

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

