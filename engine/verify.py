"""Check a hand's deal from its seed: ``python -m engine.verify`` (docs/FAIRNESS.md).

    python -m engine.verify --game pair --players 4 --seed HEX [--fingerprint HEX]
        [--option set=9] [--hand 2] [--seat 2 --tiles "6-6 5-4"] [--played "0:6-6 1:6-5"]

It prints the fingerprint's check, the deal the seed makes (every seat's tiles, the middle or
the stock in order, the seat drawn by lot, the deals skipped) and a check of each tile given;
the exit status is 0 when every check passes, 1 when one fails, 2 (with one line saying why)
when the command line is wrong. The deal is the engine's own (:meth:`Match.seeded_deals`, the
deals the bot plays); nothing here reads a clock or draws a random number.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn, TextIO

from .deal import Deal
from .errors import BadInputError
from .fairness import FINGERPRINT_DIGITS, fingerprint, parse_seed
from .match import Match, first_playable, lot_decides
from .seams import PreviousHand
from .tiles import Tile

# Who opened or won the hand before decides who leads a later hand, never whether a deal can
# be opened at all: any earlier hand stands for all of them.
_LATER = PreviousHand(0, 0, 0)
_PASS, _FAIL = "✓", "✗"


@dataclass(frozen=True, slots=True)
class SeededHand:
    """The deal of a hand made from a seed, and the deals of its stream skipped before it."""

    deal: Deal
    skipped: tuple[Deal, ...]
    lot_used: bool  # whether the seat drawn by lot decides who leads this hand


def seeded_hand(match: Match, seed: bytes, first_hand: bool = True) -> SeededHand:
    """The deal ``seed`` makes for a hand of ``match``'s game and table: the match's first
    hand, or (``first_hand=False``) any later one."""
    previous = None if first_hand else _LATER
    made: list[Deal] = []
    deals = match.seeded_deals(seed)

    def recorded() -> Deal:
        made.append(deals())
        return made[-1]

    deal, _ = first_playable(match.variant, match.options, recorded, previous)
    return SeededHand(deal.settled(), tuple(made[:-1]),
                      lot_decides(match.variant, match.options, deal, previous))


@dataclass(frozen=True, slots=True)
class Check:
    passed: bool
    text: str

    def __str__(self) -> str:
        return f"{_PASS if self.passed else _FAIL} {self.text}"


def check_tiles(deal: Deal, seat: int, tiles: Sequence[Tile]) -> list[Check]:
    """Whether each of ``tiles`` was dealt to ``seat``."""
    checks = []
    for tile in tiles:
        if tile in deal.hands[seat]:
            checks.append(Check(True, f"seat {seat} was dealt {tile}"))
        else:
            checks.append(Check(False, f"seat {seat} was not dealt {tile} ({_where(deal, tile)})"))
    return checks


def check_played(deal: Deal, played: Sequence[tuple[int, Tile]]) -> list[Check]:
    """Whether each tile laid or discarded by a seat was dealt to it or lay in the stock
    (which a seat draws from), and laid only once."""
    checks = []
    seen: set[Tile] = set()
    for seat, tile in played:
        what = f"seat {seat} played {tile}"
        if tile in seen:
            checks.append(Check(False, f"{what}: it was played before"))
        elif tile in deal.hands[seat]:
            checks.append(Check(True, f"{what}: dealt to seat {seat}"))
        elif tile in deal.stock:
            checks.append(Check(True, f"{what}: from the stock"))
        else:
            checks.append(Check(False, f"{what}: {_where(deal, tile)}"))
        seen.add(tile)
    return checks


def check_fingerprint(seed: bytes, shown: str) -> Check:
    made = fingerprint(seed)
    if made == shown:
        return Check(True, f"fingerprint {shown} is the seed's")
    return Check(False, f"fingerprint {shown} is not the seed's, which is {made}")


def _where(deal: Deal, tile: Tile) -> str:
    for seat, hand in enumerate(deal.hands):
        if tile in hand:
            return f"dealt to seat {seat}"
    if deal.middle and tile is deal.middle[0]:
        return "turned up from the middle"
    if tile in deal.middle:
        return "face down in the middle"
    if tile in deal.stock:
        return "in the stock"
    return "out of play"


def _line(tiles: Sequence[Tile]) -> str:
    return " ".join(map(str, tiles)) or "-"


def describe(match: Match, hand: SeededHand) -> list[str]:
    """The deal as the command prints it."""
    deal = hand.deal
    lines = []
    for number, skipped in enumerate(hand.skipped, 1):
        lines.append(f"deal {number} of the stream skipped: nobody can open it")
        lines.extend(f"  seat {seat}: {_line(tiles)}" for seat, tiles in enumerate(skipped.hands))
    lines.append(f"deal {len(hand.skipped) + 1} of the stream is the hand's:")
    lines.extend(f"  seat {seat}: {_line(tiles)}" for seat, tiles in enumerate(deal.hands))
    if deal.middle:
        turned = deal.middle[0]
        assert deal.turned_left is not None
        lines.append(f"  middle: {_line(deal.middle)} (turned up: {deal.turned_left}-"
                     f"{turned.other_half(deal.turned_left)}, {deal.turned_left} to the left)")
    if match.stock_size:
        lines.append(f"  stock, in draw order: {_line(deal.stock)}")
    used = "it leads" if hand.lot_used else "not used in this hand"
    lines.append(f"  drawn by lot: seat {deal.lot} ({used})")
    return lines


# --- the command line --------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise BadInputError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m engine.verify",
        description="Check a hand's deal from its seed (docs/FAIRNESS.md).",
    )
    parser.add_argument("--game", required=True, help="gaple, pair, kolbasa, ...")
    parser.add_argument("--players", required=True, type=int, help="the number of seats")
    parser.add_argument("--seed", required=True, help="the 64 hex digits shown after the hand")
    parser.add_argument("--fingerprint", help="the 16 hex digits shown before the hand")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option, e.g. set=9 or deal=7 (repeat for several)")
    parser.add_argument("--hand", type=int, default=1,
                        help="which hand of the match, from 1 (default 1)")
    parser.add_argument("--seat", type=int, help="the seat (from 0) whose --tiles are given")
    parser.add_argument("--tiles", help='tiles dealt to --seat, e.g. "6-6 5-4"')
    parser.add_argument("--played", help='tiles played, each with its seat: "0:6-6 1:6-5"')
    return parser


def _options(match_game: str, players: int, given: Sequence[str]) -> Match:
    match = Match(match_game, players)
    values: dict[str, object] = {}
    for item in given:
        name, sep, text = item.partition("=")
        spec = match.variant.option_spec(name.strip())
        if not sep:
            raise BadInputError(f"an option is written NAME=VALUE, not {item!r}")
        if spec is None:
            known = ", ".join(match.variant.option_names)
            raise BadInputError(f"{match.variant.name} has no option {name!r} (it has {known})")
        values[spec.name] = spec.parse(text)
    return Match(match.variant, players, values)


def _tiles(text: str, highest: int) -> list[Tile]:
    tiles = [Tile.parse(word) for word in text.replace(",", " ").split()]
    for tile in tiles:
        if tile.high > highest:
            raise BadInputError(f"{tile} is not in the double-{highest} set")
    return tiles


def _seat(text: str, seats: int) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) >= seats:
        raise BadInputError(f"a seat is 0 to {seats - 1}, not {text!r}")
    return int(text)


def _played(text: str, match: Match) -> list[tuple[int, Tile]]:
    played = []
    for item in text.replace(",", " ").split():
        seat, sep, tile = item.partition(":")
        if not sep:
            raise BadInputError(f"a tile played is written SEAT:a-b, not {item!r}")
        played.append((_seat(seat, match.seats), _tiles(tile, match.options.set)[0]))
    return played


def run(argv: Sequence[str], out: TextIO) -> int:
    """The command, printing to ``out``; its exit status. Raises :class:`BadInputError`
    for a wrong command line."""
    args = _parser().parse_args(list(argv))
    match = _options(args.game, args.players, args.option)
    seed = parse_seed(args.seed.strip().lower())
    if args.hand < 1:
        raise BadInputError("--hand counts from 1")
    if (args.seat is None) != (args.tiles is None):
        raise BadInputError("--seat and --tiles go together")
    checks: list[Check] = []
    if args.fingerprint is not None:
        shown = args.fingerprint.strip().lower()
        if len(shown) != FINGERPRINT_DIGITS or any(c not in "0123456789abcdef" for c in shown):
            raise BadInputError(f"a fingerprint is {FINGERPRINT_DIGITS} hex digits")
        checks.append(check_fingerprint(seed, shown))
    hand = seeded_hand(match, seed, args.hand == 1)
    if args.tiles is not None:
        checks.extend(check_tiles(hand.deal, _seat(str(args.seat), match.seats),
                                  _tiles(args.tiles, match.options.set)))
    if args.played is not None:
        checks.extend(check_played(hand.deal, _played(args.played, match)))
    options = " ".join(f"{k}={v}" for k, v in match.options.to_dict().items())
    which = "the match's first hand" if args.hand == 1 else f"hand {args.hand} of the match"
    print(f"{match.variant.name}, {match.seats} players, {options}; {which}", file=out)
    print(f"seed {seed.hex()}, fingerprint {fingerprint(seed)}", file=out)
    for line in describe(match, hand):
        print(line, file=out)
    for check in checks:
        print(check, file=out)
    failed = sum(not check.passed for check in checks)
    if failed:
        print(f"{failed} of {len(checks)} checks failed", file=out)
    elif checks:
        print("every check passed", file=out)
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    if isinstance(sys.stdout, io.TextIOWrapper):  # a console that cannot show ✓ gets \u2713
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        return run(sys.argv[1:] if argv is None else argv, sys.stdout)
    except BadInputError as exc:
        print(f"engine.verify: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
