"""One hand: every rule of a hand written once, over the seams its variant declares.

Each action is written once, pokerkit-style: :meth:`Hand.check` raises the reason an
action is refused (and returns it as it will be applied), :meth:`Hand.can` asks,
:meth:`Hand.apply` does it and returns the events; :meth:`Hand.step` is the same
effect without events, for searches. The variant supplies the seams (its layout and matching
rule, its stock and drawing rule, what a stuck player does, who moves next, when the hand
ends, points during play); the rules below consult them and nothing else.

A layout implements the few things that depend on how tiles lie: whether the layout has
started, the mask of tiles that fit somewhere (:meth:`Hand.lay_mask`), the lays open to a
seat, resolving and laying a tile. Two layouts exist, private to the engine: the plain line of
equal numbers (:mod:`engine.hand_line`, the ends as two numbers and a bit-mask fast path) and
the board (:mod:`engine.hand_board`: named ends, the spinner, ribbons, crosswise tiles).
:func:`engine.match.new_hand` picks the one the variant's seams call for; nothing outside the
engine needs to know which.

What a hand holds and what is read of it (the tiles, the stock, the log, the layout's part,
forks) is :class:`engine.hand_position.HandPosition`, below; every rule is here, each check
beside its effect.
"""

from __future__ import annotations

from operator import add

from .actions import DRAW, KNOCK, Action, Cut, Discard, Draw, Knock, Move, Play, check_form
from .errors import (
    CannotDrawError,
    CutNotAllowedError,
    HandOverError,
    MustDrawError,
    MustPlayError,
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
    PointsScored,
    TileDiscarded,
    TileDrawn,
)
from .hand_position import HandPosition
from .masks import TILE_AT, tiles_of
from .seams import Score
from .tiles import Tile

# Interned actions: generating legal moves allocates nothing, and membership is identity.
LEAD: tuple[Play, ...] = tuple(Play(t) for t in TILE_AT)
DISCARD: tuple[Discard, ...] = tuple(Discard(t) for t in TILE_AT)
KNOCK_ONLY: tuple[Action, ...] = (KNOCK,)
DRAW_ONLY: tuple[Action, ...] = (DRAW,)


