"""Small builders shared by the engine tests: deals, moves and matches from readable text.

Moves are written the way a person would note them: ``"1 6-1 right"``, ``"2 6-6"``,
``"3 knock"``, ``"0 dead 5-5"`` (seat first; a play's end may be left out).
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from engine import Action, Deal, Event, Match, Move, Play, Tile
from engine.record import LINE_WORDS, parse_move
from engine.tiles import parse_halves

FIXTURES = Path(__file__).parent / "conformance"


@cache
def example(name: str) -> dict[str, Any]:
    """One of the shared conformance examples (``conformance/NAME.json``)."""
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return data


def example_hands(name: str, hand: int = 0) -> tuple[str, ...]:
    """An example's deal, one ``"a-b c-d ..."`` text per seat."""
    return tuple(" ".join(seat) for seat in example(name)["hands"][hand]["deal"])


def example_middle(name: str, hand: int = 0) -> str:
    return " ".join(example(name)["hands"][hand].get("middle", []))


def example_moves(name: str, hand: int = 0) -> tuple[str, ...]:
    """An example's actions as move texts."""
    texts = []
    for act in example(name)["hands"][hand]["actions"]:
        if "knock" in act:
            texts.append(f"{act['seat']} knock")
        elif "dead" in act:
            texts.append(f"{act['seat']} dead {act['dead']}")
        else:
            texts.append(" ".join(str(w) for w in (act["seat"], act["play"], act.get("end", ""))))
    return tuple(t.strip() for t in texts)


# The deals of the shared examples, named by what they set up.
SIX_SIX_AT_0 = example_hands("pair_blocked_draw")  # pair examples: seat 0 holds 6-6
PAIR_OUT = example_hands("pair_out")  # seat 1 holds 6-6; seat 2 holds no 6
GAPLE_OUT = example_hands("gaple_out")  # seat 0 holds 6-6
MIDDLE_TIE = example_hands("gaple_dead_middle_tie")  # with the middle below, 2-6 turned up
MIDDLE = example_middle("gaple_dead_middle_tie")
DEAL_7 = example_hands("gaple_dead_deal7_doubles")  # deal 7: seat 1 holds 0-0

# Double-9 set: seat 2 holds 9-9, the highest double dealt, and nobody else holds a 9, so the
# hand blocks as soon as 9-9 is led. Seats 0 and 1 then hold 28 pips each, seat 3 holds 47.
NINE_NINE_TIED = (
    "0-1 0-2 0-3 0-4 0-5 0-6 0-7",
    "1-1 1-2 1-3 1-4 0-0 2-2 2-8",
    "9-9 8-8 7-7 6-6 5-5 4-4 3-3",
    "1-5 1-6 1-7 2-3 2-4 2-5 2-6",
)
# The same with 2-8 and 2-6 swapped: seat 1 alone holds the fewest (26), seat 3 holds 49.
NINE_NINE_WON = (
    "0-1 0-2 0-3 0-4 0-5 0-6 0-7",
    "1-1 1-2 1-3 1-4 0-0 2-2 2-6",
    "9-9 8-8 7-7 6-6 5-5 4-4 3-3",
    "1-5 1-6 1-7 2-3 2-4 2-5 2-8",
)


def tiles(text: str) -> tuple[Tile, ...]:
    """``"6-6 0-6 4-3"`` as tiles."""
    return tuple(Tile.parse(word) for word in text.split())


def deal(*hands: str, middle: str = "", lot: int = 0) -> Deal:
    """A deal with the middle's first tile turned up as written (its first half to the left)."""
    turned_left = parse_halves(middle.split()[0])[0] if middle else None
    return Deal(tuple(tiles(h) for h in hands), tiles(middle), lot, turned_left)


def move_dict(text: str) -> dict[str, object]:
    """One move in the scenario format."""
    words = text.split()
    seat, rest = int(words[0]), words[1:]
    if rest == ["knock"]:
        return {"seat": seat, "knock": True}
    if rest[0] == "dead":
        return {"seat": seat, "dead": rest[1]}
    data: dict[str, object] = {"seat": seat, "play": rest[0]}
    if len(rest) > 1:
        data["end"] = rest[1]
    return data


def move(text: str) -> Move:
    return parse_move(move_dict(text), 12, LINE_WORDS)


def action(text: str) -> Action:
    """The action part of a move, as the engine lists it among the legal actions: a play
    with an end keeps no ``left_half`` (that only says how a first tile lies)."""
    act = move(text).action
    if type(act) is Play and act.end is not None:
        return Play(act.tile, act.end)
    return act


def started(game: str, the_deal: Deal, **options: object) -> Match:
    """A match of ``game`` with its first hand dealt as given."""
    match = Match(game, the_deal.seats, options)
    match.start_hand(the_deal)
    return match


def play(match: Match, *moves: str) -> list[Event]:
    """Apply the moves in order; the events of the last one."""
    events: list[Event] = []
    for text in moves:
        seat, act = move(text)
        events = match.apply(seat, act)
    return events


def hand_dict(*hands: str, middle: str = "", first: int | None = None, moves: tuple[str, ...] = (),
              ) -> dict[str, object]:
    """One hand of a scenario."""
    data: dict[str, object] = {
        "deal": [h.split() for h in hands],
        "actions": [move_dict(m) for m in moves],
    }
    if middle:
        data["middle"] = middle.split()
    if first is not None:
        data["first"] = first
    return data


def scenario(game: str, *hands: dict[str, object], players: int = 4,
             options: dict[str, object] | None = None) -> dict[str, object]:
    data: dict[str, object] = {"variant": game, "players": players, "hands": list(hands)}
    if options is not None:
        data["options"] = options
    return data


def tiles_in(value: object) -> Iterator[Tile]:
    """Every tile held anywhere inside ``value``: dataclass fields, tuples, lists, dicts."""
    if isinstance(value, Tile):
        yield value
    elif isinstance(value, (str, int, float, bool, enum.Enum)) or value is None:
        return
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from tiles_in(getattr(value, field.name))
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            yield from tiles_in(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from tiles_in(key)
            yield from tiles_in(item)
    else:
        raise TypeError(f"cannot look inside {value!r}")  # a new kind of field: teach this


def snapshot(match: Match) -> tuple[Any, ...]:
    """Everything a match holds that play can change, for comparing two matches."""
    hand = match.hands[-1] if match.hands else None
    per_hand = None
    if hand is not None:
        per_hand = (
            hand.deal,
            hand.opener,
            hand.hands,
            hand.dead,
            hand.ends,
            hand.to_move,
            tuple(hand.moves),
            tuple(hand.line.placed),
            hand.result,
            hand.legal_actions(),
        )
    return (len(match.hands), per_hand, match.scores, match.over, match.winner, match.result)
