"""Properties over thousands of seeded random matches of every game and option combination.

Each hypothesis example draws a seed and plays several whole matches from it, checking every
step against a small independent statement of the rules (an oracle): where every tile is,
that the seat to move can always act and exactly the listed actions are accepted, openers,
hand ends, totals, points, scores and match ends; that views hold no hidden tile; that a
stored match comes back identical; and that ``apply`` and ``step`` agree.

Set ``ENGINE_PROPERTY_SCALE=10`` (say) to play ten times as many matches locally.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from engine_kit import snapshot, tiles_in
from hypothesis import given
from property_kit import PROFILE, SEEDS

from engine import (
    KNOCK,
    Action,
    Discard,
    End,
    Event,
    HandEnded,
    HandEndReason,
    Match,
    MatchEnded,
    Play,
    Tile,
    TilePlayed,
    full_set,
    match_from_json,
    match_to_json,
    player_view,
    table_view,
)
from engine.hand_line import LineHand as Hand

MATCHES_PER_EXAMPLE = 12  # 51 configurations x 3 examples x 12: about 1,800 checked matches
BLANK_DOUBLE = Tile(0, 0)


@dataclass(frozen=True)
class Config:
    game: str
    seats: int
    options: dict[str, Any]

    def __str__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.game}/{self.seats}/{opts}"


def every_configuration() -> Iterator[Config]:
    """Every game with every combination of its options (the target is drawn per match)."""
    for highest in (6, 9, 12):
        yield Config("gaple", 4, {"set": highest})
        for first_lead in ("6-6", "lot"):
            for block_count in ("opponents", "all"):
                yield Config("pair", 4, {"set": highest, "first_lead": first_lead,
                                         "block_count": block_count})
        for seats, deals in ((4, (6, 7)), (5, (5,))):
            for deal in deals:
                for dead_tiles in (True, False):
                    for blank in (True, False):
                        yield Config("gaple-dead", seats, {
                            "set": highest, "deal": deal, "dead_tiles": dead_tiles,
                            "blank_double_25": blank,
                        })


CONFIGS = list(every_configuration())
TARGETS = (None, 1, 25, 60)  # None: the game's default


def new_match(config: Config, rng: random.Random) -> Match:
    options = dict(config.options)
    target = rng.choice(TARGETS)
    if target is not None:
        options["target"] = target
    return Match(config.game, config.seats, options)


def variation(match: Match, chosen: Action, rng: random.Random) -> Action:
    """The same move as a person might send it: end left out where it may be, a first tile
    laid the other way round."""
    if type(chosen) is not Play or rng.random() < 0.5:
        return chosen
    hand = match.hand
    if hand.ends is None:
        return Play(chosen.tile, None, rng.choice((chosen.tile.low, chosen.tile.high)))
    bare = Play(chosen.tile)
    if match.can(hand.to_move, bare) and match.check(hand.to_move, bare) == chosen:  # type: ignore[arg-type]
        return bare
    return chosen


# --- the oracle -----------------------------------------------------------------------
def where_every_tile_is(hand: Hand, highest: int) -> list[Tile]:
    """Hands, line, dead tiles, face-down middle and out of play, all together."""
    places: list[Tile] = []
    for held in hand.hands:
        places.extend(held)
    places.extend(p.tile for p in hand.line.placed)
    for gone in hand.dead:
        places.extend(gone)
    middle = hand.deal.middle
    places.extend(middle[1:])  # the first is turned up into the line
    in_deal = {t for h in hand.deal.hands for t in h} | set(middle)
    places.extend(t for t in full_set(highest) if t not in in_deal)
    return places


def oracle_totals(match: Match, hand: Hand) -> tuple[int, ...]:
    totals = []
    for seat in range(match.seats):
        counted = list(hand.hands[seat])
        if match.variant.name == "gaple-dead":
            counted += hand.dead[seat]
        total = sum(t.low + t.high for t in counted)
        if (
            match.variant.name == "gaple-dead"
            and match.options.blank_double_25
            and BLANK_DOUBLE in counted
            and not any(0 in (t.low, t.high) for t in counted if t != BLANK_DOUBLE)
        ):
            total += 25
        totals.append(total)
    return tuple(totals)


def oracle_hand_result(match: Match, hand: Hand) -> tuple[int | None, tuple[int, ...]]:
    """(winning side, points per side) as RULES.md states them."""
    result = hand.result
    assert result is not None
    totals = oracle_totals(match, hand)
    game = match.variant.name
    if game == "gaple-dead":
        def rank(seat: int) -> tuple[int, int, int, int]:
            counted = hand.hands[seat] + hand.dead[seat]
            if not counted:
                return (totals[seat], 0, 0, 0)
            lowest = min(t.low + t.high for t in counted)
            low_half = min(t.low for t in counted if t.low + t.high == lowest)
            return (totals[seat], 1, lowest, low_half)

        ranks = sorted(range(match.seats), key=rank)
        assert rank(ranks[0]) != rank(ranks[1])  # the tie-breaks always decide
        return ranks[0], totals
    if game == "gaple":
        if result.reason is HandEndReason.OUT:
            winner: int | None = result.out_seat
        else:
            fewest = min(totals)
            holders = [s for s in range(4) if totals[s] == fewest]
            winner = holders[0] if len(holders) == 1 else None
        points = [0] * 4
        if winner is not None:
            points[winner] = sum(totals) - totals[winner]
        return winner, tuple(points)
    pips = (totals[0] + totals[2], totals[1] + totals[3])
    if result.reason is HandEndReason.OUT:
        assert result.out_seat is not None
        winner = result.out_seat % 2
    else:
        winner = None if pips[0] == pips[1] else (0 if pips[0] < pips[1] else 1)
    points = [0, 0]
    if winner is not None:
        all_four = result.reason is HandEndReason.BLOCKED and match.options.block_count == "all"
        points[winner] = sum(pips) if all_four else pips[1 - winner]
    return winner, tuple(points)


def oracle_match_result(match: Match, scores: tuple[int, ...]) -> tuple[bool, int | None]:
    target = match.options.target
    if match.variant.name == "gaple-dead":
        if max(scores) < target:
            return False, None
        lowest = [side for side, score in enumerate(scores) if score == min(scores)]
        return True, (lowest[0] if len(lowest) == 1 else None)
    reached = [side for side, score in enumerate(scores) if score >= target]
    assert len(reached) <= 1  # only one side scores in a hand
    return (True, reached[0]) if reached else (False, None)


def oracle_opening(match: Match) -> tuple[int, set[Tile] | None]:
    """Who opens the current hand and what they may lead (``None``: any tile, or no lead)."""
    hand = match.hand
    game, the_deal = match.variant.name, hand.deal
    previous = match.hands[-2] if len(match.hands) > 1 else None
    prev_result = previous.result if previous is not None else None
    held = [set(h) for h in the_deal.hands]
    dealt_doubles = [t for h in held for t in h if t.is_double]

    def holder(tile: Tile) -> int:
        return next(s for s in range(match.seats) if tile in held[s])

    if game == "gaple-dead":
        if the_deal.middle:
            if prev_result is None:
                return the_deal.lot, None
            assert prev_result.winner is not None
            return prev_result.winner, None
        if prev_result is None:
            lowest = min(dealt_doubles, key=lambda t: t.low)
            return holder(lowest), {lowest}
        assert prev_result.winner is not None
        for step in range(match.seats):
            seat = (prev_result.winner + step) % match.seats
            doubles = {t for t in held[seat] if t.is_double}
            if doubles:
                return seat, doubles
        raise AssertionError("a later hand that nobody can lead was dealt")
    if prev_result is None:
        if game == "pair" and match.options.first_lead == "lot":
            return the_deal.lot, None
        highest = max(dealt_doubles, key=lambda t: t.low)
        return holder(highest), {highest}
    assert previous is not None
    if game == "pair":
        return (previous.opener + 1) % 4, None
    if prev_result.winner is None:
        return previous.opener, None
    return prev_result.winner, None


def candidate_actions(hand: Hand, seat: int) -> Iterator[Action]:
    """Every action the seat might try with its own tiles."""
    yield KNOCK
    for tile in hand.hands[seat]:
        yield Discard(tile)
        yield Play(tile, End.LEFT)
        yield Play(tile, End.RIGHT)
        yield Play(tile)


# --- the checks -----------------------------------------------------------------------
def check_position(match: Match) -> None:
    hand = match.hand
    assert sorted(where_every_tile_is(hand, match.options.set)) == sorted(
        full_set(match.options.set)
    ), "a tile is missing or in two places"
    if hand.over:
        assert hand.to_move is None and match.legal_actions() == ()
        return
    seat = hand.to_move
    assert seat is not None
    legal = match.legal_actions()
    assert legal, "the seat to move has nothing to do"
    assert len(set(legal)) == len(legal)
    for act in legal:
        assert match.check(seat, act) == act
        assert not match.can((seat + 1) % match.seats, act)
    # The listed actions are exactly the ones accepted (a bare play is a listed one resolved).
    listed = set(legal)
    for act in candidate_actions(hand, seat):
        accepted = match.can(seat, act)
        if type(act) is Play and hand.ends is None:  # a lead: any end named is ignored
            assert accepted == (Play(act.tile) in listed), act
        elif type(act) is Play and act.end is None:
            assert not accepted or match.check(seat, act) in listed
        elif type(act) is Play and hand.left == hand.right:  # equal ends: listed once, left
            assert accepted == (Play(act.tile, End.LEFT) in listed), act
        else:
            assert accepted == (act in listed), act
    if hand.ends is not None:  # blocked as soon as nobody can lay: so somebody can
        assert any(hand.can_lay(s) for s in range(match.seats))


def check_new_hand(match: Match) -> None:
    hand = match.hand
    opener, leads = oracle_opening(match)
    assert hand.opener == opener
    if hand.over:  # blocked before the first move (a turned-up tile nobody can match)
        return
    assert hand.to_move == opener
    if leads is not None:
        assert {a.tile for a in match.legal_actions() if type(a) is Play} == leads
    elif hand.ends is None:
        assert {a.tile for a in match.legal_actions() if type(a) is Play} == set(
            hand.hands[opener]
        )


def check_hand_end(match: Match, scores_before: tuple[int, ...]) -> None:
    hand = match.hand
    result = hand.result
    assert isinstance(result, HandEnded)
    empty = [s for s in range(match.seats) if not hand.hands[s]]
    if result.reason is HandEndReason.OUT:
        assert empty == [result.out_seat]
        assert result.by_play == (type(hand.moves[-1].action) is Play)
        assert hand.moves[-1].seat == result.out_seat
    else:
        assert empty == [] and result.out_seat is None and not result.by_play
        assert not any(hand.can_lay(s) for s in range(match.seats))
    assert result.totals == oracle_totals(match, hand) == hand.totals()
    assert (result.winner, result.points) == oracle_hand_result(match, hand)
    scores = tuple(a + b for a, b in zip(scores_before, result.points, strict=True))
    assert result.scores == match.scores == scores
    assert (match.over, match.winner) == oracle_match_result(match, scores)
    assert (match.result == MatchEnded(match.winner, scores)) == match.over


def check_events(match: Match, events: list[Event]) -> None:
    hand = match.hand
    first = events[0]
    if isinstance(first, TilePlayed):
        assert first.ends == hand.line.ends
        placed = hand.line.placed
        assert (first.left_half, first.right_half) in {
            (placed[0].left, placed[0].right), (placed[-1].left, placed[-1].right)
        }
    assert (hand.result in events) == hand.over
    assert (match.result in events) == match.over


def play_checked_match(config: Config, seed: int) -> int:
    """Play one match through ``apply`` with a twin through ``step``; check everything."""
    rng = random.Random(seed)
    match = new_match(config, rng)
    twin = Match(config.game, config.seats, match.options.to_dict(match.variant.option_names))
    moves = 0
    while not match.over:
        state = rng.getstate()
        match.deal_hand(rng)
        rng.setstate(state)
        twin.deal_hand(rng)
        check_new_hand(match)
        scores_before = match.hands[-2].result.scores if len(match.hands) > 1 else None  # type: ignore[union-attr]
        scores_before = scores_before or (0,) * len(match.sides)
        while True:
            check_position(match)
            assert snapshot(match) == snapshot(twin)
            if match.hand.over:
                break
            seat = match.to_move
            assert seat is not None
            chosen = rng.choice(match.legal_actions())
            sent = variation(match, chosen, rng)
            # A lead laid the other way round is another move: the twin makes it too. A play
            # with its end left out is the same move: the twin sends the listed one.
            twin_sent = sent if match.hand.ends is None else chosen
            events = match.apply(seat, sent)
            twin.step(seat, twin_sent)
            check_events(match, events)
            moves += 1
        check_hand_end(match, scores_before)
    return moves


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@PROFILE
@given(seed=SEEDS)
def test_random_matches_follow_the_rules_at_every_step(config: Config, seed: int) -> None:
    for offset in range(MATCHES_PER_EXAMPLE):
        play_checked_match(config, seed + offset)


# --- views ----------------------------------------------------------------------------
def check_views(match: Match) -> None:
    hand = match.hand
    line = {p.tile for p in hand.line.placed}
    face_down = set(hand.deal.middle[1:])
    table = table_view(match)
    shown = set(tiles_in(table))
    if hand.over:
        revealed = line | {t for h in hand.hands for t in h} | {t for d in hand.dead for t in d}
        assert shown <= revealed
        assert table.revealed_hands == tuple(tuple(h) for h in hand.hands)
    else:
        assert shown <= line, shown - line  # no hand tile, no dead face
        assert table.revealed_hands is None and table.revealed_dead is None
    assert not shown & face_down
    assert [p.tile_count for p in table.players] == [len(h) for h in hand.hands]
    assert [p.dead_count for p in table.players] == [len(d) for d in hand.dead]
    for seat in range(match.seats):
        view = player_view(match, seat)
        own = set(hand.hands[seat]) | set(hand.dead[seat])
        mine = set(tiles_in(view))
        if hand.over:
            assert mine <= shown | own
        else:
            assert mine <= line | own, mine - line - own
        assert not mine & face_down
        assert set(view.hand) == set(hand.hands[seat])
        assert view.legal == (match.legal_actions() if hand.to_move == seat else ())


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@PROFILE
@given(seed=SEEDS)
def test_views_never_hold_hidden_tiles(config: Config, seed: int) -> None:
    rng = random.Random(seed)
    match = new_match(config, rng)
    while not match.over:
        match.deal_hand(rng)
        check_views(match)
        while not match.hand.over:
            match.step(match.to_move, rng.choice(match.legal_actions()))  # type: ignore[arg-type]
            check_views(match)


# --- stored matches -------------------------------------------------------------------
def same_state(a: Match, b: Match) -> None:
    assert snapshot(a) == snapshot(b)
    assert a.scores == b.scores and a.options == b.options
    assert table_view(a) == table_view(b)
    for seat in range(a.seats):
        assert player_view(a, seat) == player_view(b, seat)


@pytest.mark.parametrize("config", CONFIGS, ids=str)
@PROFILE
@given(seed=SEEDS)
def test_stored_match_round_trips_to_an_identical_state(config: Config, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(4):
        match = new_match(config, rng)
        stop = rng.randrange(1, 60)  # a random point, or the match end if it comes first
        made = 0
        while not match.over and made < stop:
            if match.can_deal():
                match.deal_hand(rng)
                continue
            match.step(match.to_move, rng.choice(match.legal_actions()))  # type: ignore[arg-type]
            made += 1
        text = match_to_json(match)
        back = match_from_json(text)
        same_state(match, back)
        assert match_to_json(back) == text
        for _ in range(8):  # and both go on alike
            if match.over:
                break
            if match.can_deal():
                state = rng.getstate()
                match.deal_hand(rng)
                rng.setstate(state)
                back.deal_hand(rng)
            else:
                act = rng.choice(match.legal_actions())
                assert match.apply(match.to_move, act) == back.apply(back.to_move, act)  # type: ignore[arg-type]
            same_state(match, back)


def test_every_option_combination_is_covered() -> None:
    assert len(CONFIGS) == 3 * (1 + 4 + 3 * 4) == 51
    assert len({str(c) for c in CONFIGS}) == len(CONFIGS)
