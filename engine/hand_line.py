"""The plain line of equal numbers: the line games' layout, and the bit-mask fast path.

The rules are :class:`engine.hand.Hand`'s; this layout keeps the line as its two open
numbers, so the legal plays are one AND with the mask of tiles showing an end's number, and
"blocked" is one AND over all hands together. :meth:`LineHand.step` is the machine's effect for
this layout written inline (the common play checked without a call), for searches and
simulations that replay thousands of hands per decision; the tiles themselves are laid in a
:class:`Line` only when it is asked for.
"""

from __future__ import annotations

from .actions import KNOCK, Action, ActionKind, Discard, Move, Play, check_form
from .deal import Deal
from .errors import EndRequiredError, TileDoesNotFitError
from .events import Event, HandEndReason, TilePlayed
from .hand import KNOCK_ONLY, LEAD, Hand
from .layout import Line
from .masks import EVERY_TILE, SHOWS, TILE_AT, tiles_of
from .public import LaidTile, LayoutView, OpenEnd, PublicMove
from .seams import Opening
from .tiles import End, Tile

__all__ = ["AT_LEFT", "AT_RIGHT", "LineHand", "lay", "plays_at", "start_line"]

LEFT, RIGHT = End.LEFT, End.RIGHT
AT_LEFT: tuple[Play, ...] = tuple(Play(t, LEFT) for t in TILE_AT)
AT_RIGHT: tuple[Play, ...] = tuple(Play(t, RIGHT) for t in TILE_AT)
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


# What one push changed, to take back: the mover, their mask, every tile held, the ends, whose
# turn, the legal actions kept, the mover's dead tiles.
_Pushed = tuple[int, int, int, "int | None", "int | None", "int | None",
                "tuple[Action, ...] | None", int]

_new_move = tuple.__new__  # builds a Move without a Python-level __new__ call


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


