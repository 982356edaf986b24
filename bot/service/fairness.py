"""Checking a hand's deal: what "🔍 Check the deal" and /verify show a player.

Everything here is computed again from the stored match (its deals, their seeds and the
moves), never from what a caption said: the seed's SHA-256 against the fingerprint, the deal
the seed makes (by the engine's :meth:`engine.Match.deal_from_seed`, the same recipe as
docs/FAIRNESS.md) against the deal played, and every tile played against the hand of the seat
that played it, move by move. A hand still being played is refused (its seed is secret until
it ends), and so is a hand of a match stored before deals had seeds.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from engine import (
    FINGERPRINT_DIGITS,
    Cut,
    Discard,
    DominoError,
    Match,
    Play,
    Tile,
    fingerprint,
    player_view,
)

from ..errors import OutOfDateError, UserError
from ..i18n import N_
from ..models import Game, Status
from .memory import GameMemory

#: The options that change a deal (docs/FAIRNESS.md): the command line names those that differ
#: from the game's own.
DEAL_OPTIONS = ("set", "deal", "first_lead")
#: How many of a player's games /verify looks through for their hands.
RECENT_GAMES = 5
#: How many earlier hands /verify offers as buttons.
EARLIER_HANDS = 8

HAND_GOING_ON = N_("That hand is still being played: its seed stays secret until it ends.")
NO_SEED = N_("That hand was dealt before deals had seeds, so it has no seed to check.")
NOT_YOURS = N_("You can check the hands of games you played, or from the group where they "
               "were played.")


@dataclass(frozen=True, slots=True)
class DealCheck:
    """The check of one finished hand, as plain values for the presentation."""

    game: str  # the variant's name
    game_id: int
    hand: int  # counting from 0
    seats: int
    fingerprint: str
    seed: str  # 64 hex digits
    fingerprint_ok: bool  # SHA-256(seed) starts with the fingerprint
    deal_ok: bool  # the deal the seed makes is the deal played (hands, middle, stock, lot)
    opener_ok: bool  # and the same seat led it
    hands: tuple[tuple[Tile, ...], ...]  # as dealt, by seat
    middle: tuple[Tile, ...]  # face down; the first turned up (games with a middle)
    stock: tuple[Tile, ...]  # in draw order (games with a stock)
    opener: int  # the seat that led
    strays: tuple[tuple[int, Tile], ...]  # tiles played that were not in their seat's hand
    played: tuple[tuple[int, Tile], ...]  # each tile laid, cut with or put face down, first time
    options: tuple[tuple[str, object], ...]  # those that change the deal, not the game's own

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


def hand_check(match: Match, game_id: int, number: int) -> DealCheck:
    """The check of hand ``number`` (from 0) of ``match``; :class:`UserError` when it cannot
    be checked: not dealt, still being played, or dealt without a seed."""
    if not 0 <= number < len(match.hands):
        raise OutOfDateError()
    hand = match.hands[number]
    if not hand.over:
        raise UserError(HAND_GOING_ON)
    seed = hand.deal.seed
    if seed is None:
        raise UserError(NO_SEED)
    shown = fingerprint(seed)
    # The hash again, by hashlib itself: the fingerprint shown was the engine's.
    fingerprint_ok = hashlib.sha256(seed).hexdigest()[:FINGERPRINT_DIGITS] == shown
    again = _before(match, number)
    again.deal_from_seed(seed)
    made = again.hand.deal
    played_deal = hand.deal
    deal_ok = (made.hands == played_deal.hands and made.middle == played_deal.middle
               and made.stock == played_deal.stock and made.lot == played_deal.lot)
    opener_ok = again.hand.opener == hand.opener
    # Each tile the first time it is played (Kolbasa's cut gives tiles laid to another seat,
    # who may lay them again: the deal says nothing of those)
    played: dict[Tile, int] = {}
    for move in hand.moves:
        if isinstance(move.action, Play | Cut | Discard):
            played.setdefault(move.action.tile, move.seat)
    return DealCheck(
        match.variant.name, game_id, number, match.seats, shown, seed.hex(), fingerprint_ok,
        deal_ok, opener_ok, made.hands, made.middle, made.stock, again.hand.opener,
        _strays(match, number), tuple((seat, tile) for tile, seat in played.items()),
        _deal_options(match))


def _strays(match: Match, number: int) -> tuple[tuple[int, Tile], ...]:
    """The tiles of hand ``number`` played by a seat that did not hold them then (dealt,
    drawn from the stock or taken in a cut), its moves made again on its deal one by one;
    at the first move the rules refuse, that move's tile and nothing after it."""
    again = _before(match, number)
    hand = match.hands[number]
    again.start_hand(replace(hand.deal, seed=None))
    strays: list[tuple[int, Tile]] = []
    for move in hand.moves:
        action = move.action
        tile = action.tile if isinstance(action, Play | Cut | Discard) else None
        if tile is not None and tile not in player_view(again, move.seat).hand:
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


def _before(match: Match, number: int) -> Match:
    """A match of the same game and table with the hands before ``number`` played again."""
    again = Match(match.variant, match.seats, match.options.to_dict(match.variant.option_names))
    for earlier in match.hands[:number]:
        again.start_hand(replace(earlier.deal, seed=None))  # (each seed is checked on its own)
        for move in earlier.moves:
            again.step(move.seat, move.action)
    return again


def played_in(game: Game, user_id: int) -> bool:
    """Whether ``user_id`` sat at ``game``, now or before their seat changed hands."""
    return game.seat_of(user_id) is not None or any(
        change.left.user_id == user_id for change in game.seat_changes)


def check_for(game: Game, number: int, user_id: int, chat_id: int | None) -> DealCheck:
    """The check a user asked for, from a button in ``chat_id`` (None: the private chat):
    of a game they played, or from the group where it was played (the group saw the seed)."""
    if not played_in(game, user_id) and chat_id != game.chat_id:
        raise UserError(NOT_YOURS)
    if game.match is None:
        raise OutOfDateError()
    return hand_check(game.match, game.game_id, number)


async def checkable_hands(memory: GameMemory, user_id: int, limit: int = EARLIER_HANDS + 1
                          ) -> list[tuple[Game, int]]:
    """The finished hands of the user's recent games (at most ``limit``), newest first: what
    /verify shows (the first) and offers (the rest). A hand dealt before deals had seeds is
    among them: its check says so."""
    found: list[tuple[Game, int]] = []
    for game_id in await memory.storage.recent_games_of(user_id, RECENT_GAMES):
        game = await memory.find(game_id)
        if game is None or game.match is None or game.status is Status.LOBBY:
            continue
        hands = game.match.hands
        found += [(game, n) for n in reversed(range(len(hands))) if hands[n].over]
        if len(found) >= limit:
            break
    return found[:limit]
