"""The check of a finished hand's deal against its seed: what a player is shown, to trust it.

Everything is computed again from the match's record, never taken from what was announced:
the seed's SHA-256 against the fingerprint, the deal the seed makes (the match's own recipe,
:meth:`Match.deal_from_seed`) against the deal played and who led it, and every tile played
against what its seat held at that moment, the moves made again one by one. The command line
it gives runs the same check with ``python -m engine.verify`` (docs/FAIRNESS.md).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from .actions import Cut, Discard, Play
from .errors import DominoError, HandNotOverError, NoSeedError
from .fairness import FINGERPRINT_DIGITS, fingerprint
from .hand import Hand
from .match import Match
from .replays import replayed_before
from .tiles import Tile

#: The options that change a deal (docs/FAIRNESS.md): the command line names those that differ
#: from the game's own.
DEAL_OPTIONS = ("set", "deal", "first_lead")


@dataclass(frozen=True, slots=True)
class DealCheck:
    """The check of one finished hand, as plain values."""

    game: str  # the variant's name
    hand: int  # counting from 0
    seats: int
    fingerprint: str
    seed: str  # 64 hex digits
    fingerprint_ok: bool  # SHA-256(seed) starts with the fingerprint
    deal_ok: bool  # the deal the seed makes is the deal played (hands, middle, stock, lot)
    opener_ok: bool  # and the same seat led it
    hands: tuple[tuple[Tile, ...], ...]  # as the seed deals them, by seat
    middle: tuple[Tile, ...]  # face down; the first turned up (games with a middle)
    stock: tuple[Tile, ...]  # in draw order (games with a stock)
    opener: int  # the seat that leads the seed's deal
    strays: tuple[tuple[int, Tile], ...]  # tiles played that were not in their seat's hand
    played: tuple[tuple[int, Tile], ...]  # each tile laid, cut with or put face down, first time
    options: tuple[tuple[str, object], ...]  # those that change the deal, not the game's own

    def __repr__(self) -> str:
        return (f"<DealCheck {self.game} hand={self.hand} fingerprint={self.fingerprint} "
                f"ok={self.ok}>")

    @property
    def plays_ok(self) -> bool:
        return not self.strays

    @property
    def ok(self) -> bool:
        return self.fingerprint_ok and self.deal_ok and self.opener_ok and self.plays_ok

    def command(self, seat: int | None = None) -> str:
        """The command line that checks this hand with the project's code (docs/FAIRNESS.md,
        "The command"); with ``seat``, that seat's tiles too."""
        words = ["python -m engine.verify", f"--game {self.game}", f"--players {self.seats}",
                 f"--seed {self.seed}", f"--fingerprint {self.fingerprint}",
                 f"--hand {self.hand + 1}"]
        words += [f"--option {name}={value}" for name, value in self.options]
        if seat is not None and 0 <= seat < self.seats:
            tiles = " ".join(map(str, self.hands[seat]))
            words.append(f'--seat {seat} --tiles "{tiles}"')
        if self.played:
            words.append('--played "{}"'.format(
                " ".join(f"{seat}:{tile}" for seat, tile in self.played)))
        return " ".join(words)


def check_deal(match: Match, number: int) -> DealCheck:
    """The check of hand ``number`` (from 0) of ``match``. Raises :class:`HandNotOverError`
    for a hand not dealt or still being played (its seed is secret until it ends), and
    :class:`NoSeedError` for a hand dealt without a seed."""
    if not 0 <= number < len(match.hands) or not match.hands[number].over:
        raise HandNotOverError(f"hand {number} of this match is not finished")
    hand = match.hands[number]
    seed = hand.deal.seed
    if seed is None:
        raise NoSeedError("this hand was dealt without a seed")
    shown = fingerprint(seed)
    # The hash again, by hashlib itself: the fingerprint shown was the engine's.
    fingerprint_ok = hashlib.sha256(seed).hexdigest()[:FINGERPRINT_DIGITS] == shown
    again = replayed_before(match, number)
    made, opening = again.seeded_hand(seed)
    played_deal = hand.deal
    deal_ok = (made.hands == played_deal.hands and made.middle == played_deal.middle
               and made.stock == played_deal.stock and made.lot == played_deal.lot)
    # Each tile the first time it is played (Kolbasa's cut gives tiles laid to another seat,
    # who may lay them again: the deal says nothing of those)
    played: dict[Tile, int] = {}
    for move in hand.moves:
        if isinstance(move.action, Play | Cut | Discard):
            played.setdefault(move.action.tile, move.seat)
    return DealCheck(
        match.variant.name, number, match.seats, shown, seed.hex(), fingerprint_ok, deal_ok,
        opening.opener == hand.opener, made.hands, made.middle, made.stock,
        opening.opener, _strays(again, hand),
        tuple((seat, tile) for tile, seat in played.items()), _deal_options(match))


def _strays(again: Match, hand: Hand) -> tuple[tuple[int, Tile], ...]:
    """The tiles of ``hand`` played by a seat that did not hold them then (dealt, drawn from
    the stock or taken in a cut), its moves made again one by one on its deal in ``again``
    (the match as it stood before it); at the first move the rules refuse, that move's tile
    and nothing after it."""
    again.start_hand(replace(hand.deal, seed=None))  # the seed is checked on its own
    strays: list[tuple[int, Tile]] = []
    for move in hand.moves:
        action = move.action
        tile = action.tile if isinstance(action, Play | Cut | Discard) else None
        if tile is not None and tile not in again.hand.hands[move.seat]:
            strays.append((move.seat, tile))
        try:
            again.step(move.seat, action)
        except DominoError:
            if tile is not None and (move.seat, tile) not in strays:
                strays.append((move.seat, tile))
            break
    return tuple(strays)


def _deal_options(match: Match) -> tuple[tuple[str, object], ...]:
    """The options of ``match`` that change its deals and are not its game's own."""
    defaults = Match(match.variant, match.seats).options
    return tuple((name, match.options.get(name)) for name in DEAL_OPTIONS
                 if name in match.options.names
                 and match.options.get(name) != defaults.get(name))