class LineHand(Hand):
    """One hand on the plain line. Changed only through :meth:`apply` / :meth:`step`."""

    def _open_layout(self, opening: Opening) -> None:
        self.in_hands = sum(self.masks)  # every tile still held by anybody (hands are disjoint)
        self.left: int | None = None  # the open ends; None until the line has a tile
        self.right: int | None = None
        self._line: Line | None = None
        self._line_moves = 0
        self._pushed: list[_Pushed] = []  # what :meth:`pop` restores, the last move last
        if opening.turned_up is not None:
            deal = self.deal
            left = deal.turned_left if deal.turned_left is not None else opening.turned_up.low
            self.left, self.right = left, opening.turned_up.pips - left
            if self._blocked():
                self.start_events.append(self._end(HandEndReason.BLOCKED, None, False))

    # --- the layout --------------------------------------------------------------------
    @property
    def laid(self) -> bool:
        return self.left is not None

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

    def layout_view(self) -> LayoutView:
        placed = self.line.placed
        left, right = self.left, self.right
        # The lead's place in the line: one to the right of every tile laid at the left.
        center = sum(1 for _, a in self.moves if type(a) is Play and a.end is LEFT)
        ends: tuple[OpenEnd, ...] = ()
        if left is not None and right is not None:
            ends = (OpenEnd(LEFT, (left,), True, center, counted=(left,)),
                    OpenEnd(RIGHT, (right,), True, len(placed) - 1 - center, counted=(right,)))
        if not placed:
            count = 0
        elif len(placed) == 1:
            count = placed[0].tile.pips  # a line of one tile counts it once
        else:
            count = (left or 0) + (right or 0)
        return LayoutView(
            kind="line",
            # Equal numbers join: a tile left of the lead was laid against its own right
            # half, one right of it against its left half.
            line=tuple(LaidTile(p.tile, p.left, p.right, False,
                                None if i == center else p.right if i < center else p.left)
                       for i, p in enumerate(placed)),
            center=center if placed else None,
            spinner=None,
            up=(),
            down=(),
            ends=ends,
            off=(),
            count=count,
        )

    def public_moves(self) -> tuple[PublicMove, ...]:
        line = start_line(self.deal)
        moves = []
        for seat, action in self.moves:
            before = line.ends
            if type(action) is Play:
                lay(line, action)
                moves.append(PublicMove(seat, ActionKind.PLAY, action.tile, action.end, before))
            else:
                moves.append(PublicMove(seat, action.kind, None, None, before))
        return tuple(moves)

    def gains(self, seat: int) -> tuple[int, ...]:
        """Nothing scores during play on the plain line."""
        return (0,) * len(self.legal_actions()) if seat == self.to_move else ()

    def lay_mask(self) -> int:
        left, right = self.left, self.right
        if left is None or right is None:
            return EVERY_TILE
        return SHOWS[left] | SHOWS[right]

    def can_lay(self, seat: int) -> bool:
        left, right = self.left, self.right
        if left is None or right is None:
            return True  # whoever leads holds a tile they may lead (the opening ensures it)
        return bool(self.masks[seat] & (SHOWS[left] | SHOWS[right]))

    def _plays(self, seat: int) -> tuple[Play, ...]:
        mask = self.masks[seat]
        left, right = self.left, self.right
        if left is None or right is None:
            leads = self.must_lead
            return tuple([LEAD[t.index] for t in tiles_of(mask) if not leads or t in leads])
        return plays_at(mask, left, right)

    def legal_actions(self) -> tuple[Action, ...]:
        """:meth:`Hand.legal_actions`, with the plays on a started line found inline."""
        legal = self._legal
        if legal is None:
            seat, left, right = self.to_move, self.left, self.right
            if seat is None or left is None or right is None:
                return super().legal_actions()
            legal = plays_at(self.masks[seat], left, right) or self._stuck(seat)
            self._legal = legal
        return legal

    def _check_lay(self, seat: int, play: Play) -> Play:
        tile = play.tile
        left, right = self.left, self.right
        assert left is not None and right is not None
        fits_left, fits_right = tile.shows(left), tile.shows(right)
        if play.end is LEFT or play.end is RIGHT:
            if not (fits_left if play.end is LEFT else fits_right):
                raise TileDoesNotFitError(f"{tile} does not fit the {play.end.value} end")
            return (AT_LEFT if play.end is LEFT else AT_RIGHT)[tile.index]
        if fits_left and fits_right:
            if left != right:
                raise EndRequiredError(f"{tile} fits both ends: choose one")
            return AT_LEFT[tile.index]
        if fits_left:
            return AT_LEFT[tile.index]
        if fits_right:
            return AT_RIGHT[tile.index]
        raise TileDoesNotFitError(f"{tile} fits neither end")

    def _lay(self, seat: int, play: Play) -> list[Event]:
        """Lay a checked ``play``: the lead sets both ends, a tile at an end turns it."""
        tile, left, right = play.tile, self.left, self.right
        if left is None or right is None:
            first = play.left_half if play.left_half is not None else tile.low
            second = self.right = tile.pips - first
            self.left = first
        elif play.end is RIGHT:
            first, second = right, tile.pips - right
            self.right = second
        else:
            first, second = tile.pips - left, left
            self.left = first
        self.masks[seat] ^= tile.bit
        self.in_hands ^= tile.bit
        ends = (self.left, self.right)
        return [TilePlayed(seat, tile, play.end or LEFT, first, second, ends)]  # type: ignore[arg-type]

    def _fork_layout(self, state: dict[str, object]) -> None:
        state["_line"] = None  # rebuilt only if the fork is asked for it
        state["_line_moves"] = 0
        state["_pushed"] = []  # a fork's moves are its own to take back

    def _discard(self, seat: int, tile: Tile) -> None:
        super()._discard(seat, tile)
        self.in_hands ^= tile.bit

    # --- the fast path -----------------------------------------------------------------
    def step(self, seat: int, action: Action) -> None:
        """:meth:`Hand.apply` without events, inline for the plain line's seams: equal
        numbers, no stock, no points during play, the mover is the out seat, blocked when
        no tile held fits an end, the turn passes to the next seat (the property tests play
        every match through both and compare). Nothing changes on error."""
        masks = self.masks
        if type(action) is Play:
            tile = action.tile
            if type(tile) is not Tile or type(seat) is not int:
                check_form(seat, action)  # refuses it: a True seat is 1, a text no tile
            bit = tile.bit
            left = self.left
            end = action.end
            # The common case is checked inline: a held tile laid at an end it fits.
            if (
                (end is not LEFT and end is not RIGHT)
                or action.cross is not None
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
        elif not (action is KNOCK and self._legal is KNOCK_ONLY and seat == self.to_move
                  and type(seat) is int):
            action = self.check(seat, action)
            if type(action) is Discard:
                self._discard(seat, action.tile)
        self.moves.append(_new_move(Move, (seat, action)))
        self._legal = None
        if not masks[seat]:
            self._end(HandEndReason.OUT, seat, type(action) is Play)
        elif not self.in_hands & (SHOWS[self.left] | SHOWS[self.right]):  # type: ignore[index]
            self._end(HandEndReason.BLOCKED, None, False)
        else:
            self.to_move = seat + 1 if seat + 1 < self.seats else 0

    # --- what-if on one hand ------------------------------------------------------------
    def push(self, seat: int, action: Action) -> None:
        """:meth:`step` on an unfinished hand, kept so that :meth:`pop` takes it back: a
        solver walks its tree on one hand, not on a fork per node (a fork copies the whole
        hand; this keeps the few numbers a move changes)."""
        self._pushed.append((seat, self.masks[seat], self.in_hands, self.left, self.right,
                             self.to_move, self._legal, len(self.dead[seat])))
        self.step(seat, action)

    def pop(self) -> None:
        """Take back the last :meth:`push`: the hand is as it was before it, result and all."""
        seat, mask, in_hands, left, right, to_move, legal, dead = self._pushed.pop()
        self.masks[seat] = mask
        self.in_hands = in_hands
        self.left, self.right = left, right
        self.to_move = to_move
        self._legal = legal
        del self.dead[seat][dead:]
        self.moves.pop()
        self.result = self.reason = self.out_seat = None  # (a move is pushed before the end)
        self._line = self._sight = None  # made for a longer hand: made again if asked
