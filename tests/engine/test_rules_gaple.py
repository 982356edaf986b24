"""RULES.md, "gaple: Gaple as played in Indonesia": one test per clause."""

from __future__ import annotations

import random

import pytest
from engine_kit import (
    GAPLE_OUT,
    NINE_NINE_TIED,
    NINE_NINE_WON,
    action,
    deal,
    example_moves,
    play,
    started,
)

from engine import (
    KNOCK,
    BadInputError,
    HandEnded,
    HandEndReason,
    Match,
    MatchEnded,
    Play,
    Tile,
    TilePlayed,
    WrongLeadError,
    WrongStuckActionError,
)

# The shared example gaple_out: seat 0 holds 6-6, seat 1 goes out with its last move.
OUT_DEAL = deal(*GAPLE_OUT)
*OUT_MOVES, LAST = example_moves("gaple_out")
# Seat 2 leads 9-9 and the hand blocks: seats 0 and 1 tie for the fewest pips (a drawn hand),
# or seat 1 alone holds the fewest.
TIED_DEAL, WON_DEAL = NINE_NINE_TIED, NINE_NINE_WON


def blocked(hands: tuple[str, ...], **options: object) -> Match:
    match = started("gaple", deal(*hands), set=9, **options)
    play(match, "2 9-9")
    assert match.hand.result is not None
    return match


def test_gaple_is_4_players_7_tiles_each_nothing_left_over() -> None:
    match = Match("gaple", 4)
    match.deal_hand(random.Random(5))
    assert [len(h) for h in match.hand.hands] == [7] * 4
    assert match.hand.deal.middle == ()
    for players in (3, 5):
        with pytest.raises(BadInputError, match="4 players"):
            Match("gaple", players)
    with pytest.raises(BadInputError, match="middle"):
        Match("gaple", 4).start_hand(deal(*GAPLE_OUT, middle="0-0"))


def test_gaple_first_hand_the_holder_of_6_6_must_lead_it() -> None:
    match = started("gaple", OUT_DEAL)
    assert match.hand.opener == match.to_move == 0
    assert match.legal_actions() == (Play(Tile(6, 6)),)
    with pytest.raises(WrongLeadError, match="must be led with 6-6"):
        match.check(0, action("0 3-6"))


def test_gaple_later_hand_the_previous_winner_leads_any_tile() -> None:
    match = started("gaple", OUT_DEAL)
    play(match, *OUT_MOVES, LAST)
    assert match.hand.result is not None and match.hand.result.winner == 1
    match.start_hand(OUT_DEAL)
    assert match.hand.opener == 1  # not the holder of 6-6
    assert set(match.legal_actions()) == {Play(t) for t in OUT_DEAL.hands[1]}


def test_gaple_drawn_hand_previous_leader_leads_again() -> None:
    match = blocked(TIED_DEAL)
    assert match.hand.result is not None and match.hand.result.winner is None
    match.start_hand(deal(*WON_DEAL))
    assert match.hand.opener == 2
    assert set(match.legal_actions()) == {Play(t) for t in match.hand.hands[2]}


def test_gaple_stuck_player_knocks_and_draws_nothing() -> None:
    match = started("gaple", OUT_DEAL)
    play(match, *OUT_MOVES[:22])
    assert match.to_move == 2 and match.legal_actions() == (KNOCK,)
    with pytest.raises(WrongStuckActionError):
        match.apply(2, action("2 dead 0-3"))
    held = match.hand.hands[2]
    play(match, "2 knock")
    assert match.hand.hands[2] == held


def test_gaple_player_laying_their_last_tile_calls_gaple_and_wins() -> None:
    match = started("gaple", OUT_DEAL)
    play(match, *OUT_MOVES)
    assert LAST == "1 2-4"
    events = play(match, LAST)
    assert isinstance(events[0], TilePlayed)
    ended = events[1]
    assert isinstance(ended, HandEnded)
    assert (ended.reason, ended.out_seat, ended.by_play, ended.winner) == (
        HandEndReason.OUT,
        1,
        True,
        1,
    )


def test_gaple_winner_scores_the_pips_left_in_all_other_hands() -> None:
    match = started("gaple", OUT_DEAL)
    play(match, *OUT_MOVES, LAST)
    ended = match.hand.result
    assert ended is not None
    assert ended.totals == (9, 0, 7, 11)
    assert ended.points == (0, 27, 0, 0)
    assert match.scores == (0, 27, 0, 0)


def test_gaple_blocked_the_player_with_the_fewest_pips_wins() -> None:
    match = blocked(WON_DEAL, target=1000)
    ended = match.hand.result
    assert ended is not None
    assert ended.reason is HandEndReason.BLOCKED
    assert ended.totals == (28, 26, 66, 49)
    assert ended.winner == 1
    assert ended.points == (0, 28 + 66 + 49, 0, 0)


def test_gaple_blocked_tie_for_the_fewest_is_a_drawn_hand_scoring_nothing() -> None:
    match = blocked(TIED_DEAL)
    ended = match.hand.result
    assert ended is not None
    assert ended.totals == (28, 28, 66, 47)
    assert ended.winner is None
    assert ended.points == (0, 0, 0, 0) and match.scores == (0, 0, 0, 0)


def test_gaple_match_first_player_to_the_target_or_more_wins() -> None:
    match = blocked(WON_DEAL)  # default target 100; seat 1 scores 143
    assert match.options.target == 100
    assert match.over and match.winner == 1
    assert match.result == MatchEnded(1, (0, 143, 0, 0))
    assert blocked(WON_DEAL, target=143).over  # reaching it exactly is enough
    assert not blocked(WON_DEAL, target=144).over


def test_gaple_match_no_hand_after_the_match_ended() -> None:
    match = blocked(WON_DEAL)
    with pytest.raises(BadInputError, match="match is over"):
        match.start_hand(deal(*WON_DEAL))
    with pytest.raises(BadInputError, match="match is over"):
        match.deal_hand(random.Random(1))
