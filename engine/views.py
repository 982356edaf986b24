"""What a seat may know, and what the whole table may see.

Hidden information reaches a player only through these views: a :class:`TableView` never
holds a tile of a hand, a dead tile's face or a face-down middle tile while the hand is on;
a :class:`PlayerView` adds exactly one seat's own tiles and its legal actions. When a hand is
over the players lay their tiles open to be counted, so the table view then reveals them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, ActionKind, Discard, Knock, Play
from .errors import BadInputError
from .events import HandEnded
from .hand import lay, start_line
from .layout import Placed
from .match import Match
from .options import Options
from .tiles import End, Tile


@dataclass(frozen=True, slots=True)
class PublicMove:
    """A move as everybody saw it. ``tile`` is ``None`` for knocks and face-down discards.

    ``ends_before`` is what the seat faced: a knock or a discard there tells the table that the
    seat held neither number, which is what a counting player infers from.
    """

    seat: int
    kind: ActionKind
    tile: Tile | None
    end: End | None
    ends_before: tuple[int, int] | None


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


def _public_history(match: Match) -> tuple[PublicMove, ...]:
    """Every move of the hand as the table saw it, with the ends each one faced."""
    hand = match.hand
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


def table_view(match: Match) -> TableView:
    """The public view of the current hand."""
    hand = match.hand
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
    return TableView(
        game=match.variant.name,
        set=match.options.set,
        sides=match.sides,
        hand_number=hand.number,
        opener=hand.opener,
        line=tuple(hand.line.placed),
        ends=hand.ends,
        to_move=hand.to_move,
        players=players,
        middle_face_down=len(hand.deal.middle) - (1 if turned is not None else 0),
        turned_up=turned,
        scores=match.scores,
        target=match.options.target,
        doubles_across=match.variant.doubles_across,
        dead_tiles=hand.dead_tiles,
        history=_public_history(match),
        result=hand.result,
        revealed_hands=tuple(tuple(h) for h in hands) if over else None,
        revealed_dead=tuple(tuple(d) for d in hand.dead) if over else None,
        match_over=match.over,
        match_winner=match.winner,
        options=match.options,
    )


def player_view(match: Match, seat: int) -> PlayerView:
    """What ``seat`` may know of the current hand."""
    if type(seat) is not int or not 0 <= seat < match.seats:
        raise BadInputError(f"there is no seat {seat} at this table")
    hand = match.hand
    legal = hand.legal_actions() if hand.to_move == seat else ()
    return PlayerView(
        seat, table_view(match), tuple(hand.hands[seat]), tuple(hand.dead[seat]), legal
    )
