"""A match as JSON: the conformance scenario format plus a format version and a digest.

Because the stored form *is* a scenario, any saved game can be fed to the conformance runner,
and loading a game is the same replay that answers scenarios: one parser, one set of checks.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actions import DRAW, KNOCK, Cut, Discard, Draw, Knock, Move, Play
from .deal import Deal
from .errors import BadInputError, CorruptMatchError, DominoError, shown
from .fairness import parse_seed
from .hand import Hand
from .match import Match, plays_on_line
from .tiles import End, Tile, parse_halves
from .variants import variant

FORMAT = "dominoes-match"
VERSION = 1


@dataclass(frozen=True, slots=True)
class ReplayError:
    """Where a replay stopped: hand and action indices (``None``: the scenario or the deal)."""

    hand: int | None
    action: int | None
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Replay:
    match: Match | None  # None when the scenario named no valid game, table or options
    error: ReplayError | None
    sides: tuple[tuple[int, ...], ...] = ()


# --- values ------------------------------------------------------------------------------
def _tile(text: object, highest: int) -> Tile:
    tile = Tile(*parse_halves(text))
    if tile.high > highest:
        raise BadInputError(f"{tile} is not in the double-{highest} set")
    return tile


def _tiles(value: object, highest: int, what: str) -> tuple[Tile, ...]:
    if not isinstance(value, list):
        raise BadInputError(f"{what} must be a list of tiles")
    return tuple(_tile(t, highest) for t in value)


def _seat(value: object) -> int:
    if type(value) is not int:
        raise BadInputError(f"a seat is a whole number, not {shown(value)}")
    return value


def parse_deal(data: object, highest: int, has_stock: bool = False, seeded: bool = True) -> Deal:
    """A hand's ``deal``, ``middle`` and ``first`` as a :class:`Deal`; in a game that
    ``has_stock``, its ``stock`` instead of a middle, and then ``first`` has no default.
    ``seeded``: the hand's ``seed`` too (a stored match's; no key of a scenario)."""
    if not isinstance(data, Mapping):
        raise BadInputError("a hand must be an object")
    hands = data.get("deal")
    if not isinstance(hands, list):
        raise BadInputError("a hand needs its deal: one list of tiles per seat")
    dealt = tuple(_tiles(h, highest, "a seat's deal") for h in hands)
    middle_raw = data.get("middle") or []
    if has_stock and middle_raw:
        raise BadInputError("this game has no middle tiles: the tiles not dealt are the stock")
    middle = _tiles(middle_raw, highest, "the middle")
    turned_left = parse_halves(middle_raw[0])[0] if middle else None
    stock_raw = data.get("stock") if has_stock else None
    stock = () if stock_raw is None else _tiles(stock_raw, highest, "the stock")
    # ``first`` is ignored where the rules choose nobody by lot; where they do, the opening
    # refuses a seat that is not at the table (-1 stands for "not a seat").
    first = data.get("first", None if has_stock else 0)
    lot = first if type(first) is int else -1
    seed = data.get("seed") if seeded else None
    return Deal(dealt, middle, lot, turned_left, stock, None if seed is None else parse_seed(seed))


@dataclass(frozen=True, slots=True)
class MoveWords:
    """What a scenario may write for an action: a game played on the board knows more words
    (a draw, Kolbasa's cut, the spinner's ends, ``cross``) and reads ``null`` as absent."""

    kinds: tuple[str, ...]  # the keys that name an action, one of them in each
    ends: tuple[End, ...]  # the ends a play may name
    cross: bool  # a play may say whether it lies crosswise
    null_is_absent: bool


LINE_WORDS = MoveWords(("play", "knock", "dead"), (End.LEFT, End.RIGHT), False, False)
BOARD_WORDS = MoveWords(("play", "knock", "draw", "cut", "dead"), tuple(End), True, True)
GIVE_NAMES = {"left": End.LEFT, "right": End.RIGHT}


def words_for(match: Match) -> MoveWords:
    """The words ``match``'s scenarios are written in: those of the layout its game is played
    on (every word :func:`move_to_dict` may write for it). Stored matches and the conformance
    cases were written so, and must read exactly as they did."""
    game = match.variant
    return LINE_WORDS if plays_on_line(game, match.options, match.seats) else BOARD_WORDS


def _or(words: Sequence[str]) -> str:
    return f"{', '.join(words[:-1])} or {words[-1]}"


def _check_cross_and_give(data: Mapping[str, object]) -> None:
    """A ``cross`` or ``give`` of the wrong type is bad input in every game and on every
    action (docs/conformance.md), also where the word means nothing (the plain line's games
    lay every tile along and have no cut); ``null`` is absent."""
    cross = data.get("cross")
    if cross is not None and type(cross) is not bool:
        raise BadInputError(f"cross is true or false, not {shown(cross)}")
    give = data.get("give")
    if give is not None and (not isinstance(give, str) or give not in GIVE_NAMES):
        raise BadInputError(f'a cut gives "left" or "right", not {shown(give)}')


def parse_move(data: object, highest: int, words: MoveWords = BOARD_WORDS) -> Move:
    """One scenario action, as ``words`` allow it. Raises :class:`BadInputError` when it is
    malformed."""
    if not isinstance(data, Mapping):
        raise BadInputError("an action must be an object")
    if words.null_is_absent:
        data = {k: v for k, v in data.items() if v is not None}
    seat = _seat(data.get("seat"))
    kinds = [k for k in words.kinds if k in data]
    if len(kinds) != 1:
        raise BadInputError(f"an action has exactly one of {_or(words.kinds)}")
    kind = kinds[0]
    _check_cross_and_give(data)
    if kind in ("knock", "draw"):
        if data[kind] is not True:
            raise BadInputError(f'a {kind} is written "{kind}": true')
        return Move(seat, KNOCK if kind == "knock" else DRAW)
    if kind == "dead":
        return Move(seat, Discard(_tile(data["dead"], highest)))
    if kind == "cut":
        give = data.get("give")
        if give is None:
            raise BadInputError('a cut names the ribbon it gives: "give": "left" or "right"')
        return Move(seat, Cut(_tile(data["cut"], highest), GIVE_NAMES[give]))
    left_half, _ = parse_halves(data["play"])
    tile = _tile(data["play"], highest)
    end_text = data.get("end")
    ends = {end.value: end for end in words.ends}
    if end_text is not None and (not isinstance(end_text, str) or end_text not in ends):
        raise BadInputError(f"an end is {_or(list(ends))}, not {shown(end_text)}")
    cross = data.get("cross") if words.cross else None
    end = None if end_text is None else ends[end_text]
    return Move(seat, Play(tile, end, left_half, cross))


def move_to_dict(move: Move, lead: tuple[int, int] | None = None) -> dict[str, object]:
    """``lead``: how a first tile lay (left half first), so replay lays it the same way."""
    action = move.action
    if type(action) is Play:
        if lead is not None:
            return {"seat": move.seat, "play": f"{lead[0]}-{lead[1]}"}
        assert action.end is not None
        entry: dict[str, object] = {
            "seat": move.seat, "play": str(action.tile), "end": action.end.value
        }
        if action.cross is not None:
            entry["cross"] = action.cross
        return entry
    if type(action) is Discard:
        return {"seat": move.seat, "dead": str(action.tile)}
    if type(action) is Draw:
        return {"seat": move.seat, "draw": True}
    if type(action) is Cut:
        return {"seat": move.seat, "cut": str(action.tile), "give": action.give.value}
    assert type(action) is Knock
    return {"seat": move.seat, "knock": True}


# --- replay ------------------------------------------------------------------------------
def replay(data: object, seeds: bool = True) -> Replay:
    """Replay a scenario (or stored match) as far as it is valid. Never raises. ``seeds``:
    check each hand's deal against its ``seed`` (a stored match's); without, a ``seed`` is
    one more key the scenario format does not name, and is ignored as they are."""
    if not isinstance(data, Mapping):
        return Replay(None, ReplayError(None, None, "bad_input", "a scenario is a JSON object"))
    try:
        game = variant(data.get("variant"))
    except BadInputError as exc:
        return Replay(None, ReplayError(None, None, exc.code, str(exc)))
    players = data.get("players")
    sides = game.sides(players) if type(players) is int and 0 < players <= 16 else ()
    options = data.get("options")
    try:
        match = Match(game, players, {} if options is None else options)  # type: ignore[arg-type]
    except BadInputError as exc:
        return Replay(None, ReplayError(None, None, exc.code, str(exc)), sides)
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        return Replay(match, ReplayError(None, None, "bad_input", "hands must be a list"), sides)
    highest = match.options.set
    words = words_for(match)
    for h, hand_data in enumerate(hands):
        try:
            if not match.can_deal():
                raise BadInputError("this hand comes after an unfinished hand or the match end")
            deal = parse_deal(hand_data, highest, game.has_stock, seeds)
            actions = hand_data.get("actions", [])  # a Mapping: parse_deal checked it
            if not isinstance(actions, list):  # refused before the hand starts, as its deal
                raise BadInputError("actions must be a list")
            match.start_hand(deal)
        except BadInputError as exc:
            return Replay(match, ReplayError(h, None, exc.code, str(exc)), sides)
        for a, action_data in enumerate(actions):
            try:
                move = parse_move(action_data, highest, words)
                match.step(move.seat, move.action)  # a seat not at the table: not_your_turn
            except DominoError as exc:
                return Replay(match, ReplayError(h, a, exc.code, str(exc)), sides)
    return Replay(match, None, sides)


# --- stored matches ----------------------------------------------------------------------
_COMPACT = (",", ":")


def _hand_entry(hand: Hand, seeds: bool) -> dict[str, object]:
    """One hand of a stored match: its deal and its actions."""
    deal = hand.deal
    moves: list[dict[str, object]] = []
    line_started = bool(deal.middle)
    for move in hand.moves:
        action = move.action
        if not line_started and type(action) is Play:
            left = action.left_half if action.left_half is not None else action.tile.low
            moves.append(move_to_dict(move, (left, action.tile.other_half(left))))
            line_started = True
        else:
            moves.append(move_to_dict(move))
    entry: dict[str, object] = {
        "deal": [[str(t) for t in h] for h in deal.hands],
        "first": deal.lot,
        "actions": moves,
    }
    if deal.stock:
        entry["stock"] = [str(t) for t in deal.stock]
    if deal.seed is not None and seeds:
        entry["seed"] = deal.seed.hex()
    if deal.middle:
        turned = deal.middle[0]
        left = deal.turned_left if deal.turned_left is not None else turned.low
        entry["middle"] = [f"{left}-{turned.other_half(left)}"] + [
            str(t) for t in deal.middle[1:]
        ]
    return entry


def _head(match: Match) -> dict[str, Any]:
    """A stored match's fields but its hands and digest, in their order."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "variant": match.variant.name,
        "players": match.seats,
        "options": match.options.to_dict(match.variant.option_names),
    }


