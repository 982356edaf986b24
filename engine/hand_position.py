"""A hand's position: what one hand holds and what can be read of it, below its rules.

:class:`HandPosition` keeps the deal, the seats' tiles as bit masks, the stock, the log, whose
turn it is, the points scored so far and the result; it declares the layout's part (what each
layout, :mod:`engine.hand_line` or :mod:`engine.hand_board`, implements), tells the hand's
history as the views read it (the last move of each seat, the tiles a seat drew), and forks.
The rules that change a position (check / can / apply, the effects, the end of a hand) are
:class:`engine.hand.Hand`'s, written once over the variant's seams; kept apart so that each
module reads as one thing.
"""

from __future__ import annotations

from typing import Self

from .actions import Action, Cut, Draw, Knock, Move, Play
from .deal import Deal
from .errors import CutNotAllowedError
from .events import Event, HandEnded, HandEndReason, HandStarted
from .masks import mask_of, tiles_of
from .options import Options
from .public import LayoutView, PublicMove
from .seams import Opening
from .tiles import Tile
from .variants import Variant


class HandPosition:
    """One hand's state: the deal, the seats' tiles as bit masks, the stock, the log, whose
    turn it is, points scored so far and the result. A layout subclass (of
    :class:`engine.hand.Hand`) supplies :meth:`_open_layout`, :attr:`laid`, :attr:`ends`,
    :meth:`lay_mask`, :meth:`_plays`, :meth:`_check_lay`, :meth:`_lay` (and, for Kolbasa's
    ribbons, :meth:`_check_cut` and :meth:`_cut`)."""

    variant: Variant

    def __init__(
        self,
        variant: Variant,
        options: Options,
        deal: Deal,
        opening: Opening,
        number: int = 0,
        scores_before: tuple[int, ...] | None = None,
    ) -> None:
        self.variant = variant
        self.options = options
        self.deal = deal
        self.number = number
        self.seats = deal.seats
        self.opener = opening.opener
        self.must_lead = opening.must_lead
        self.dead_tiles = variant.has_dead_tiles(options)
        self.masks: list[int] = [mask_of(h) for h in deal.hands]
        self.dead: list[list[Tile]] = [[] for _ in range(self.seats)]
        self.stock = deal.stock
        self.drawn = 0  # tiles taken from the stock so far
        self.draws = 0  # tiles the seat to move has drawn this turn
        self.scored: list[int] = [0] * self.seats  # points scored during play, per seat
        self.moves: list[Move] = []
        self.to_move: int | None = opening.opener
        self.reason: HandEndReason | None = None
        self.out_seat: int | None = None
        self.result: HandEnded | None = None
        self._scores_before = scores_before or (0,) * len(variant.sides(self.seats))
        self._legal: tuple[Action, ...] | None = None
        # What the table sees, kept for the number of moves it was made at (see table_sight)
        self._sight: tuple[int, LayoutView, tuple[PublicMove, ...]] | None = None
        leads = opening.must_lead
        # One forced tile is public (it is about to be laid); a choice among the opener's
        # doubles stays their secret: then only "a double must lead" is told.
        forced = leads if len(leads) == 1 else ()
        double = bool(leads) and all(t.is_double for t in leads)
        self.started = HandStarted(number, opening.opener, opening.turned_up, forced, double)
        self.start_events: list[Event] = [self.started]
        self._open_layout(opening)

    # --- the layout's part (each layout implements these) --------------------------------
    def _open_layout(self, opening: Opening) -> None:
        """Set up the empty layout (or the one the opening's turned-up tile starts)."""
        raise NotImplementedError

    @property
    def laid(self) -> bool:
        """Whether the layout holds a tile yet (before that, a play is the lead)."""
        raise NotImplementedError

    @property
    def ends(self) -> tuple[int, int] | None:
        raise NotImplementedError

    def lay_mask(self) -> int:
        """The tiles that could be laid somewhere now (cuts included), as a bit mask: one AND
        with a hand says whether it can lay. Asked only once the layout has a tile."""
        raise NotImplementedError

    def _plays(self, seat: int) -> tuple[Action, ...]:
        """Every lay open to ``seat`` now (plays, cuts); empty when it cannot lay."""
        raise NotImplementedError

    def _check_lay(self, seat: int, play: Play) -> Play:
        """``play`` (of a held tile, not the lead) as it will be applied, or why not."""
        raise NotImplementedError

    def _check_cut(self, seat: int, cut: Cut) -> Cut:
        raise CutNotAllowedError("only Kolbasa's ribbons are cut")

    def _lay(self, seat: int, play: Play) -> list[Event]:
        raise NotImplementedError

    def _cut(self, seat: int, cut: Cut) -> list[Event]:
        raise NotImplementedError

    def _fork_layout(self, state: dict[str, object]) -> None:
        """Copy into a fork's ``state`` what the layout changes in play."""

    def layout_view(self) -> LayoutView:
        """The tiles on the table as everybody sees them."""
        raise NotImplementedError

    def public_moves(self) -> tuple[PublicMove, ...]:
        """Every move of the hand as the table saw it, with the ends each one faced."""
        raise NotImplementedError

    def table_sight(self) -> tuple[LayoutView, tuple[PublicMove, ...]]:
        """:meth:`layout_view` and :meth:`public_moves` together, made once a move: a table
        view is asked for several times after each move (the group's, every seat's)."""
        sight, made = self._sight, len(self.moves)
        if sight is None or sight[0] != made:
            sight = self._sight = (made, self.layout_view(), self.public_moves())
        return sight[1], sight[2]

    # --- reading -----------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def hands(self) -> list[list[Tile]]:
        """Each seat's tiles now, in set order."""
        return [tiles_of(mask) for mask in self.masks]

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.drawn

    def holds(self, seat: int, tile: Tile) -> bool:
        return bool(self.masks[seat] >> tile.index & 1)

    def last_move_of(self, seat: int) -> Action | None:
        for move in reversed(self.moves):
            if move.seat == seat:
                return move.action
        return None

    def totals(self) -> tuple[int, ...]:
        return self.variant.totals(self.options, self.hands, self.dead)

    def drawn_this_turn(self, seat: int) -> tuple[Tile, ...]:
        """The tiles ``seat`` drew on its latest turn of this hand, while that turn is the
        one to tell it about: it is still drawing-then-choosing, or it drew and then knocked."""
        turn: list[tuple[int, Action]] = []  # (stock index, action) of the seat's latest turn
        drawn = 0
        previous: int | None = None
        for mover, action in self.moves:
            if mover != previous:
                if mover == seat:
                    turn = []
                previous = mover
            if mover == seat:
                turn.append((drawn, action))
            if type(action) is Draw:
                drawn += 1
        if not turn or type(turn[-1][1]) not in (Draw, Knock):
            return ()
        return tuple(self.stock[index] for index, action in turn if type(action) is Draw)

    def drawn_by(self, seat: int) -> tuple[Tile, ...]:
        """Every tile ``seat`` drew from the stock this hand, in the order drawn."""
        drawers = [mover for mover, action in self.moves if type(action) is Draw]
        return tuple(self.stock[index] for index, mover in enumerate(drawers) if mover == seat)

    def fork(self) -> Self:
        """An independent copy to play on: searches try a move on a fork, not on the hand.
        Cheap: the deal, variant, options and interned actions are shared."""
        twin = object.__new__(type(self))
        state = self.__dict__.copy()
        state["masks"] = self.masks.copy()
        state["dead"] = [gone.copy() for gone in self.dead]
        state["moves"] = self.moves.copy()
        state["scored"] = self.scored.copy()
        state["start_events"] = self.start_events.copy()
        self._fork_layout(state)
        twin.__dict__.update(state)
        return twin
