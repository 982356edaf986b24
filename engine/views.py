"""What a seat may know, and what the whole table may see.

Hidden information reaches a player only through these views: a :class:`TableView` never
holds a tile of a hand, a dead tile's face or a face-down middle tile while the hand is on;
a :class:`PlayerView` adds exactly one seat's own tiles and its legal actions. When a hand is
over the players lay their tiles open to be counted, so the table view then reveals them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, ActionKind, Cut, Discard, Draw, Knock, Play
from .board import DOWN, LEFT, RIGHT, UP, Piece
from .errors import BadInputError
from .events import Event, HandEnded, PieceCut, PointsScored, ScoreReason
from .hand import Hand, lay, start_line
from .layout import Placed
from .match import Match
from .options import Options
from .table import StockHand
from .tiles import End, Tile
from .variants.stock import StockGame


@dataclass(frozen=True, slots=True)
class PublicMove:
    """A move as everybody saw it. ``tile`` is ``None`` for knocks and face-down discards.

    ``ends_before`` is what the seat faced: a knock or a discard there tells the table that the
    seat held neither number, which is what a counting player infers from.
    """

    seat: int
    kind: ActionKind
    tile: Tile | None
    end: End | None  # a play's end; for Kolbasa's cut, the ribbon given away
    ends_before: tuple[int, int] | None
    cross: bool | None = None  # the games of seed 002: the tile lies crosswise
    left_half: int | None = None  # a lead: the half towards the left
    # The games of seed 002: what this move scored during play, and why (Six-matador: 1 and
    # 5 for one lay; minus 6 for a knock), and for Kolbasa's cut the tiles the previous seat
    # took (the ribbon given, which lay face up on the table). The engine's facts, so that
    # no caller works the rules out again.
    points: tuple[tuple[int, ScoreReason], ...] = ()
    taken: tuple[Tile, ...] = ()

    @property
    def reasons(self) -> frozenset[ScoreReason]:
        return frozenset(why for _, why in self.points)


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    side: int
    tile_count: int
    dead_count: int
    knocked: bool  # its latest move this hand was a knock
    last: ActionKind | None


@dataclass(frozen=True, slots=True)
class LaidTile:
    """A tile as it lies: ``first`` and ``second`` as written (left half first in the line;
    inner half first on a spinner arm); ``cross``: crosswise (then low half first)."""

    tile: Tile
    first: int
    second: int
    cross: bool


@dataclass(frozen=True, slots=True)
class OpenEnd:
    """An end of the layout: the numbers a tile may join there (two at a crosswise matador)
    and whether a tile may be laid there now (Kolbasa keeps its ribbons level)."""

    end: End
    numbers: tuple[int, ...]
    open: bool
    tiles: int  # tiles in that arm or ribbon (for the line: since the lead)


@dataclass(frozen=True, slots=True)
class LayoutView:
    """The table of a game of seed 002 beyond the line: Muggins' spinner and its arms,
    Kolbasa's base, ribbons and cut-off tiles, crosswise tiles, every open end."""

    kind: str  # "line", "spinner" or "ribbons"
    line: tuple[LaidTile, ...]  # left to right (Kolbasa: left ribbon, base, right ribbon)
    center: int | None  # index in ``line`` of the lead (Kolbasa: the base)
    spinner: int | None  # index in ``line`` of Muggins' spinner
    up: tuple[LaidTile, ...]  # from the spinner outward
    down: tuple[LaidTile, ...]
    ends: tuple[OpenEnd, ...]
    off: tuple[Tile, ...]  # Kolbasa: the tiles cut off, out of play
    count: int  # Muggins: the open ends added up


