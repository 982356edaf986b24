"""RULES.md, "pair: Pair dominoes, two partnerships": one test per clause."""

from __future__ import annotations

import pytest
from engine_kit import NINE_NINE_WON, PAIR_OUT, deal, example_moves, play, started
from engine_kit import SIX_SIX_AT_0 as SIX_SIX_AT_0_HANDS

from engine import (
    KNOCK,
    HandEnded,
    HandEndReason,
    Match,
    MatchEnded,
    MustPlayError,
    Play,
    Tile,
    table_view,
)

# The shared example pair_out: seat 1 holds 6-6; seat 3 goes out with the last move.
OUT_DEAL = deal(*PAIR_OUT)
OUT_MOVES = example_moves("pair_out")
# The shared pair examples' other deal: seat 0 holds 6-6.
SIX_SIX_AT_0 = deal(*SIX_SIX_AT_0_HANDS)
BLOCKING_MOVES = example_moves("pair_blocked_draw")  # blocked: 45 pips each pair

# Seat 2 leads 9-9 and the hand blocks. Seats 0 and 1 of NINE_NINE_WON swapped: seat 0 holds
# the fewest pips alone (26), but its pair holds 26 + 66 = 92 against 28 + 49.
BLOCKED_DEAL = deal(NINE_NINE_WON[1], NINE_NINE_WON[0], *NINE_NINE_WON[2:])


def pair_out(**options: object) -> Match:
    match = started("pair", OUT_DEAL, **options)
    play(match, *OUT_MOVES)
    return match


def blocked(**options: object) -> Match:
    match = started("pair", BLOCKED_DEAL, set=9, **options)
    play(match, "2 9-9")
    return match


def test_pair_is_two_pairs_seats_0_and_2_against_1_and_3() -> None:
    match = Match("pair", 4)
    assert match.sides == ((0, 2), (1, 3))
    assert [match.side_of(seat) for seat in range(4)] == [0, 1, 0, 1]


def test_pair_first_hand_the_holder_of_6_6_must_lead_it() -> None:
    match = started("pair", OUT_DEAL)
    assert match.hand.opener == match.to_move == 1
    assert match.legal_actions() == (Play(Tile(6, 6)),)


def test_pair_first_lead_lot_the_seat_chosen_by_lot_leads_any_tile() -> None:
    match = started("pair", deal(*SIX_SIX_AT_0_HANDS, lot=2), first_lead="lot")
    assert match.hand.opener == match.to_move == 2
    assert set(match.legal_actions()) == {Play(t) for t in SIX_SIX_AT_0.hands[2]}


def test_pair_later_hand_led_by_the_seat_after_the_previous_leader_with_any_tile() -> None:
    match = pair_out()
    assert match.hand.result is not None and match.hand.opener == 1
    match.start_hand(SIX_SIX_AT_0)  # 6-6 at seat 0 no longer matters
    assert match.hand.opener == match.to_move == 2
    assert set(match.legal_actions()) == {Play(t) for t in SIX_SIX_AT_0.hands[2]}
    blocked_first = blocked(target=1000)
    blocked_first.start_hand(BLOCKED_DEAL)
    assert blocked_first.hand.opener == 3


def test_pair_doubles_laid_across_change_only_the_picture() -> None:
    match = started("pair", SIX_SIX_AT_0)
    play(match, "0 6-6", "1 6-1 right")
    view = table_view(match)
    assert view.doubles_across
    assert [str(p) for p in view.line] == ["6-6", "6-1"] and view.ends == (6, 1)
    assert not table_view(started("gaple", SIX_SIX_AT_0)).doubles_across


def test_pair_stuck_player_knocks() -> None:
    match = started("pair", OUT_DEAL)
    play(match, "1 6-6")
    assert match.legal_actions() == (KNOCK,)


def test_pair_knocking_while_holding_a_playable_tile_is_not_allowed() -> None:
    match = started("pair", SIX_SIX_AT_0)
    play(match, "0 6-6")
    with pytest.raises(MustPlayError):
        match.apply(1, KNOCK)
    assert match.to_move == 1 and len(match.hand.moves) == 1


def test_pair_player_laying_their_last_tile_wins_the_hand_for_their_pair() -> None:
    match = pair_out()
    ended = match.hand.result
    assert isinstance(ended, HandEnded)
    assert (ended.reason, ended.out_seat, ended.by_play) == (HandEndReason.OUT, 3, True)
    assert ended.winner == 1  # seats 1 and 3


def test_pair_winning_pair_scores_the_pips_in_the_two_opponents_hands() -> None:
    match = pair_out()
    ended = match.hand.result
    assert ended is not None
    assert ended.totals == (8, 4, 0, 0)
    assert ended.points == (0, 8)  # seats 0 and 2: 8 + 0; not the partner's 4


def test_pair_blocked_the_pair_with_fewer_pips_both_partners_together_wins() -> None:
    match = blocked(target=1000)
    ended = match.hand.result
    assert ended is not None and ended.reason is HandEndReason.BLOCKED
    assert ended.totals == (26, 28, 66, 49)
    assert ended.winner == 1  # 28 + 49 = 77 against 26 + 66 = 92
    assert ended.points == (0, 92)


def test_pair_blocked_equal_pips_is_a_drawn_hand_scoring_nothing() -> None:
    match = started("pair", SIX_SIX_AT_0)
    play(match, *BLOCKING_MOVES)
    ended = match.hand.result
    assert ended is not None and ended.reason is HandEndReason.BLOCKED
    assert ended.totals == (20, 17, 25, 28)  # 45 each pair
    assert ended.winner is None and ended.points == (0, 0) and match.scores == (0, 0)


def test_pair_block_count_all_scores_all_four_hands() -> None:
    match = blocked(block_count="all", target=1000)
    assert match.hand.result is not None
    assert match.hand.result.points == (0, 26 + 28 + 66 + 49)


def test_pair_block_count_all_leaves_a_hand_won_by_going_out_as_it_was() -> None:
    match = pair_out(block_count="all")
    assert match.hand.result is not None
    assert match.hand.result.points == (0, 8)


def test_pair_match_first_pair_to_the_target_or_more_wins() -> None:
    assert Match("pair", 4).options.target == 100
    match = blocked(target=92)
    assert match.over and match.winner == 1
    assert match.result == MatchEnded(1, (0, 92))
    assert not blocked(target=93).over
    assert not blocked().over  # default 100