class Hand(HandPosition):
    """One hand: its position (:class:`HandPosition`) and every rule, over the variant's
    seams. A layout subclass supplies the layout's part :class:`HandPosition` declares."""

    # --- what the rules allow -----------------------------------------------------------
    def can_lay(self, seat: int) -> bool:
        # Whoever leads holds a tile they may lead (the opening ensures it).
        return not self.laid or bool(self.masks[seat] & self.lay_mask())

    def can_draw(self) -> bool:
        """The drawing rule: a tile is left above the stock's reserve, within the limit."""
        limit = self.variant.draw_limit
        left = self.stock_left > self.variant.stock_reserve
        return left and (limit is None or self.draws < limit)

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action open to the seat to move (empty once the hand is over)."""
        legal = self._legal
        if legal is None:
            seat = self.to_move
            legal = () if seat is None else self._plays(seat) or self._stuck(seat)
            self._legal = legal
        return legal

    def _stuck(self, seat: int) -> tuple[Action, ...]:
        """What a seat that cannot lay may do: discard any tile (dead tiles), draw, knock."""
        if self.dead_tiles:
            return tuple([DISCARD[t.index] for t in tiles_of(self.masks[seat])])
        return DRAW_ONLY if self.stock and self.can_draw() else KNOCK_ONLY

    def gains(self, seat: int) -> tuple[int, ...]:
        """What each of :meth:`legal_actions` would score for ``seat`` at once (a knock's
        cost is negative), tried on a fork; empty unless ``seat`` is to move."""
        if seat != self.to_move:
            return ()
        out = []
        for action in self.legal_actions():
            events = self.fork().apply(seat, action)
            out.append(sum(e.points for e in events if type(e) is PointsScored and e.seat == seat))
        return tuple(out)

    # --- check / can / apply ----------------------------------------------------------
    def check(self, seat: int, action: Action) -> Action:
        """The action as it will be applied (end and way resolved), or why it cannot be.

        Raises :class:`HandOverError`, :class:`NotYourTurnError`, :class:`TileNotInHandError`,
        :class:`WrongLeadError`, :class:`TileDoesNotFitError`, :class:`EndRequiredError`,
        :class:`MustPlayError`, :class:`MustDrawError`, :class:`CannotDrawError`,
        :class:`WrongStuckActionError` or the layout's own errors; :class:`BadInputError` for
        a seat or action not made of the right values.
        """
        check_form(seat, action)
        if self.to_move is None:
            raise HandOverError("this hand is already over")
        if seat != self.to_move:
            raise NotYourTurnError("it is not your turn")
        kind = type(action)
        if kind is Play:
            tile = action.tile  # type: ignore[union-attr]
            if not self.holds(seat, tile):
                raise TileNotInHandError(f"you do not hold {tile}")
            if self.laid:
                return self._check_lay(seat, action)  # type: ignore[arg-type]
            return self._check_lead(action)  # type: ignore[arg-type]
        if kind is Knock:
            if self.dead_tiles:
                raise WrongStuckActionError("in this game a stuck player discards a dead tile")
            self._check_stuck(seat)
            if self.can_draw():
                raise MustDrawError("draw from the stock first")
            return KNOCK
        if kind is Draw:
            self._check_stuck(seat)
            if not self.can_draw():
                raise CannotDrawError("there is nothing more you may draw this turn")
            return DRAW
        if kind is Discard:
            if not self.dead_tiles:
                stuck = "draws or knocks" if self.stock else "knocks"
                raise WrongStuckActionError(f"in this game a stuck player {stuck}")
            if not self.holds(seat, action.tile):  # type: ignore[union-attr]
                raise TileNotInHandError(f"you do not hold {action.tile}")  # type: ignore[union-attr]
            self._check_stuck(seat)
            return action
        if kind is Cut:
            if not self.variant.has_cut:
                raise CutNotAllowedError("only Kolbasa's ribbons are cut")
            if not self.holds(seat, action.tile):  # type: ignore[union-attr]
                raise TileNotInHandError(f"you do not hold {action.tile}")  # type: ignore[union-attr]
            return self._check_cut(seat, action)  # type: ignore[arg-type]
        raise AssertionError(f"not an action: {action!r}")  # (check_form refused it)

    def _check_stuck(self, seat: int) -> None:
        if self.can_lay(seat):
            raise MustPlayError("you must play when you can")

    def _check_lead(self, play: Play) -> Play:
        tile = play.tile
        if self.must_lead and tile not in self.must_lead:
            leads = " or ".join(map(str, self.must_lead))
            raise WrongLeadError(f"this hand must be led with {leads}")
        half = play.left_half
        if half is None or half == tile.low:
            return LEAD[tile.index]
        if not tile.shows(half):
            raise TileDoesNotFitError(f"{tile} has no {half}")
        return Play(tile, None, half)

    def step(self, seat: int, action: Action) -> None:
        """Apply ``action`` for ``seat`` without keeping its events."""
        self.apply(seat, action)

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` and return what happened. Nothing changes on error."""
        return self._do(seat, self.check(seat, action))

    def advance(self, seat: int, action: Action) -> None:
        """Apply one of :meth:`legal_actions` for the seat to move, unchecked, its events
        dropped: a search's inner loop, where the check costs as much as the move. The
        board's record of what each move showed is not kept either, so a hand advanced once
        is for playing on only, never for a view: one that is shown or kept takes
        :meth:`apply` (or :meth:`step`), which refuse what the rules do not allow."""
        self._do(seat, action)

    def _do(self, seat: int, action: Action) -> list[Event]:
        """Apply a checked ``action`` (as :meth:`check` resolves it)."""
        events: list[Event] = []
        moves_on = True
        kind = type(action)
        if kind is Play:
            events.extend(self._lay(seat, action))  # type: ignore[arg-type]
        elif kind is Cut:
            events.extend(self._cut(seat, action))  # type: ignore[arg-type]
            moves_on = False  # the cut hands the turn to the taker
        elif kind is Draw:
            events.append(self._draw(seat))
            moves_on = False  # a seat that drew lays or draws again
        elif kind is Discard:
            self._discard(seat, action.tile)  # type: ignore[union-attr]
            events.append(self._stuck_event(seat, action))
        else:
            events.append(self._stuck_event(seat, action))
            events.extend(self._score(seat, self.variant.knock_points(self.options)))
        self.moves.append(Move(seat, action))
        self._legal = None
        ended = self._check_end(seat, kind is not Discard)
        if ended is not None:
            events.append(ended)
        elif moves_on:
            self._pass_turn(seat)
        return events

    # --- effects ------------------------------------------------------------------------
    def _draw(self, seat: int) -> TileDrawn:
        """Drawing is an operation like any other: the next tile of the stock's fixed order."""
        tile = self.stock[self.drawn]
        self.drawn += 1
        self.masks[seat] |= tile.bit
        self.draws += 1
        return TileDrawn(seat, self.draws, self.stock_left, self.masks[seat].bit_count())

    def _discard(self, seat: int, tile: Tile) -> None:
        self.dead[seat].append(tile)
        self.masks[seat] ^= tile.bit

    def _stuck_event(self, seat: int, action: Action) -> Event:
        if type(action) is Discard:
            return TileDiscarded(seat, len(self.dead[seat]), self.ends)
        return Knocked(seat, self.ends)

    def _score(self, seat: int, points: tuple[Score, ...]) -> list[Event]:
        events: list[Event] = []
        for amount, why in points:
            self.scored[seat] += amount
            events.append(PointsScored(seat, seat, amount, why))
        return events

    def _pass_turn(self, seat: int) -> None:
        """Who moves next: the next seat in turn order (where the game says so, skipping a
        seat with no tiles once the stock is empty)."""
        self.draws = 0
        skip = self.variant.skip_empty and not self.stock_left
        for step in range(1, self.seats + 1):
            nxt = (seat + step) % self.seats
            if not (skip and not self.masks[nxt]):
                self.to_move = nxt
                return
        self.to_move = (seat + 1) % self.seats  # pragma: no cover - the hand is blocked then

    # --- the end of a hand -------------------------------------------------------------
    def _blocked(self) -> bool:
        """Nobody can lay, nor draw: (the knocks that would follow need not be made)."""
        if not self.laid:
            return False
        if self.variant.blocked_by_table(self):
            return True
        if self.stock_left > self.variant.stock_reserve:
            return False
        return not sum(self.masks) & self.lay_mask()

    def _check_end(self, mover: int, by_play: bool) -> HandEnded | None:
        out = self.variant.out_seat(self, mover)
        if out is not None:
            return self._end(HandEndReason.OUT, out, by_play)
        if self._blocked():
            return self._end(HandEndReason.BLOCKED, None, False)
        return None

    def _end(self, reason: HandEndReason, out_seat: int | None, by_play: bool) -> HandEnded:
        self.to_move = None
        self.reason = reason
        self.out_seat = out_seat
        game = self.variant
        # Points of play count for a side (HandEnded.scored, like the points, is per side).
        scored = tuple(sum(self.scored[seat] for seat in side)
                       for side in game.sides(self.seats)) if game.keeps_scored else ()
        end = game.ending(self.options, reason, out_seat, self.hands, scored, self.dead)
        score = game.score_hand(self.options, end)
        self.result = HandEnded(
            self.number,
            reason,
            out_seat,
            by_play,
            score.winner,
            end.totals,
            score.points,
            tuple(map(add, self._scores_before, score.points)),
            self.stock_left,
            scored,
            score.decision,
            game.pips_decide(reason),
            reason is HandEndReason.BLOCKED and game.blocked_by_table(self),
        )
        return self.result

    def can(self, seat: int, action: Action) -> bool:
        try:
            self.check(seat, action)
        except ValueError:
            return False
        return True
