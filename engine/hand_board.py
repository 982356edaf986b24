"""One hand on the board: the layout of every game the plain line cannot play (named ends,
the spinner, Kolbasa's ribbons and cut, crosswise tiles), for :class:`engine.hand.Hand`'s
rules. The variant's
matching rule (:meth:`engine.variants.Variant.ways`) says how a tile may lie at an end.
"""

from __future__ import annotations

from itertools import takewhile

from .actions import Action, Cut, Play
from .board import DOWN, LEFT, RIGHT, UP, Board, Piece
from .errors import (
    CrossNotAllowedError,
    CrossRequiredError,
    CutNotAllowedError,
    EndRequiredError,
    NoSuchEndError,
    TileDoesNotFitError,
)
from .events import Event, HandEnded, PieceCut, PointsScored, ScoreReason, SpinnerOpened, TilePlayed
from .hand import Hand
from .masks import mask_of, tiles_of
from .public import LaidTile, LayoutView, OpenEnd, PublicMove
from .seams import Opening
from .tiles import End, Tile
from .variants import Variant


class BoardHand(Hand):
    """One hand on the board. Changed only through :meth:`apply` / :meth:`step`."""

    def _open_layout(self, opening: Opening) -> None:
        self.board = Board()
        self.faced: list[tuple[int, int] | None] = []  # the line's ends before each move
        self.told: list[tuple[Event, ...]] = []  # each move's events, for the table's view

    # --- reading -----------------------------------------------------------------------
    @property
    def laid(self) -> bool:
        return self.board.center is not None

    @property
    def ends(self) -> tuple[int, int] | None:
        """The line's left and right numbers (a crosswise matador end: its lower half; the
        layout view has both)."""
        if self.board.center is None:
            return None
        return (self.board.opens(LEFT)[0], self.board.opens(RIGHT)[0])

    @property
    def in_hands(self) -> int:
        return sum(self.masks)  # hands are disjoint: the sum is the OR

    def open_ends(self) -> tuple[End, ...]:
        board, game = self.board, self.variant
        return tuple(end for end in board.arms if game.end_open(board, end))

    def lay_mask(self) -> int:
        return self.variant.lay_mask(self.board)

    def _plays(self, seat: int) -> tuple[Action, ...]:
        return tuple(self.plays_of(seat)) if self.can_lay(seat) else ()

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

    def _fork_layout(self, state: dict[str, object]) -> None:
        state["board"] = self.board.copy()
        state["faced"] = self.faced.copy()
        state["told"] = self.told.copy()

    def layout_view(self) -> LayoutView:
        board, game = self.board, self.variant
        arms = {end: _arm(game, board, end) for end in board.arms}
        line = list(reversed(arms[LEFT]))
        center = None
        if board.center is not None:
            center = len(line)
            line.append(_laid(board.center))
        line.extend(arms[RIGHT])
        spinner = None if board.spinner is None else board.line_index(*board.spinner)
        ends: tuple[OpenEnd, ...] = ()
        if board.center is not None:
            ends = tuple(
                OpenEnd(end, board.opens(end), game.end_open(board, end), len(arm),
                        game.only_matadors(board.opens(end)), board.counted(end))
                for end, arm in board.arms.items()
            )
        return LayoutView(
            kind=game.layout,
            line=tuple(line),
            center=center,
            spinner=spinner,
            up=tuple(arms.get(UP, ())),
            down=tuple(arms.get(DOWN, ())),
            ends=ends,
            off=tuple(sorted(board.off)),
            count=board.count(),
            crosswise=game.lays_crosswise,
            scores_count=game.scores_count,
        )

    def public_moves(self) -> tuple[PublicMove, ...]:
        return tuple(
            _public_move(seat, action, before, told)
            for (seat, action), before, told in zip(self.moves, self.faced, self.told,
                                                    strict=True)
        )

    # --- checks ------------------------------------------------------------------------
    def _check_lay(self, seat: int, play: Play) -> Play:
        board, game, tile = self.board, self.variant, play.tile
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
        if cut.give not in (LEFT, RIGHT):
            raise CutNotAllowedError("give the left or the right ribbon")
        allowed = self.cut_tile()
        if allowed is None:
            raise CutNotAllowedError("the ribbons must be level to be cut")
        if cut.tile is not allowed:
            raise CutNotAllowedError(f"a cut must show both ribbon ends: {allowed}")
        return cut

    # --- effects -----------------------------------------------------------------------
    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` and return what happened. Nothing changes on error."""
        before = self.ends
        events = super().apply(seat, action)  # refuses before changing anything
        self.faced.append(before)
        # What the move itself did, for the table's view (the hand's end is told apart).
        self.told.append(tuple(takewhile(lambda e: not isinstance(e, HandEnded), events)))
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
        """Kolbasa's cut: the given ribbon goes to the previous seat, who moves next."""
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


def _way(ways: tuple[Piece, ...], cross: bool | None) -> list[Piece]:
    """The ways among ``ways`` that ``cross`` asks for (any, when it is not said)."""
    return [p for p in ways if cross is None or p.cross is cross]


def _laid(piece: Piece, reverse: bool = False, joined: int | None = None) -> LaidTile:
    if piece.cross:
        return LaidTile(piece.tile, piece.inner, piece.outer, True, joined)
    if reverse:
        return LaidTile(piece.tile, piece.outer, piece.inner, False, joined)
    return LaidTile(piece.tile, piece.inner, piece.outer, False, joined)


def _arm(game: Variant, board: Board, end: End) -> list[LaidTile]:
    """The tiles of ``end``'s arm from the lead (or the spinner) out, each with the number
    it was laid against (the left arm's written right half first, as the line reads)."""
    out: list[LaidTile] = []
    if board.center is None:
        return out  # nothing laid yet
    opens = board.base_opens(end)
    for piece in board.arms[end]:
        out.append(_laid(piece, end is LEFT, game.joined(opens, piece)))
        opens = piece.opens()
    return out


def _public_move(seat: int, action: Action, before: tuple[int, int] | None,
                 told: tuple[Event, ...]) -> PublicMove:
    if type(action) is Play:
        if before is None:  # the lead: the rules fix its way, as written
            half = action.left_half if action.left_half is not None else action.tile.low
            return PublicMove(seat, action.kind, action.tile, None, None, None, half,
                              _points(told))
        return PublicMove(seat, action.kind, action.tile, action.end, before, action.cross,
                          points=_points(told))
    if type(action) is Cut:
        taken = tuple(t for e in told if isinstance(e, PieceCut) for t in e.taken)
        return PublicMove(seat, action.kind, action.tile, action.give, before, taken=taken)
    return PublicMove(seat, action.kind, None, None, before, points=_points(told))


def _points(told: tuple[Event, ...]) -> tuple[tuple[int, ScoreReason], ...]:
    return tuple((e.points, e.why) for e in told if isinstance(e, PointsScored))