@dataclass(frozen=True, slots=True)
class TableView:
    """The public table: what the group picture shows."""

    game: str
    set: int
    sides: tuple[tuple[int, ...], ...]
    hand_number: int
    opener: int
    line: tuple[Placed, ...]
    ends: tuple[int, int] | None
    to_move: int | None
    players: tuple[SeatView, ...]
    middle_face_down: int
    turned_up: Tile | None
    scores: tuple[int, ...]
    target: int
    doubles_across: bool
    dead_tiles: bool
    history: tuple[PublicMove, ...]
    result: HandEnded | None
    revealed_hands: tuple[tuple[Tile, ...], ...] | None  # only once the hand is over
    revealed_dead: tuple[tuple[Tile, ...], ...] | None
    match_over: bool
    match_winner: int | None
    options: Options  # the rules every player at the table agreed to
    stock_count: int = 0  # tiles face down in the stock (never their faces)
    # Whether this hand was dealt a stock at all: Kolbasa and Six-matador deal every tile to
    # four players, and "stock: 0" all hand long would say nothing.
    stock_dealt: bool = False
    scored: tuple[int, ...] = ()  # per side: points scored during play in this hand so far
    layout: LayoutView | None = None  # the games of seed 002
    lowest_total_wins: bool = False  # the scores are penalty points
    # Once the match is over, where its game settles the final scores (Six-matador, D25): per
    # side, what it receives (negative: pays). Shown beside the scores, never added to them.
    settlement: tuple[int, ...] | None = None

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def hand_over(self) -> bool:
        return self.result is not None

    @property
    def last_move(self) -> PublicMove | None:
        return self.history[-1] if self.history else None

    @property
    def last_played(self) -> Tile | None:
        """The tile laid most recently this hand (for highlighting), if any."""
        for move in reversed(self.history):
            if move.kind is ActionKind.PLAY:
                return move.tile
        return None


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What ``seat`` knows: the table plus its own tiles and, on its turn, its legal actions."""

    seat: int
    table: TableView
    hand: tuple[Tile, ...]
    dead: tuple[Tile, ...]
    legal: tuple[Action, ...]

    @property
    def my_turn(self) -> bool:
        return self.table.to_move == self.seat and bool(self.legal)

    def playable(self) -> frozenset[Tile]:
        return frozenset(a.tile for a in self.legal if type(a) is Play)

    def ends_for(self, tile: Tile) -> tuple[End | None, ...]:
        """The ends ``tile`` may be laid at now (``(None,)`` for a lead)."""
        return tuple(a.end for a in self.legal if type(a) is Play and a.tile is tile)

    def must_discard(self) -> bool:
        return bool(self.legal) and all(type(a) is Discard for a in self.legal)

    def must_knock(self) -> bool:
        return bool(self.legal) and all(type(a) is Knock for a in self.legal)

    def must_draw(self) -> bool:
        return bool(self.legal) and all(type(a) is Draw for a in self.legal)

    def ways_for(self, tile: Tile, end: End | None) -> tuple[bool | None, ...]:
        """How ``tile`` may lie at ``end``: ``True`` crosswise, ``False`` along."""
        return tuple(
            a.cross for a in self.legal if type(a) is Play and a.tile is tile and a.end is end
        )

    def cuts(self) -> tuple[Cut, ...]:
        """Kolbasa: the cuts open now (one per ribbon that may be given away)."""
        return tuple(a for a in self.legal if type(a) is Cut)


def _laid(piece: Piece, reverse: bool = False) -> LaidTile:
    if piece.cross:
        return LaidTile(piece.tile, piece.inner, piece.outer, True)
    if reverse:
        return LaidTile(piece.tile, piece.outer, piece.inner, False)
    return LaidTile(piece.tile, piece.inner, piece.outer, False)


def layout_view(hand: StockHand) -> LayoutView:
    """The whole layout of a stock game's hand, as the table sees it."""
    board = hand.board
    line = [_laid(p, True) for p in reversed(board.arms[LEFT])]
    center = None
    if board.center is not None:
        center = len(line)
        line.append(_laid(board.center))
    line.extend(_laid(p) for p in board.arms[RIGHT])
    spinner = None if board.spinner is None else board.line_index(*board.spinner)
    ends: tuple[OpenEnd, ...] = ()
    if board.center is not None:
        ends = tuple(
            OpenEnd(end, board.opens(end), hand.variant.end_open(board, end), len(arm))
            for end, arm in board.arms.items()
        )
    return LayoutView(
        kind=hand.variant.layout,
        line=tuple(line),
        center=center,
        spinner=spinner,
        up=tuple(_laid(p) for p in board.arms.get(UP, ())),
        down=tuple(_laid(p) for p in board.arms.get(DOWN, ())),
        ends=ends,
        off=tuple(sorted(board.off)),
        count=board.count(),
    )


