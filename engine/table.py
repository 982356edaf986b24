"""One hand of a game of seed 002: a stock, drawing, ends that may be many, crosswise tiles,
Kolbasa's cut and points scored during play. The variant (:class:`StockGame`) owns the rules'
seams; this class applies them, check / can / apply written once as in :mod:`engine.hand`.
"""

from __future__ import annotations

from operator import add

from .actions import DRAW, KNOCK, Action, Cut, Discard, Draw, Knock, Move, Play
from .board import LEFT, RIGHT, Board, Piece
from .deal import Deal
from .errors import (
    CannotDrawError,
    CrossNotAllowedError,
    CrossRequiredError,
    CutNotAllowedError,
    EndRequiredError,
    HandOverError,
    MustDrawError,
    MustPlayError,
    NoSuchEndError,
    NotYourTurnError,
    TileDoesNotFitError,
    TileNotInHandError,
    WrongLeadError,
    WrongStuckActionError,
)
from .events import (
    Event,
    HandEnded,
    HandEndReason,
    Knocked,
    PieceCut,
    PointsScored,
    SpinnerOpened,
    TileDrawn,
    TilePlayed,
)
from .hand import HandCore, mask_of, tiles_of
from .options import Options
from .tiles import End, Tile
from .variants.base import Opening
from .variants.stock import Score, StockGame


