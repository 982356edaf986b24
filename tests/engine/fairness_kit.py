"""What the fairness tests share: every table a game is played at, seeds, and the rules of
docs/FAIRNESS.md written out from the page (which deals are skipped, who the lot chooses)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from engine import BadInputError, Match, Tile, full_set
from engine.deal import Deal
from engine.variants import VARIANTS
from tests.fairness_check import CheckedDeal, deals

Options = dict[str, object]


@dataclass(frozen=True)
class Table:
    """One game at one table size with the options that change the deal."""

    game: str
    seats: int
    options: tuple[tuple[str, object], ...]

    @property
    def given(self) -> Options:
        return dict(self.options)

    def __str__(self) -> str:
        extra = "".join(f",{k}={v}" for k, v in self.options)
        return f"{self.game}/{self.seats}{extra}"

    def match(self) -> Match:
        return Match(self.game, self.seats, self.given)

    def sizes(self) -> tuple[int, int, int]:
        """(tiles a hand, middle, stock), as the engine's game declares them."""
        match = self.match()
        return match.hand_size, match.middle_size, match.stock_size

    def checked(self, seed: bytes) -> Iterator[CheckedDeal]:
        """The deals of ``seed``'s stream for this table, by the independent checker."""
        hand, middle, stock = self.sizes()
        return deals(seed, self.match().options.set, self.seats, hand, middle, stock > 0)

    def dealt(self, seed: bytes, first_hand: bool) -> tuple[CheckedDeal, int]:
        """The checker's deal of a hand and its place in the stream (from 0), skipping as
        the page says."""
        for number, deal in enumerate(self.checked(seed)):
            if deal.double_in_hand or not skips(self, first_hand):
                return deal, number
        raise AssertionError("unreachable")


def tables() -> list[Table]:
    """Every game, table size, set and option that changes the deal or the skipping."""
    found: dict[tuple[str, int, object], Table] = {}
    for name, game in VARIANTS.items():
        specs = {spec.name: spec for spec in game.option_specs}
        for seats in game.seat_counts:
            for highest in specs["set"].choices:
                extras: list[Options] = [{}]
                for option in ("deal", "first_lead"):
                    if option in specs:
                        extras += [{option: c} for c in specs[option].choices[1:]]
                for extra in extras:
                    table = Table(name, seats, tuple(sorted({"set": highest, **extra}.items())))
                    try:
                        options = table.match().options
                    except BadInputError:
                        continue  # e.g. gaple-dead's deal=7 for five players
                    found.setdefault((name, seats, options), table)
    return list(found.values())


TABLES = tables()


def skips(table: Table, first_hand: bool) -> bool:
    """Whether a deal with no double in any hand is skipped (docs/FAIRNESS.md, "When a deal
    is skipped")."""
    given = table.given
    if table.game == "gaple":
        return first_hand
    if table.game == "pair":
        return first_hand and given.get("first_lead", "6-6") == "6-6"
    if table.game == "gaple-dead":
        return table.seats == 4 and given.get("deal", 6) == 7
    return table.game == "kolbasa"


def lot_leads(table: Table, first_hand: bool) -> bool:
    """Whether the seat drawn by lot leads (docs/FAIRNESS.md, "Who the lot chooses")."""
    given = table.given
    if table.game in ("matador", "six-matador"):
        return True
    if not first_hand:
        return False
    if table.game == "muggins":
        return True
    if table.game == "pair":
        return given.get("first_lead") == "lot"
    if table.game == "gaple-dead":
        return table.seats == 5 or given.get("deal", 6) == 6
    return False


def seeds(label: str, count: int) -> list[bytes]:
    """``count`` fixed seeds, different for each ``label``."""
    return [hashlib.sha256(f"{label}:{k}".encode()).digest() for k in range(count)]


@cache
def skipping_seed(table: Table) -> bytes | None:
    """A small seed (a number as 32 bytes) whose first deal for ``table`` has no double in
    any hand, if one is quickly found."""
    hand, _, _ = table.sizes()
    plain = len(full_set(table.match().options.set)) - table.match().options.set - 1
    if plain < table.seats * hand:
        return None  # every deal holds a double
    for k in range(6000):
        seed = k.to_bytes(32, "big")
        if not next(table.checked(seed)).double_in_hand:
            return seed
    return None


def as_pairs(deal: Deal) -> tuple[list[list[tuple[int, int]]], list[tuple[int, int]],
                                 list[tuple[int, int]]]:
    """An engine deal as the checker writes one: hands, middle, stock as (low, high)."""
    def pairs(tiles: tuple[Tile, ...]) -> list[tuple[int, int]]:
        return [(t.low, t.high) for t in tiles]

    return [pairs(h) for h in deal.hands], pairs(deal.middle), pairs(deal.stock)


def same(engine_deal: Deal, checked: CheckedDeal) -> bool:
    hands, middle, stock = as_pairs(engine_deal)
    return (hands, middle, stock, engine_deal.lot) == (
        checked.hands, checked.middle, checked.stock, checked.lot)


def play_out(match: Match, rng: random.Random) -> None:
    """Play the current hand to its end with random legal moves."""
    hand = match.hand
    while not hand.over:
        seat = match.to_move
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_actions()))


def seed_of(n: int) -> bytes:
    """A small seed: the number ``n`` as 32 bytes."""
    return n.to_bytes(32, "big")


def first_moves(match: Match) -> Match:
    """``match`` with its current hand played to its end, each seat making its first legal
    move."""
    while not match.hand.over:
        seat = match.to_move
        assert seat is not None
        match.apply(seat, match.legal_actions()[0])
    return match


def played_hand(game: str, seats: int, seed: int, options: Options | None = None,
                hands: int = 1) -> Match:
    """A match whose first ``hands`` hands were dealt from seeds (``seed`` and the numbers
    after it) and played to their end by :func:`first_moves`."""
    match = Match(game, seats, options, automate=True)
    for number in range(hands):
        match.deal_from_seed(seed_of(seed + number))
        first_moves(match)
    return match


def dealt_before_seeds(game: str, seats: int, seed: int) -> Match:
    """A match whose first hand was dealt as matches were before seeds (from a
    ``random.Random``) and played to its end by :func:`first_moves`."""
    match = Match(game, seats, automate=True)
    match.deal_hand(random.Random(seed))
    return first_moves(match)