def match_to_dict(match: Match, seeds: bool = True) -> dict[str, Any]:
    """The match as a scenario with ``format``, ``version`` and ``digest``; without
    ``seeds``, the seeds the deals were made from are left out (a computer player's copy)."""
    body = _head(match)
    body["hands"] = [_hand_entry(hand, seeds) for hand in match.hands]
    body["digest"] = _digest(body)
    return body


def _digest(body: Mapping[str, Any]) -> str:
    canonical = json.dumps(
        {k: v for k, v in body.items() if k != "digest"}, sort_keys=True, separators=_COMPACT
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


class KeptHands:
    """The JSON of a match's finished hands, kept from one write of the match to the next:
    a finished hand never changes, so a move's write (:func:`match_to_json` with ``kept``)
    turns into JSON only the hand being played. Entries are known by the very hand object
    they were made from, so a match loaded again, or another match, is written afresh."""

    __slots__ = ("_hands",)

    def __init__(self) -> None:
        # per hand number: (the hand, seeds or not, its JSON as stored, its canonical JSON)
        self._hands: list[tuple[Hand, bool, str, str]] = []

    def texts(self, number: int, hand: Hand, seeds: bool) -> tuple[str, str]:
        """The hand's JSON as stored and in canonical form (sorted keys, for the digest)."""
        if number < len(self._hands):
            kept, kept_seeds, stored, canonical = self._hands[number]
            if kept is hand and kept_seeds == seeds:
                return stored, canonical
            del self._hands[number:]
        entry = _hand_entry(hand, seeds)
        texts = (json.dumps(entry, separators=_COMPACT),
                 json.dumps(entry, sort_keys=True, separators=_COMPACT))
        if hand.over and number == len(self._hands):
            self._hands.append((hand, seeds, *texts))
        return texts


def _object(fields: Sequence[tuple[str, str]]) -> str:
    """A JSON object from its keys and its values' JSON, in that order."""
    return "{" + ",".join(f"{json.dumps(key)}:{value}" for key, value in fields) + "}"


def match_to_json(match: Match, seeds: bool = True, kept: KeptHands | None = None) -> str:
    """:func:`match_to_dict` as compact JSON; with ``kept``, the same text, made from the
    JSON of the finished hands ``kept`` has from earlier writes of this match."""
    if kept is None:
        return json.dumps(match_to_dict(match, seeds), separators=_COMPACT)
    head = _head(match)
    texts = [kept.texts(number, hand, seeds) for number, hand in enumerate(match.hands)]
    hands = "[" + ",".join(stored for stored, _ in texts) + "]"
    canonical = _object(sorted(
        [(key, json.dumps(value, sort_keys=True, separators=_COMPACT))
         for key, value in head.items()]
        + [("hands", "[" + ",".join(canonical for _, canonical in texts) + "]")]))
    digest = hashlib.sha256(canonical.encode()).hexdigest()
    return _object([(key, json.dumps(value, separators=_COMPACT)) for key, value in head.items()]
                   + [("hands", hands), ("digest", json.dumps(digest))])


def match_from_json(text: str | bytes) -> Match:
    """Rebuild a stored match exactly. Raises :class:`CorruptMatchError` if anything is off."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise CorruptMatchError(f"stored match is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CorruptMatchError("not a stored match")
    version = data.get("version")
    if type(version) is not int or version != VERSION:
        raise CorruptMatchError(f"unknown stored match version {shown(version)}")
    if data.get("digest") != _digest(data):
        raise CorruptMatchError("stored match was changed after it was saved (digest mismatch)")
    result = replay(data)
    if result.error is not None or result.match is None:
        err = result.error
        where = "" if err is None else f" (hand {err.hand}, action {err.action})"
        message = "" if err is None else err.message
        raise CorruptMatchError(f"stored match does not replay{where}: {message}")
    return result.match
