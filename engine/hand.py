"""One hand of play: the deal, the line, whose turn it is, and every check and effect.

Each action is written once, pokerkit-style: :meth:`Hand.check` raises the reason an action
is refused (and returns it with the end resolved), :meth:`Hand.can` asks, :meth:`Hand.apply`
does it and returns the events. :meth:`Hand.step` is the same effect without building events,
for searches and simulations that replay thousands of hands per decision.

Hands are kept as bit masks over tile indices: the legal plays are one AND with the mask of
tiles showing an end's number, and "blocked" is one AND over all hands together.
"""

from __future__ import annotations

from operator import add, attrgetter

from .actions import KNOCK, Action, Discard, Knock, Move, Play
from .deal import Deal
from .errors import (
    EndRequiredError,
    HandOverError,
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
    HandStarted,
    Knocked,
    TileDiscarded,
    TilePlayed,
)
from .layout import Line
from .options import Options
from .tiles import MAX_PIPS, End, Tile, full_set
from .variants import Opening, Variant

LEFT, RIGHT = End.LEFT, End.RIGHT
_ALL = full_set(MAX_PIPS)
TILE_AT: tuple[Tile, ...] = tuple(sorted(_ALL, key=lambda t: t.index))
SHOWS: tuple[int, ...] = tuple(
    sum(1 << t.index for t in _ALL if t.shows(n)) for n in range(MAX_PIPS + 1)
)
# Interned actions: generating legal moves allocates nothing, and membership is identity.
LEAD: tuple[Play, ...] = tuple(Play(t) for t in TILE_AT)
AT_LEFT: tuple[Play, ...] = tuple(Play(t, LEFT) for t in TILE_AT)
AT_RIGHT: tuple[Play, ...] = tuple(Play(t, RIGHT) for t in TILE_AT)
DISCARD: tuple[Discard, ...] = tuple(Discard(t) for t in TILE_AT)
KNOCK_ONLY: tuple[Action, ...] = (KNOCK,)
FIT_MEMO_LIMIT = 8192  # per end: all of double-6 (896 masks), the commonest of larger sets


class _FitPlays(dict[int, tuple[Play, ...]]):
    """The plays, at one end, of the tiles in a mask that fit it: memoised, because a hand
    holds only a few of the tiles showing any number, so the same few masks keep coming."""

    __slots__ = ("table",)

    def __init__(self, table: tuple[Play, ...]) -> None:
        super().__init__()
        self.table = table

    def __missing__(self, fit: int) -> tuple[Play, ...]:
        plays = []
        rest = fit
        while rest:
            low = rest & -rest
            plays.append(self.table[low.bit_length() - 1])
            rest ^= low
        found = tuple(plays)
        if len(self) < FIT_MEMO_LIMIT:
            self[fit] = found
        return found


FIT_LEFT = _FitPlays(AT_LEFT)
FIT_RIGHT = _FitPlays(AT_RIGHT)


def plays_at(mask: int, left: int, right: int) -> tuple[Play, ...]:
    """The plays of the tiles in ``mask`` at the open ends ``left`` and ``right`` (a tile
    that fits both equal ends is listed once, at the left)."""
    fit = mask & SHOWS[left]
    plays = FIT_LEFT[fit] if fit else ()
    if right != left:
        fit = mask & SHOWS[right]
        if fit:
            plays = plays + FIT_RIGHT[fit] if plays else FIT_RIGHT[fit]
    return plays


_new_move = tuple.__new__  # builds a Move without a Python-level __new__ call
_BIT = attrgetter("bit")


def start_line(deal: Deal) -> Line:
    """An empty line, or one holding the turned-up middle tile where the deal has a middle."""
    line = Line()
    if deal.middle:
        turned = deal.middle[0]
        line.start(turned, deal.turned_left if deal.turned_left is not None else turned.low)
    return line


def lay(line: Line, play: Play) -> None:
    """Lay an applied ``play``: the first tile as its ``left_half`` says, others at their end."""
    if line.left is None:
        half = play.left_half
        line.start(play.tile, half if half is not None else play.tile.low)
    else:
        line.attach(play.tile, play.end or LEFT)


