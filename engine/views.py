"""What a seat may know, and what the whole table may see.

Hidden information reaches a player only through these views: a :class:`TableView` never
holds a tile of a hand, a dead tile's face or a face-down middle tile while the hand is on;
a :class:`PlayerView` adds exactly one seat's own tiles and its legal actions. When a hand is
over the players lay their tiles open to be counted, so the table view then reveals them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, ActionKind, Cut, Discard, Draw, Knock, Play
from .errors import BadInputError
from .events import HandEnded
from .fairness import fingerprint
from .hand import Hand
from .layout import Placed
from .match import Match
from .options import Options
from .public import LaidTile, LayoutView, OpenEnd, PublicMove
from .tiles import End, Tile

__all__ = [
    "LaidTile", "LayoutView", "OpenEnd", "PlayerView", "PublicMove", "SeatView", "TableView",
    "player_view", "table_view",
]


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    side: int
    tile_count: int
    dead_count: int
    knocked: bool  # its latest move this hand was a knock
    last: ActionKind | None


@dataclass(frozen=True, slots=True)
class TableView:
    """The public table: what the group picture shows."""

    game: str
    set: int
    sides: tuple[tuple[int, ...], ...]
    hand_number: int
    opener: int
    layout: LayoutView
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
    lowest_total_wins: bool = False  # the scores are penalty points
    # Whether the game scores during play (Muggins, Bergen, Six-matador): each seat's points
    # of play are shown all hand long. (Matador's optional matador points show once scored.)
    points_in_play: bool = False
    # This hand, the last to end, left the target reached but the best score shared, so the
    # match plays on (D3).
    tied_past_target: bool = False
    opener_by_lot: bool = False  # the seat drawn by lot leads this hand
    # Tiles of the stock that are never drawn (Bergen's two): left there, they tell nothing.
    stock_reserve: int = 0
    # Once the match is over, where its game settles the final scores (Six-matador, D25): per
    # side, what it receives (negative: pays). Shown beside the scores, never added to them.
    settlement: tuple[int, ...] | None = None
    # The deal's commitment (:func:`engine.fairness.fingerprint` of its seed), public from the
    # deal on, and the seed itself (64 hex digits) once the hand is over. None for a deal that
    # was not made from a seed (tests, and matches stored before seeds were).
    fingerprint: str | None = None
    seed: str | None = None

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def line(self) -> tuple[Placed, ...]:
        """The layout's main line, left to right, each tile with its halves as written."""
        return tuple(Placed(laid.tile, laid.first, laid.second) for laid in self.layout.line)

    @property
    def ends(self) -> tuple[int, int] | None:
        """The line's left and right numbers (at a crosswise matador, its lower half; the
        layout's ends have both), or None before the lead."""
        ends = {end.end: end.numbers[0] for end in self.layout.ends}
        if End.LEFT not in ends:
            return None
        return (ends[End.LEFT], ends[End.RIGHT])

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
    # What each legal action would score at once for this seat (a knock's cost negative).
    points: tuple[int, ...] = ()
    # The tiles this seat drew on its latest turn, while that turn is the one to tell it about.
    drawn: tuple[Tile, ...] = ()
    # Every tile this seat drew from the stock this hand, in the order drawn (its own draws
    # in the table's history are these, one by one).
    drawn_this_hand: tuple[Tile, ...] = ()

    def points_of(self, action: Action) -> int:
        """What ``action`` (one of :attr:`legal`) would score at once."""
        return self.points[self.legal.index(action)] if self.points else 0

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


def table_view(match: Match, hand_number: int | None = None) -> TableView:
    """The public view of the current hand, or of the earlier hand ``hand_number`` as it
    ended (the table a group saw last of it, with its scores then)."""
    hand = match.hand if hand_number is None else match.hands[hand_number]
    latest = hand is match.hands[-1]
    layout, history = hand.table_sight()
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
    seed = hand.deal.seed
    scored = tuple(sum(hand.scored[seat] for seat in side) for side in match.sides)
    return TableView(
        game=match.variant.name,
        set=match.options.set,
        sides=match.sides,
        hand_number=hand.number,
        opener=hand.opener,
        layout=layout,
        to_move=hand.to_move,
        players=players,
        middle_face_down=len(hand.deal.middle) - (1 if turned is not None else 0),
        turned_up=turned,
        scores=match.scores if latest or hand.result is None else hand.result.scores,
        target=match.options.target,
        doubles_across=match.variant.doubles_across,
        dead_tiles=hand.dead_tiles,
        history=history,
        result=hand.result,
        revealed_hands=tuple(tuple(h) for h in hands) if over else None,
        revealed_dead=tuple(tuple(d) for d in hand.dead) if over else None,
        match_over=match.over and latest,
        match_winner=match.winner if latest else None,
        options=match.options,
        stock_count=hand.stock_left,
        stock_dealt=bool(hand.deal.stock),
        scored=scored,
        lowest_total_wins=match.variant.lowest_total_wins,
        points_in_play=match.variant.points_in_play,
        tied_past_target=_tied_past_target(match, hand),
        opener_by_lot=match.lot_leads[hand.number],
        stock_reserve=match.variant.stock_reserve,
        settlement=(match.variant.settlement(match.scores, match.winner)
                    if match.over and latest else None),
        fingerprint=None if seed is None else fingerprint(seed),
        seed=seed.hex() if seed is not None and over else None,
    )


def _tied_past_target(match: Match, hand: Hand) -> bool:
    """Whether ``hand`` is the last that ended and left the target reached with the best score
    shared (the match plays on: D3); also once the next hand is dealt, whose players' private
    messages still show this one's end."""
    last_over = next((h for h in reversed(match.hands) if h.over), None)
    return hand is last_over and match.target_reached and not match.over


def unfinished_seed(match: Match) -> tuple[str, str] | None:
    """The seed (hex) and fingerprint of the match's hand left unfinished, for a game its
    players ended before the hand did: revealed then, so that the deal can be checked as a
    finished hand's is (while the hand is played the seed stays secret: it makes every hand
    known). None when no hand is unfinished, or its deal was not made from a seed."""
    hand = match.hands[-1] if match.hands else None
    if hand is None or hand.over or hand.deal.seed is None:
        return None
    return hand.deal.seed.hex(), fingerprint(hand.deal.seed)


def player_view(match: Match, seat: int, hand_number: int | None = None) -> PlayerView:
    """What ``seat`` may know of the current hand, or of the earlier hand ``hand_number`` as
    it ended (its tiles left, the table with its scores then)."""
    if type(seat) is not int or not 0 <= seat < match.seats:
        raise BadInputError(f"there is no seat {seat} at this table")
    hand = match.hand if hand_number is None else match.hands[hand_number]
    legal = hand.legal_actions() if hand.to_move == seat else ()
    return PlayerView(
        seat, table_view(match, hand_number), tuple(hand.hands[seat]), tuple(hand.dead[seat]),
        legal,
        hand.gains(seat) if legal else (), hand.drawn_this_turn(seat),
        hand.drawn_by(seat),
    )