class StockHand(HandCore):
    """The state of one hand of a stock game. Changed only through :meth:`apply`/:meth:`step`."""

    dead_tiles = False

    def __init__(
        self,
        variant: StockGame,
        options: Options,
        deal: Deal,
        opening: Opening,
        number: int = 0,
        scores_before: tuple[int, ...] | None = None,
    ) -> None:
        self.variant = variant
        self._setup(variant, options, deal, opening, number, scores_before)
        self.stock = deal.stock
        self.drawn = 0
        self.board = Board()
        self.faced: list[tuple[int, int] | None] = []  # the line's ends before each move
        self.told: list[tuple[Event, ...]] = []  # each move's events, for the table's view
        self.scored: list[int] = [0] * self.seats
        self.draws = 0  # tiles the seat to move has drawn this turn

    # --- reading -----------------------------------------------------------------------
    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.drawn

    @property
    def ends(self) -> tuple[int, int] | None:
        """The line's left and right numbers (a crosswise matador end: its lower half; the
        layout view has both)."""
        if self.board.center is None:
            return None
        return (self.board.opens(LEFT)[0], self.board.opens(RIGHT)[0])

    def totals(self) -> tuple[int, ...]:
        return tuple(sum(t.pips for t in hand) for hand in self.hands)

    def fork(self) -> StockHand:
        twin = object.__new__(StockHand)
        state = self.__dict__.copy()
        state["masks"] = self.masks.copy()
        state["board"] = self.board.copy()
        state["moves"] = self.moves.copy()
        state["faced"] = self.faced.copy()
        state["told"] = self.told.copy()
        state["scored"] = self.scored.copy()
        state["dead"] = [[] for _ in range(self.seats)]
        twin.__dict__.update(state)
        return twin

    def open_ends(self) -> tuple[End, ...]:
        board, game = self.board, self.variant
        return tuple(end for end in board.arms if game.end_open(board, end))

    def plays_of(self, seat: int) -> list[Action]:
        """Every lay open to ``seat`` now (plays with end and way spelled out, and cuts)."""
        board, game = self.board, self.variant
        if board.center is None:
            tiles = tiles_of(self.masks[seat])
            return [Play(t) for t in tiles if not self.must_lead or t in self.must_lead]
        out: list[Action] = []
        mask = self.masks[seat]
        for end in self.open_ends():
            for tile in tiles_of(mask & game.end_fit(board, end)):
                for piece in game.ways(board, end, tile):
                    out.append(Play(tile, end, None, piece.cross))
        cut = self.cut_tile()
        if cut is not None and self.masks[seat] & cut.bit:
            out.extend((Cut(cut, LEFT), Cut(cut, RIGHT)))
        return out

    def cut_tile(self) -> Tile | None:
        """Kolbasa: the tile that may cut now (level ribbons, one tile each at least)."""
        board = self.board
        if not self.variant.has_cut or board.center is None:
            return None
        level = len(board.arms[LEFT])
        if level < 1 or len(board.arms[RIGHT]) != level:
            return None
        return Tile(board.opens(LEFT)[0], board.opens(RIGHT)[0])

    @property
    def in_hands(self) -> int:
        return sum(self.masks)  # hands are disjoint: the sum is the OR

    def gain(self, play: Play) -> int:
        """The points ``play`` (a legal, resolved non-lead play) would score now: laid on the
        board and taken back, for players that weigh their moves."""
        board, game = self.board, self.variant
        end = play.end or LEFT
        piece = next(p for p in game.ways(board, end, play.tile) if p.cross is play.cross)
        spinner = board.spinner
        arms = board.arms
        index = board.attach(end, piece)
        if game.layout == "spinner" and piece.tile.is_double and spinner is None:
            board.open_spinner(end, index)
        points = sum(amount for amount, _ in game.play_points(self.options, board, piece, end))
        board.spinner = spinner
        if spinner is None:
            board.arms = {k: v for k, v in arms.items() if k in (LEFT, RIGHT)}
        board.arms[end].pop()
        return points

    def can_lay(self, seat: int) -> bool:
        return bool(self.masks[seat] & self.variant.lay_mask(self.board))

    def can_draw(self) -> bool:
        limit = self.variant.draw_limit
        left = self.stock_left > self.variant.stock_reserve
        return left and (limit is None or self.draws < limit)

    def legal_actions(self) -> tuple[Action, ...]:
        legal = self._legal
        if legal is None:
            seat = self.to_move
            if seat is None:
                legal = ()
            else:
                plays = self.plays_of(seat) if self.can_lay(seat) else ()
                legal = tuple(plays) if plays else (DRAW,) if self.can_draw() else (KNOCK,)
            self._legal = legal
        return legal

    # --- check / can / apply ----------------------------------------------------------
    def check(self, seat: int, action: Action) -> Action:
        """The action as it will be applied (end and way resolved), or why it cannot be."""
        if self.to_move is None:
            raise HandOverError("this hand is already over")
        if seat != self.to_move:
            raise NotYourTurnError("it is not your turn")
        kind = type(action)
        if kind is Play:
            return self._check_play(seat, action)  # type: ignore[arg-type]
        if kind is Cut:
            return self._check_cut(seat, action)  # type: ignore[arg-type]
        if kind is Draw:
            if self.can_lay(seat):
                raise MustPlayError("you must lay a tile when you can")
            if not self.can_draw():
                raise CannotDrawError("there is nothing more you may draw this turn")
            return DRAW
        if kind is Knock:
            if self.can_lay(seat):
                raise MustPlayError("you must lay a tile when you can")
            if self.can_draw():
                raise MustDrawError("draw from the stock first")
            return KNOCK
        if kind is Discard:
            raise WrongStuckActionError("in this game a stuck player draws or knocks")
        raise TypeError(f"not an action: {action!r}")

    def _check_play(self, seat: int, play: Play) -> Play:
        tile = play.tile
        if not self.holds(seat, tile):
            raise TileNotInHandError(f"you do not hold {tile}")
        board, game = self.board, self.variant
        if board.center is None:
            if self.must_lead and tile not in self.must_lead:
                leads = " or ".join(map(str, self.must_lead))
                raise WrongLeadError(f"this hand must be led with {leads}")
            if play.left_half is not None and not tile.shows(play.left_half):
                raise TileDoesNotFitError(f"{tile} has no {play.left_half}")
            half = play.left_half if play.left_half is not None else tile.low
            return Play(tile, None, half if half != tile.low else None)
        if play.end is not None:
            if play.end not in board.arms:
                raise NoSuchEndError(f"there is no {play.end.value} end now")
            if not game.end_open(board, play.end):
                raise TileDoesNotFitError("only one tile may stick out: lay on the other ribbon")
            ways = game.ways(board, play.end, tile)
            chosen = _way(ways, play.cross)
            if not chosen:
                if ways:
                    raise CrossNotAllowedError(f"{tile} cannot lie that way there")
                raise TileDoesNotFitError(f"{tile} does not fit the {play.end.value} end")
            if len(chosen) > 1:
                raise CrossRequiredError(f"lay {tile} along or crosswise?")
            return Play(tile, play.end, None, chosen[0].cross)
        found: list[tuple[End, list[Piece]]] = []
        any_way = False
        for end in self.open_ends():
            ways = game.ways(board, end, tile)
            any_way = any_way or bool(ways)
            chosen = _way(ways, play.cross)
            if chosen:
                found.append((end, chosen))
        if not found:
            if any_way:
                raise CrossNotAllowedError(f"{tile} cannot lie that way here")
            raise TileDoesNotFitError(f"{tile} fits no end")
        if len(found) > 1:
            raise EndRequiredError(f"{tile} fits more than one end: choose one")
        end, chosen = found[0]
        if len(chosen) > 1:
            raise CrossRequiredError(f"lay {tile} along or crosswise?")
        return Play(tile, end, None, chosen[0].cross)

    def _check_cut(self, seat: int, cut: Cut) -> Cut:
        if not self.variant.has_cut:
            raise CutNotAllowedError("only Kolbasa's ribbons are cut")
        if not self.holds(seat, cut.tile):
            raise TileNotInHandError(f"you do not hold {cut.tile}")
        if cut.give not in (LEFT, RIGHT):
            raise CutNotAllowedError("give the left or the right ribbon")
        allowed = self.cut_tile()
        if allowed is None:
            raise CutNotAllowedError("the ribbons must be level to be cut")
        if cut.tile is not allowed:
            raise CutNotAllowedError(f"a cut must show both ribbon ends: {allowed}")
        return cut

    def step(self, seat: int, action: Action) -> None:
        """Apply ``action`` without keeping its events."""
        self.apply(seat, action)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` and return what happened. Nothing changes on error."""
        action = self.check(seat, action)
        self.faced.append(self.ends)
        events: list[Event] = []
        moves_on = True
        kind = type(action)
        if kind is Play:
            events.extend(self._lay(seat, action))  # type: ignore[arg-type]
        elif kind is Cut:
            events.extend(self._cut(seat, action))  # type: ignore[arg-type]
            moves_on = False
        elif kind is Draw:
            tile = self.stock[self.drawn]
            self.drawn += 1
            self.masks[seat] |= tile.bit
            self.draws += 1
            held = self.masks[seat].bit_count()
            events.append(TileDrawn(seat, self.draws, self.stock_left, held))
            moves_on = False
        else:
            events.append(Knocked(seat, self.ends))
            events.extend(self._score(seat, self.variant.knock_points(self.options)))
        self.moves.append(Move(seat, action))
        self.told.append(tuple(events))
        self._legal = None
        ended = self._check_end(seat)
        if ended is not None:
            events.append(ended)
        elif moves_on:
            self._pass_turn(seat)
        return events

    def _lay(self, seat: int, play: Play) -> list[Event]:
        board, game, tile = self.board, self.variant, play.tile
        self.masks[seat] ^= tile.bit
        events: list[Event] = []
        if board.center is None:
            half = play.left_half if play.left_half is not None else tile.low
            piece = board.lead(tile, half, game.lead_cross(tile))
            end = LEFT
            if game.layout == "spinner" and tile.is_double:
                board.open_spinner(None, 0)
            points = game.lead_points(board, piece)
        else:
            end = play.end or LEFT
            piece = next(p for p in game.ways(board, end, tile) if p.cross is play.cross)
            index = board.attach(end, piece)
            if game.layout == "spinner" and tile.is_double and board.spinner is None:
                board.open_spinner(end, index)
            points = game.play_points(self.options, board, piece, end)
        left, right = (piece.outer, piece.inner) if end is LEFT and board.arms[LEFT] else (
            piece.inner, piece.outer
        )
        ends = self.ends
        assert ends is not None
        events.append(TilePlayed(seat, tile, end, left, right, ends, piece.cross))
        if board.spinner is not None and board.spinner_piece() is piece:
            events.append(SpinnerOpened(seat, tile))
        events.extend(self._score(seat, points))
        return events

    def _cut(self, seat: int, cut: Cut) -> list[Event]:
        board = self.board
        taker = (seat - 1) % self.seats
        given = [p.tile for p in board.arms[cut.give]]
        other = RIGHT if cut.give is LEFT else LEFT
        assert board.center is not None
        off = [board.center.tile, *(p.tile for p in board.arms[other])]
        self.masks[seat] ^= cut.tile.bit
        self.masks[taker] |= mask_of(given)
        board.off.extend(off)
        board.center = Piece(cut.tile, board.opens(LEFT)[0], board.opens(RIGHT)[0], False)
        board.arms = {LEFT: [], RIGHT: []}
        self.to_move = taker
        self.draws = 0
        return [PieceCut(seat, cut.tile, cut.give, taker, tuple(given), tuple(off))]

    def _score(self, seat: int, points: tuple[Score, ...]) -> list[Event]:
        events: list[Event] = []
        for amount, why in points:
            self.scored[seat] += amount
            events.append(PointsScored(seat, seat, amount, why))
        return events

    def _pass_turn(self, seat: int) -> None:
        self.draws = 0
        for step in range(1, self.seats + 1):
            nxt = (seat + step) % self.seats
            if not (self.variant.skip_empty and not self.masks[nxt] and not self.stock_left):
                self.to_move = nxt
                return
        self.to_move = (seat + 1) % self.seats  # pragma: no cover - the hand is blocked then

    def _blocked(self) -> bool:
        if self.board.center is None:
            return False
        if self.variant.blocked_by_table(self):
            return True
        if self.stock_left > self.variant.stock_reserve:
            return False
        return not self.in_hands & self.variant.lay_mask(self.board)

    def _check_end(self, mover: int) -> HandEnded | None:
        out = self.variant.out_seat(self, mover)
        if out is not None:
            return self._end(HandEndReason.OUT, out)
        if self._blocked():
            return self._end(HandEndReason.BLOCKED, None)
        return None

    def _end(self, reason: HandEndReason, out_seat: int | None) -> HandEnded:
        self.to_move = None
        self.reason = reason
        self.out_seat = out_seat
        scored = tuple(self.scored)
        hands = self.hands
        score = self.variant.score_hand(self.options, reason, out_seat, hands, scored)
        scores = tuple(map(add, self._scores_before, score.points))
        self.result = HandEnded(
            self.number,
            reason,
            out_seat,
            out_seat is not None,
            score.winner,
            self.totals(),
            score.points,
            scores,
            self.stock_left,
            scored,
        )
        return self.result


def _way(ways: tuple[Piece, ...], cross: bool | None) -> list[Piece]:
    """The ways among ``ways`` that ``cross`` asks for (any, when it is not said)."""
    return [p for p in ways if cross is None or p.cross is cross]