def mask_of(tiles: tuple[Tile, ...] | list[Tile]) -> int:
    return sum(map(_BIT, tiles))  # tiles are distinct, so the sum is the OR


def tiles_of(mask: int) -> list[Tile]:
    """The tiles of ``mask`` in set order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(TILE_AT[low.bit_length() - 1])
        mask ^= low
    return out


class HandCore:
    """What every hand holds and answers, whatever its game's layout: the deal, the seats'
    tiles as bit masks, the log, whose turn it is and the result. :class:`Hand` (the line
    games) and :class:`engine.table.StockHand` (the games with a stock) build on it."""

    def _setup(
        self,
        variant: Variant,
        options: Options,
        deal: Deal,
        opening: Opening,
        number: int,
        scores_before: tuple[int, ...] | None,
    ) -> None:
        self.options = options
        self.deal = deal
        self.number = number
        self.seats = deal.seats
        self.opener = opening.opener
        self.must_lead = opening.must_lead
        self.masks: list[int] = [mask_of(h) for h in deal.hands]
        self.dead: list[list[Tile]] = [[] for _ in range(self.seats)]
        self.moves: list[Move] = []
        self.to_move: int | None = opening.opener
        self.reason: HandEndReason | None = None
        self.out_seat: int | None = None
        self.result: HandEnded | None = None
        self._scores_before = scores_before or (0,) * len(variant.sides(self.seats))
        self._legal: tuple[Action, ...] | None = None
        leads = opening.must_lead
        # One forced tile is public (it is about to be laid); a choice among the opener's
        # doubles stays their secret: then only "a double must lead" is told.
        forced = leads if len(leads) == 1 else ()
        double = bool(leads) and all(t.is_double for t in leads)
        self.started = HandStarted(number, opening.opener, opening.turned_up, forced, double)
        self.start_events: list[Event] = [self.started]

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def hands(self) -> list[list[Tile]]:
        """Each seat's tiles now, in set order."""
        return [tiles_of(mask) for mask in self.masks]

    def holds(self, seat: int, tile: Tile) -> bool:
        return bool(self.masks[seat] >> tile.index & 1)

    def last_move_of(self, seat: int) -> Action | None:
        for move in reversed(self.moves):
            if move.seat == seat:
                return move.action
        return None

    def check(self, seat: int, action: Action) -> Action:
        raise NotImplementedError  # each kind of hand checks its own moves

    def can(self, seat: int, action: Action) -> bool:
        try:
            self.check(seat, action)
        except ValueError:
            return False
        return True