def _public_stock_move(seat: int, action: Action, before: tuple[int, int] | None,
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


def _public_history(hand: Hand | StockHand) -> tuple[PublicMove, ...]:
    """Every move of the hand as the table saw it, with the ends each one faced."""
    if isinstance(hand, StockHand):
        return tuple(
            _public_stock_move(seat, action, before, told)
            for (seat, action), before, told in zip(hand.moves, hand.faced, hand.told,
                                                    strict=True)
        )
    line = start_line(hand.deal)
    moves = []
    for seat, action in hand.moves:
        before = line.ends
        if type(action) is Play:
            lay(line, action)
            moves.append(PublicMove(seat, ActionKind.PLAY, action.tile, action.end, before))
        else:
            moves.append(PublicMove(seat, action.kind, None, None, before))
    return tuple(moves)


def table_view(match: Match, hand_number: int | None = None) -> TableView:
    """The public view of the current hand, or of the earlier hand ``hand_number`` as it
    ended (the table a group saw last of it, with its scores then)."""
    hand = match.hand if hand_number is None else match.hands[hand_number]
    latest = hand is match.hands[-1]
    over = hand.result is not None
    hands = hand.hands
    last = [hand.last_move_of(seat) for seat in range(match.seats)]
    players = tuple(
        SeatView(
            seat,
            match.side_of(seat),
            len(hands[seat]),
            len(hand.dead[seat]),
            type(last[seat]) is Knock,
            None if last[seat] is None else last[seat].kind,  # type: ignore[union-attr]
        )
        for seat in range(match.seats)
    )
    turned = hand.deal.middle[0] if hand.deal.middle else None
    layout = layout_view(hand) if isinstance(hand, StockHand) else None
    scored = tuple(hand.scored) if isinstance(hand, StockHand) else (0,) * len(match.sides)
    return TableView(
        game=match.variant.name,
        set=match.options.set,
        sides=match.sides,
        hand_number=hand.number,
        opener=hand.opener,
        line=_line(hand, layout),
        ends=hand.ends,
        to_move=hand.to_move,
        players=players,
        middle_face_down=len(hand.deal.middle) - (1 if turned is not None else 0),
        turned_up=turned,
        scores=match.scores if latest or hand.result is None else hand.result.scores,
        target=match.options.target,
        doubles_across=match.variant.doubles_across,
        dead_tiles=hand.dead_tiles,
        history=_public_history(hand),
        result=hand.result,
        revealed_hands=tuple(tuple(h) for h in hands) if over else None,
        revealed_dead=tuple(tuple(d) for d in hand.dead) if over else None,
        match_over=match.over and latest,
        match_winner=match.winner if latest else None,
        options=match.options,
        stock_count=hand.stock_left if isinstance(hand, StockHand) else 0,
        stock_dealt=isinstance(hand, StockHand) and bool(hand.deal.stock),
        scored=scored,
        layout=layout,
        lowest_total_wins=match.variant.lowest_total_wins,
        settlement=_settlement(match) if match.over and latest else None,
    )


def _settlement(match: Match) -> tuple[int, ...] | None:
    if not isinstance(match.variant, StockGame):
        return None
    return match.variant.settlement(match.scores, match.winner)


def _line(hand: Hand | StockHand, layout: LayoutView | None) -> tuple[Placed, ...]:
    if layout is not None:
        return tuple(Placed(laid.tile, laid.first, laid.second) for laid in layout.line)
    assert isinstance(hand, Hand)
    return tuple(hand.line.placed)


def player_view(match: Match, seat: int) -> PlayerView:
    """What ``seat`` may know of the current hand."""
    if type(seat) is not int or not 0 <= seat < match.seats:
        raise BadInputError(f"there is no seat {seat} at this table")
    hand = match.hand
    legal = hand.legal_actions() if hand.to_move == seat else ()
    return PlayerView(
        seat, table_view(match), tuple(hand.hands[seat]), tuple(hand.dead[seat]), legal
    )
