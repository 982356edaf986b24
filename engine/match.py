"""A match: hands in order, the running scores, and who opens the next hand.

The match is the unit the bot stores: its options, every deal and every move. Replaying those
rebuilds it exactly (see :mod:`engine.record`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import replace

from .actions import Action, Discard, Draw, Knock
from .deal import Deal, shuffle_deal
from .errors import BadInputError, HandOverError
from .events import Event, MatchEnded
from .fairness import SeedStream, seeded_deal
from .hand import Hand
from .hand_board import BoardHand
from .hand_line import LineHand
from .options import Options
from .seams import Opening, PreviousHand
from .variants import Variant, variant

# A deal nobody can open (no double dealt where a double must lead) is shuffled again; with a
# double-12 set this happens about once in 200 deals, so a handful of tries always suffices.
MAX_REDEALS = 1000

# The seams the plain line's fast path takes as they are in :class:`Variant`: a game overriding
# one of them is played on the board (see :func:`plays_on_line`).
LINE_HOOKS = (
    "lead_cross", "joins", "along", "ways", "end_fit", "lay_mask", "end_open", "cut_mask",
    "lead_points", "play_points", "matador_score", "knock_points", "out_seat",
    "blocked_by_table",
)
_PLAIN_HOOKS: dict[type, bool] = {}  # per game class: keeps every hook in LINE_HOOKS


def plays_on_line(game: Variant, options: Options, seats: int) -> bool:
    """Whether every seam of ``game`` is the plain line's, so that the bit-mask line plays
    it: equal numbers on one line, no stock, no cut, no crosswise tile, no points in play."""
    cls = type(game)
    hooks = _PLAIN_HOOKS.get(cls)
    if hooks is None:
        hooks = all(getattr(cls, hook) is getattr(Variant, hook) for hook in LINE_HOOKS)
        _PLAIN_HOOKS[cls] = hooks
    return (
        hooks
        and game.layout == "line"
        and game.join_sum is None
        and not game.matadors
        and not game.ends_blocked_only
        and not game.has_cut
        and not game.skip_empty
        and not game.points_in_play
        and not game.stock_size(options, seats)
    )


def lot_decides(game: Variant, options: Options, deal: Deal,
                previous: PreviousHand | None) -> bool:
    """Whether the seat drawn by lot decides who leads ``deal``'s hand: its opener differs
    with the lot."""
    return len({game.opening(options, replace(deal, lot=seat), previous).opener
                for seat in range(deal.seats)}) > 1


def new_hand(
    game: Variant,
    options: Options,
    deal: Deal,
    opening: Opening,
    number: int = 0,
    scores_before: tuple[int, ...] | None = None,
) -> Hand:
    """The state of a new hand of ``game``, on the layout its seams call for."""
    layout = LineHand if plays_on_line(game, options, deal.seats) else BoardHand
    return layout(game, options, deal, opening, number, scores_before)


def first_playable(
    game: Variant, options: Options, deals: Callable[[], Deal], previous: PreviousHand | None
) -> tuple[Deal, Opening]:
    """The first of ``deals`` somebody can open after ``previous`` (None: the match's first
    hand), with its opening; the deals before it are thrown away."""
    for _ in range(MAX_REDEALS):
        deal = deals()
        try:
            return deal, game.opening(options, deal, previous)
        except BadInputError:
            continue
    raise BadInputError("no playable deal found")  # pragma: no cover - astronomically rare


class Match:
    """A match of one game at one table, from its first hand to its winner."""

    def __init__(
        self,
        game: str | Variant,
        seats: int,
        options: Mapping[str, object] | None = None,
        *,
        automate: bool = False,
    ) -> None:
        # Whether the moves nobody decides are played as soon as they are due (see
        # :meth:`play_forced`): by :meth:`apply`, :meth:`start_hand` and :meth:`deal_hand`,
        # which then return their events too. Never by :meth:`step`, nor in a replay: a
        # record holds every move that was made.
        self.automate = automate
        self.variant = game if isinstance(game, Variant) else variant(game)
        self.seats = seats
        self.options: Options = self.variant.options({} if options is None else options, seats)
        self.sides = self.variant.sides(seats)
        self._one_seat_sides = all(len(side) == 1 for side in self.sides)
        self.hands: list[Hand] = []
        # Per hand: whether the seat drawn by lot decides who leads it (said at its start).
        self.lot_leads: list[bool] = []
        self.scores: tuple[int, ...] = (0,) * len(self.sides)
        self.over = False
        self.winner: int | None = None
        self.result: MatchEnded | None = None
        self.target_reached = False  # some score reached the target (play on after a tie)

    def __repr__(self) -> str:
        return (
            f"<Match {self.variant.name} seats={self.seats} hands={len(self.hands)} "
            f"scores={self.scores} over={self.over}>"
        )

    # --- hands -------------------------------------------------------------------------
    @property
    def hand(self) -> Hand:
        """The current (last started) hand."""
        if not self.hands:
            raise BadInputError("no hand has been dealt yet")
        return self.hands[-1]

    @property
    def hand_size(self) -> int:
        return self.variant.hand_size(self.options, self.seats)

    @property
    def stock_size(self) -> int:
        return self.variant.stock_size(self.options, self.seats)

    @property
    def middle_size(self) -> int:
        return self.variant.middle_size(self.options, self.seats)

    def _previous(self) -> PreviousHand | None:
        if not self.hands:
            return None
        last = self.hands[-1]
        assert last.result is not None
        winner = last.result.winner
        return PreviousHand(
            last.opener,
            winner,
            self.sides[winner][0] if winner is not None and self._one_seat_sides else None,
        )

    def can_deal(self) -> bool:
        return not self.over and (not self.hands or self.hands[-1].over)

    def _check_can_deal(self) -> None:
        if self.over:
            raise BadInputError("the match is over")
        if self.hands and not self.hands[-1].over:
            raise BadInputError("the current hand is not finished")

    def start_hand(self, deal: Deal) -> list[Event]:
        """Start the next hand with ``deal``. Raises :class:`BadInputError` if it cannot start."""
        self._check_can_deal()
        deal.validate(
            self.options.set, self.hand_size, self.middle_size, self.seats, self.stock_size
        )
        deal = deal.settled()
        if deal.seed is None:
            return self._start(deal, self.variant.opening(self.options, deal, self._previous()))
        made, opening = self.seeded_hand(deal.seed)
        if made != deal:
            raise BadInputError("the deal is not the one its seed makes")
        return self._start(deal, opening)

    def _start(self, deal: Deal, opening: Opening) -> list[Event]:
        self.lot_leads.append(lot_decides(self.variant, self.options, deal, self._previous()))
        hand = new_hand(self.variant, self.options, deal, opening, len(self.hands), self.scores)
        self.hands.append(hand)
        events = list(hand.start_events)
        if hand.over:
            events.extend(self._hand_finished())
        if self.automate:
            events.extend(self.play_forced())
        return events

    def deal_hand(self, rng: random.Random) -> list[Event]:
        """Shuffle with ``rng`` and start the next hand, reshuffling a deal nobody can open
        (for simulations: the bot deals from a seed, :meth:`deal_from_seed`)."""
        self._check_can_deal()
        return self._start(*self._first_playable(lambda: shuffle_deal(
            rng, self.options.set, self.seats, self.hand_size, self.middle_size,
            self.stock_size > 0)))

    def deal_from_seed(self, seed: bytes) -> list[Event]:
        """Start the next hand with the deal ``seed`` makes (:mod:`engine.fairness`); a deal
        nobody can open is followed by the next one the same seed's stream makes."""
        self._check_can_deal()
        return self._start(*self.seeded_hand(seed))

    def seeded_hand(self, seed: bytes) -> tuple[Deal, Opening]:
        """The deal ``seed`` makes for the next hand, and its opening, without starting it."""
        return self._first_playable(self.seeded_deals(seed))

    def seeded_deals(self, seed: bytes) -> Callable[[], Deal]:
        """The deals of ``seed``'s stream for this table, the next one a call (the first
        that somebody can open is the hand's; docs/FAIRNESS.md)."""
        stream = SeedStream(seed)
        return lambda: seeded_deal(
            stream, seed, self.options.set, self.seats, self.hand_size, self.middle_size,
            self.stock_size > 0)

    def _first_playable(self, deals: Callable[[], Deal]) -> tuple[Deal, Opening]:
        return first_playable(self.variant, self.options, deals, self._previous())

    # --- play --------------------------------------------------------------------------
    def legal_actions(self) -> tuple[Action, ...]:
        return self.hands[-1].legal_actions() if self.hands else ()

    @property
    def to_move(self) -> int | None:
        return self.hands[-1].to_move if self.hands else None

    def check(self, seat: int, action: Action) -> Action:
        """See :meth:`Hand.check`; also raises :class:`HandOverError` once the match is over."""
        if not self.hands:
            raise HandOverError("no hand is being played")
        return self.hand.check(seat, action)

    def can(self, seat: int, action: Action) -> bool:
        return bool(self.hands) and self.hand.can(seat, action)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat``, then (with :attr:`automate`) the moves nobody
        decides that follow; see :meth:`Hand.check` for the errors it raises."""
        events = self._apply(seat, action)
        if self.automate:
            events.extend(self.play_forced())
        return events

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if not self.hands:
            raise HandOverError("no hand is being played")
        hand = self.hand
        events = hand.apply(seat, action)
        if hand.over:
            events.extend(self._hand_finished())
        return events

    def forced_action(self) -> Action | None:
        """The move nobody decides, if one is due: a knock when nothing fits and nothing may
        be drawn, a draw when the stock must be used, a discard when the seat's only tile
        fits nowhere (dead tiles: it goes face down and the hand ends) -- the only legal
        action, whoever is to move. A discard among several tiles is a choice, and so is a
        lay, even the only one: the rules leave the player to make it (player QA: two taps
        for a discard with nothing to choose, while the turn timer ran)."""
        legal = self.legal_actions()
        if len(legal) == 1 and type(legal[0]) in (Knock, Draw, Discard):
            return legal[0]
        return None

    def play_forced(self) -> list[Event]:
        """Play the moves nobody decides (:meth:`forced_action`), in turn, until a seat has a
        choice or the hand ends; their events, in order (a drawn tile is told only to its
        seat's view). The next hand is not dealt."""
        events: list[Event] = []
        action = self.forced_action()
        while action is not None:
            seat = self.to_move
            assert seat is not None
            events.extend(self._apply(seat, action))
            action = self.forced_action()
        return events

    def step(self, seat: int, action: Action) -> None:
        """:meth:`apply` without events, for searches and simulations."""
        try:
            hand = self.hands[-1]
        except IndexError:
            raise HandOverError("no hand is being played") from None
        hand.step(seat, action)
        if hand.result is not None:
            self._hand_finished()

    def _hand_finished(self) -> list[Event]:
        result = self.hand.result
        assert result is not None
        self.scores = result.scores
        self.over, self.winner, self.target_reached = self.variant.match_outcome(
            self.options, self.scores, self.target_reached
        )
        if self.over:
            self.result = MatchEnded(self.winner, self.scores)
            return [self.result]
        return []

    def side_of(self, seat: int) -> int:
        return self.variant.side_of(seat, self.seats)