class Hand(HandCore):
    """The state of one hand. Changed only through :meth:`apply` / :meth:`step`."""

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
        self._setup(variant, options, deal, opening, number, scores_before)
        self.dead_tiles = variant.has_dead_tiles(options)
        self.in_hands = sum(self.masks)  # every tile still held by anybody (hands are disjoint)
        self.left: int | None = None  # the open ends; None until the line has a tile
        self.right: int | None = None
        self._line: Line | None = None
        self._line_moves = 0
        if opening.turned_up is not None:
            left = deal.turned_left if deal.turned_left is not None else opening.turned_up.low
            self.left, self.right = left, opening.turned_up.pips - left
            if self._blocked():
                self.start_events.append(self._end(HandEndReason.BLOCKED, None, False))

    # --- reading -----------------------------------------------------------------------
    @property
    def ends(self) -> tuple[int, int] | None:
        if self.left is None or self.right is None:
            return None
        return (self.left, self.right)

    @property
    def line(self) -> Line:
        """The layout, brought up to date from the moves when asked (``step`` keeps only the
        ends, so searches never pay for it)."""
        line, done, moves = self._line, self._line_moves, self.moves
        if line is None or done > len(moves):
            line, done = start_line(self.deal), 0
        for _, action in moves[done:]:  # only the moves made since it was last asked for
            if type(action) is Play:
                lay(line, action)
        self._line, self._line_moves = line, len(moves)
        return line

    def _blocked(self) -> bool:
        left, right = self.left, self.right
        return left is not None and right is not None and not (
            self.in_hands & (SHOWS[left] | SHOWS[right])
        )

    def playable(self, seat: int) -> list[Play]:
        """The plays open to ``seat`` now, whether or not it is their turn."""
        mask = self.masks[seat]
        left, right = self.left, self.right
        if left is None or right is None:
            leads = self.must_lead
            return [LEAD[t.index] for t in tiles_of(mask) if not leads or t in leads]
        return list(plays_at(mask, left, right))

    def can_lay(self, seat: int) -> bool:
        left, right = self.left, self.right
        if left is None or right is None:
            return True  # whoever leads holds a tile they may lead (the opening ensures it)
        return bool(self.masks[seat] & (SHOWS[left] | SHOWS[right]))

    def legal_actions(self) -> tuple[Action, ...]:
        """Every action open to the seat to move (empty once the hand is over)."""
        legal = self._legal
        if legal is not None:
            return legal
        seat = self.to_move
        left, right = self.left, self.right
        if seat is None:
            legal = ()
        elif left is None or right is None:
            legal = tuple(self.playable(seat))
        else:
            mask = self.masks[seat]
            legal = plays_at(mask, left, right)
            if not legal and self.dead_tiles:  # stuck: discard any tile
                legal = tuple([DISCARD[t.index] for t in tiles_of(mask)])
            elif not legal:  # stuck: knock
                legal = KNOCK_ONLY
        self._legal = legal
        return legal

    def totals(self) -> tuple[int, ...]:
        return self.variant.totals(self.options, self.hands, self.dead)

    def fork(self) -> Hand:
        """An independent copy to play on: searches try a move on a fork, not on the hand.

        Cheap: the deal, variant, options and interned actions are shared; only the lists
        that play changes are copied, and the line is rebuilt only if the fork is asked for it.
        """
        twin = object.__new__(Hand)
        state = self.__dict__.copy()
        state["masks"] = self.masks.copy()
        state["dead"] = [gone.copy() for gone in self.dead]
        state["moves"] = self.moves.copy()
        state["start_events"] = self.start_events.copy()
        state["_line"] = None
        state["_line_moves"] = 0
        twin.__dict__.update(state)
        return twin

    # --- check / can / apply ----------------------------------------------------------
    def check(self, seat: int, action: Action) -> Action:
        """The action as it will be applied (end resolved), or the reason it cannot be.

        Raises :class:`HandOverError`, :class:`NotYourTurnError`, :class:`TileNotInHandError`,
        :class:`WrongLeadError`, :class:`TileDoesNotFitError`, :class:`EndRequiredError`,
        :class:`MustPlayError` or :class:`WrongStuckActionError`.
        """
        if self.to_move is None:
            raise HandOverError("this hand is already over")
        if seat != self.to_move:
            raise NotYourTurnError("it is not your turn")
        if type(action) is Play:
            return self._check_play(seat, action)
        if type(action) is Knock:
            if self.dead_tiles:
                raise WrongStuckActionError("in this game a stuck player discards a dead tile")
            if self.can_lay(seat):
                raise MustPlayError("you must play when you can")
            return action
        if type(action) is Discard:
            if not self.dead_tiles:
                raise WrongStuckActionError("in this game a stuck player knocks")
            if not self.holds(seat, action.tile):
                raise TileNotInHandError(f"you do not hold {action.tile}")
            if self.can_lay(seat):
                raise MustPlayError("you must play when you can")
            return action
        raise TypeError(f"not an action: {action!r}")

    def _check_play(self, seat: int, play: Play) -> Play:
        tile = play.tile
        if not self.holds(seat, tile):
            raise TileNotInHandError(f"you do not hold {tile}")
        left, right = self.left, self.right
        if left is None or right is None:
            if self.must_lead and tile not in self.must_lead:
                leads = " or ".join(map(str, self.must_lead))
                raise WrongLeadError(f"this hand must be led with {leads}")
            if play.left_half is not None and not tile.shows(play.left_half):
                raise TileDoesNotFitError(f"{tile} has no {play.left_half}")
            return play
        fits_left, fits_right = tile.shows(left), tile.shows(right)
        if play.end is LEFT or play.end is RIGHT:
            if not (fits_left if play.end is LEFT else fits_right):
                raise TileDoesNotFitError(f"{tile} does not fit the {play.end.value} end")
            return play
        if fits_left and fits_right:
            if left != right:
                raise EndRequiredError(f"{tile} fits both ends: choose one")
            return AT_LEFT[tile.index]
        if fits_left:
            return AT_LEFT[tile.index]
        if fits_right:
            return AT_RIGHT[tile.index]
        raise TileDoesNotFitError(f"{tile} fits neither end")

    def step(self, seat: int, action: Action) -> None:
        """Apply ``action`` for ``seat`` without building events. Nothing changes on error."""
        masks = self.masks
        if type(action) is Play:
            tile = action.tile
            bit = tile.bit
            left = self.left
            end = action.end
            # The common case is checked inline: a held tile laid at an end it fits.
            if (
                end is None
                or left is None
                or seat != self.to_move
                or not masks[seat] & bit
                or not SHOWS[left if end is LEFT else self.right] & bit  # type: ignore[index]
            ):
                end = self.check(seat, action).end  # type: ignore[union-attr]
            # The log keeps one canonical action per effect (interned where possible), so a
            # hand replayed from its record holds exactly the same moves.
            if left is None:
                half = action.left_half if action.left_half is not None else tile.low
                self.left, self.right = half, tile.pips - half
                action = LEAD[tile.index] if half == tile.low else Play(tile, None, half)
            elif end is RIGHT:
                self.right = tile.pips - self.right  # type: ignore[operator]
                action = AT_RIGHT[tile.index]
            else:
                self.left = tile.pips - left
                action = AT_LEFT[tile.index]
            masks[seat] ^= bit
            self.in_hands ^= bit
        elif not (action is KNOCK and self._legal is KNOCK_ONLY and seat == self.to_move):
            action = self.check(seat, action)
            if type(action) is Discard:
                tile = action.tile
                self.dead[seat].append(tile)
                bit = tile.bit
                masks[seat] ^= bit
                self.in_hands ^= bit
        self.moves.append(_new_move(Move, (seat, action)))
        self._legal = None
        if not masks[seat]:
            self._end(HandEndReason.OUT, seat, type(action) is Play)
        elif not self.in_hands & (SHOWS[self.left] | SHOWS[self.right]):  # type: ignore[index]
            self._end(HandEndReason.BLOCKED, None, False)
        else:
            self.to_move = seat + 1 if seat + 1 < self.seats else 0

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` and return what happened. Nothing changes on error."""
        self.step(seat, action)
        action = self.moves[-1].action
        events: list[Event]
        if type(action) is Play:
            line = self.line
            placed = line.placed[0] if action.end is LEFT or len(line) == 1 else line.placed[-1]
            end = action.end if action.end is not None else LEFT
            ends = (line.left, line.right)
            events = [TilePlayed(seat, action.tile, end, placed.left, placed.right, ends)]  # type: ignore[arg-type]
        elif type(action) is Discard:
            events = [TileDiscarded(seat, len(self.dead[seat]), self.ends)]
        else:
            events = [Knocked(seat, self.ends)]
        if self.result is not None:
            events.append(self.result)
        return events

    def _end(self, reason: HandEndReason, out_seat: int | None, by_play: bool) -> HandEnded:
        self.to_move = None
        self.reason = reason
        self.out_seat = out_seat
        hands = self.hands
        totals = self.variant.totals(self.options, hands, self.dead)
        score = self.variant.score(self.options, reason, out_seat, totals, hands, self.dead)
        scores = tuple(map(add, self._scores_before, score.points))
        self.result = HandEnded(
            self.number, reason, out_seat, by_play, score.winner, totals, score.points, scores
        )
        return self.result
