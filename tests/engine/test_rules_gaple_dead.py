"""RULES.md, "gaple-dead: Gaple with dead tiles": one test per clause."""

from __future__ import annotations

import random

import pytest
from engine_kit import (
    DEAL_7,
    MIDDLE,
    MIDDLE_TIE,
    action,
    deal,
    example_hands,
    example_moves,
    hand_dict,
    play,
    scenario,
    started,
)

from engine import (
    KNOCK,
    BadInputError,
    DecidedBy,
    Decision,
    Discard,
    HandEnded,
    HandEndReason,
    HandStarted,
    Knocked,
    Match,
    MatchEnded,
    MustPlayError,
    Play,
    Tile,
    TileDiscarded,
    TileNotInHandError,
    WrongLeadError,
    WrongStuckActionError,
    match_from_json,
    match_to_json,
    table_view,
)
from engine.conformance import answer

MIDDLE_DEAL = MIDDLE_TIE  # the shared example gaple_dead_middle_tie: 2-6 is turned up

# Double-12 set, turned-up 0-1 with the left end 0 never reopened: seat 0 holds only tiles of
# 10 to 12 and discards every turn while seats 1-3 lay a chain of doubles and steps.
DISCARDER_DEAL = (
    "10-10 10-11 10-12 11-11 11-12 12-12",
    "1-2 3-3 4-5 6-6 7-8 9-9",
    "2-2 3-4 5-5 6-7 8-8 2-9",
    "2-3 4-4 5-6 7-7 8-9 1-9",
)
DISCARDER_MOVES = (
    "0 dead 10-10", "1 1-2", "2 2-2", "3 2-3",
    "0 dead 10-11", "1 3-3", "2 3-4", "3 4-4",
    "0 dead 10-12", "1 4-5", "2 5-5", "3 5-6",
    "0 dead 11-11", "1 6-6", "2 6-7", "3 7-7",
    "0 dead 11-12", "1 7-8", "2 8-8", "3 8-9",
)  # then "0 dead 12-12": seat 0's last tile


def discarder(seat_2_last: str = "2-9", **options: object) -> Match:
    hands = list(DISCARDER_DEAL)
    hands[2] = hands[2].replace("2-9", seat_2_last)
    match = started("gaple-dead", deal(*hands, middle="0-1 1-12 2-12 3-12"), set=12, **options)
    play(match, *DISCARDER_MOVES)
    return match


# Double-12 set, the turned-up 12-12 blocks at once (nobody holds a 12).
def blocked_at_once(*hands: str, **options: object) -> Match:
    """The hand is over before anybody moves: totals are the dealt hands."""
    return started(
        "gaple-dead", deal(*hands, middle="12-12 11-12 10-12 9-12"), set=12, **options
    )


# Seats 0 and 1 tie at 42; seat 1's lowest tile 0-1 (1) beats seat 0's 0-2 (2).
TIED_AT_42 = (
    "0-2 3-3 4-4 5-5 1-6 2-7",
    "0-1 1-2 3-4 2-9 4-8 0-8",
    "9-9 10-10 11-11 8-8 7-7 6-6",
    "9-10 10-11 9-11 8-10 8-11 7-11",
)
# Seat 1 holds 0-0 and no other blank: 20 pips, and 45 with blank_double_25, as seat 0 holds.
TIED_AT_45 = (
    "0-1 1-2 3-3 4-4 5-5 8-9",
    "0-0 1-1 2-2 1-3 2-3 1-4",
    "6-6 7-7 8-8 9-9 10-10 11-11",
    "6-7 6-8 6-9 6-10 6-11 7-8",
)


def result_of(match: Match) -> HandEnded:
    assert match.hand.result is not None
    return match.hand.result


def test_gaple_dead_is_played_by_4_or_5() -> None:
    for players in (4, 5):
        Match("gaple-dead", players)
    for players in (2, 3, 6):
        with pytest.raises(BadInputError, match="4 or 5 players"):
            Match("gaple-dead", players)


def test_gaple_dead_4_players_take_6_each_and_4_stay_in_the_middle() -> None:
    match = Match("gaple-dead", 4)
    match.deal_hand(random.Random(1))
    assert [len(h) for h in match.hand.hands] == [6] * 4
    assert len(match.hand.deal.middle) == 4
    assert table_view(match).middle_face_down == 3


def test_gaple_dead_5_players_take_5_each_and_3_stay_in_the_middle() -> None:
    match = Match("gaple-dead", 5)
    assert match.options.deal == 5  # the stored options say what is played
    match.deal_hand(random.Random(1))
    assert [len(h) for h in match.hand.hands] == [5] * 5
    assert len(match.hand.deal.middle) == 3
    assert table_view(match).middle_face_down == 2
    assert match_from_json(match_to_json(match)).options.deal == 5
    assert Match("gaple-dead", 5, {"deal": 5}).options.deal == 5


def test_gaple_dead_5_players_deal_plays_in_turn_and_wraps_to_seat_0() -> None:
    hands = (
        "0-0 0-1 0-2 0-3 0-4",
        "0-5 0-6 1-1 1-2 1-3",
        "1-4 1-5 1-6 2-2 2-3",
        "2-4 2-5 2-6 3-3 3-4",
        "3-5 3-6 4-4 4-5 4-6",
    )
    match = started("gaple-dead", deal(*hands, middle="5-5 5-6 6-6", lot=4))
    assert match.hand.opener == match.to_move == 4
    assert match.hand.ends == (5, 5)
    play(match, "4 4-5")  # both ends show 5: it goes to the left
    assert match.hand.ends == (4, 5)
    assert match.to_move == 0
    with pytest.raises(BadInputError):  # 5 players: the middle holds 3
        Match("gaple-dead", 5).start_hand(deal(*hands, middle="5-5 5-6 6-6 0-0"))


def test_gaple_dead_deal_7_is_for_4_players_only_with_nothing_in_the_middle() -> None:
    match = Match("gaple-dead", 4, {"deal": 7})
    match.deal_hand(random.Random(2))
    assert [len(h) for h in match.hand.hands] == [7] * 4
    assert match.hand.deal.middle == () and table_view(match).turned_up is None
    with pytest.raises(BadInputError, match="5 players"):
        Match("gaple-dead", 5, {"deal": 7})


def test_gaple_dead_first_middle_tile_is_turned_up_and_starts_the_line_owned_by_nobody() -> None:
    match = started("gaple-dead", deal(*MIDDLE_DEAL, middle=MIDDLE))
    assert [str(p) for p in match.hand.line.placed] == ["2-6"]
    assert match.hand.ends == (2, 6)
    view = table_view(match)
    assert view.turned_up is Tile(2, 6)
    # The turned tile counts against nobody: totals are the dealt hands alone.
    assert match.hand.totals() == (32, 37, 47, 29)
    reversed_match = started("gaple-dead", deal(*MIDDLE_DEAL, middle="6-2 0-0 0-4 6-5"))
    assert reversed_match.hand.ends == (6, 2)


def test_gaple_dead_other_middle_tiles_stay_out_of_play() -> None:
    match = started("gaple-dead", deal(*MIDDLE_DEAL, middle=MIDDLE))
    face_down = set(match.hand.deal.middle[1:])
    assert face_down == {Tile(0, 0), Tile(0, 4), Tile(5, 6)}
    for seat in range(4):
        assert not face_down & set(match.hand.hands[seat])
    with pytest.raises(TileNotInHandError):
        match.check(0, Play(Tile(0, 0)))


def test_gaple_dead_first_hand_first_player_by_lot_plays_onto_the_turned_tile() -> None:
    match = started("gaple-dead", deal(*MIDDLE_DEAL, middle=MIDDLE, lot=2))
    assert match.hand.opener == match.to_move == 2
    assert set(match.legal_actions()) == {
        action("2 2-5 left"),
        action("2 2-3 left"),
        action("2 6-6 right"),
        action("2 3-6 right"),
    }


def test_gaple_dead_later_hand_with_a_middle_is_opened_by_the_previous_winner() -> None:
    first = hand_dict(*MIDDLE_DEAL, middle=MIDDLE, first=0,
                      moves=example_moves("gaple_dead_middle_tie"))
    second = hand_dict(*MIDDLE_DEAL, middle=MIDDLE, first=3)
    result = answer(scenario("gaple-dead", first, second))
    assert result["error"] is None
    assert result["hands"][0]["winner"] == 1
    assert result["hands"][1]["opener"] == result["hands"][1]["to_move"] == 1


DEAL_7_FIRST = DEAL_7  # the shared example gaple_dead_deal7_doubles: seat 1 holds 0-0


def test_gaple_dead_deal_7_first_hand_the_holder_of_0_0_must_lead_it() -> None:
    match = started("gaple-dead", deal(*DEAL_7_FIRST), deal=7)
    assert match.hand.opener == 1
    assert match.hand.started == HandStarted(0, 1, None, (Tile(0, 0),), True)
    assert match.legal_actions() == (Play(Tile(0, 0)),)
    with pytest.raises(WrongLeadError, match="must be led with 0-0"):
        match.check(1, action("1 5-6"))


# Double-12 set, deal 7: seat 0 leads 0-0 and nobody else holds a blank, so the hand blocks
# at once; seat 3 holds by far the fewest pips and wins it.
WINNER_3_DEAL = (
    "0-0 12-12 11-12 10-12 9-12 8-12 7-12",
    "11-11 10-11 9-11 8-11 7-11 6-11 5-11",
    "10-10 9-10 8-10 7-10 6-10 5-10 4-10",
    "1-2 1-3 1-4 2-3 2-4 3-4 1-5",
)


def test_gaple_dead_deal_7_later_hand_the_winner_must_lead_a_double() -> None:
    match = started("gaple-dead", deal(*WINNER_3_DEAL), set=12, deal=7, target=1000)
    play(match, "0 0-0")
    assert result_of(match).reason is HandEndReason.BLOCKED
    assert result_of(match).winner == 3
    events = match.start_hand(deal(
        "0-1 0-2 0-3 0-4 0-5 0-6 0-7",
        "1-6 2-6 3-6 4-6 5-6 6-7 1-7",
        "2-7 3-7 4-7 5-7 7-8 1-8 2-8",
        "3-8 4-8 5-8 6-8 8-9 2-2 9-9",
    ))
    assert match.hand.opener == 3
    assert {str(a.tile) for a in match.legal_actions() if type(a) is Play} == {"2-2", "9-9"}
    with pytest.raises(WrongLeadError, match="2-2 or 9-9"):
        match.check(3, action("3 3-8"))
    # The table learns that a double must be led, not which doubles seat 3 holds.
    assert events == [HandStarted(1, 3, None, (), True)]


def test_gaple_dead_deal_7_winner_without_a_double_passes_the_right_to_the_next_seat() -> None:
    match = started("gaple-dead", deal(*WINNER_3_DEAL), set=12, deal=7, target=1000)
    play(match, "0 0-0")
    match.start_hand(deal(
        "5-5 0-1 0-2 0-3 0-4 0-5 0-6",
        "6-6 1-6 2-6 3-6 4-6 5-6 6-7",
        "7-7 1-7 2-7 3-7 4-7 5-7 7-8",
        "1-8 2-8 3-8 4-8 5-8 6-8 8-9",
    ))
    # Seat 3 won but holds no double; the next seat in turn order, seat 0, holds 5-5.
    assert match.hand.opener == match.to_move == 0
    assert match.legal_actions() == (Play(Tile(5, 5)),)


def test_gaple_dead_deal_7_right_to_lead_skips_every_seat_without_a_double() -> None:
    match = started("gaple-dead", deal(*DEAL_7_FIRST), deal=7)
    play(match, *example_moves("gaple_dead_deal7_doubles"))
    assert result_of(match).winner == 0
    match.start_hand(deal(*example_hands("gaple_dead_deal7_doubles", 1)))
    assert match.hand.opener == 2  # seats 0 and 1 hold no double
    assert {str(a.tile) for a in match.legal_actions() if type(a) is Play} == {
        "1-1", "2-2", "3-3", "6-6"
    }


def test_gaple_dead_stuck_player_discards_face_down() -> None:
    match = started("gaple-dead", deal(*MIDDLE_DEAL, middle=MIDDLE))
    play(match, "0 0-2 left", "1 6-4")
    assert match.hand.ends == (0, 4)  # seat 2 holds neither a 0 nor a 4
    seat_2 = match.hand.hands[2]
    assert set(match.legal_actions()) == {Discard(t) for t in seat_2}
    before = match.hand.totals()[2]
    events = play(match, "2 dead 3-2")
    assert events == [TileDiscarded(2, 1, (0, 4))]  # the face is not announced
    assert Tile(2, 3) not in match.hand.hands[2]
    assert match.hand.dead[2] == [Tile(2, 3)]
    assert match.hand.ends == (0, 4) and len(match.hand.line) == 3  # it left play
    assert match.hand.totals()[2] == before == 47  # and still counts against seat 2
    assert match.to_move == 3


def test_gaple_dead_stuck_player_may_not_knock_where_dead_tiles_are_played() -> None:
    match = started("gaple-dead", deal(*MIDDLE_DEAL, middle=MIDDLE))
    play(match, "0 0-2 left", "1 6-4")
    with pytest.raises(WrongStuckActionError, match="discards a dead tile"):
        match.apply(2, KNOCK)


def test_gaple_dead_player_who_can_lay_may_not_discard() -> None:
    match = started("gaple-dead", deal(*MIDDLE_DEAL, middle=MIDDLE))
    with pytest.raises(MustPlayError, match="must play"):
        match.apply(0, action("0 dead 3-4"))


def test_gaple_dead_option_dead_tiles_false_stuck_player_knocks() -> None:
    match = started("gaple-dead", deal(*MIDDLE_DEAL, middle=MIDDLE), dead_tiles=False)
    play(match, "0 0-2 left", "1 6-4")
    assert match.legal_actions() == (KNOCK,)
    with pytest.raises(WrongStuckActionError, match="knocks"):
        match.apply(2, action("2 dead 3-2"))
    assert play(match, "2 knock") == [Knocked(2, (0, 4))]
    assert match.hand.dead == [[], [], [], []]
    assert match.hand.totals()[2] == 47


def seat_1_lays_out() -> HandEnded:
    """Double-12 set. The right end climbs 1-1, 1-2, 2-2 ... 11-11, one tile a seat in turn
    from seat 1 (drawn by lot); seat 1 lays its sixth and last at the 21st move. Seat 0 keeps
    0-0 (no end ever shows a blank), seat 2 keeps 0-5 and seat 3 keeps 3-9."""
    hands = (
        "0-0 2-3 4-5 6-7 8-9 10-11",
        "1-1 3-3 5-5 7-7 9-9 11-11",
        "1-2 3-4 5-6 7-8 9-10 0-5",
        "2-2 4-4 6-6 8-8 10-10 3-9",
    )
    chain = [
        "1-1", "1-2", "2-2", "2-3", "3-3", "3-4", "4-4", "4-5", "5-5", "5-6", "6-6",
        "6-7", "7-7", "7-8", "8-8", "8-9", "9-9", "9-10", "10-10", "10-11", "11-11",
    ]
    match = started("gaple-dead", deal(*hands, middle="12-1 12-12 0-12 5-12", lot=1), set=12)
    for seat, tile in zip([1, 2, 3, 0] * 5, chain[:-1], strict=True):
        play(match, f"{seat} {tile}")
    assert not match.hand.over
    ended = play(match, f"1 {chain[-1]}")[-1]
    assert isinstance(ended, HandEnded)
    return ended


def test_gaple_dead_hand_ends_as_soon_as_a_player_lays_their_last_tile() -> None:
    ended = seat_1_lays_out()
    assert (ended.reason, ended.out_seat, ended.by_play) == (HandEndReason.OUT, 1, True)


def test_gaple_dead_tie_break_player_with_no_counted_tiles_beats_tied_player_with_some() -> None:
    ended = seat_1_lays_out()
    # Seat 0 holds 0-0 alone, worth 0; seat 1 has nothing left: tied at 0.
    assert ended.totals == (0, 0, 5, 12)
    assert ended.winner == 1
    # The result says what broke the tie: seat 1 has no tile; seat 0's lowest is 0-0.
    assert ended.decision == Decision(DecidedBy.NO_TILES, (1, 0), (None, Tile(0, 0)))


def test_gaple_dead_hand_ends_when_a_player_discards_their_last_tile() -> None:
    match = discarder(target=1000)
    assert not match.hand.over and match.hand.ends == (0, 9)
    events = play(match, "0 dead 12-12")
    ended = events[-1]
    assert isinstance(ended, HandEnded)
    assert (ended.reason, ended.out_seat, ended.by_play) == (HandEndReason.OUT, 0, False)


def test_gaple_dead_hand_ends_blocked_when_no_player_can_lay() -> None:
    match = blocked_at_once(
        *TIED_AT_42,
        target=1000,
    )
    assert result_of(match).reason is HandEndReason.BLOCKED
    assert result_of(match).out_seat is None


def test_gaple_dead_total_is_pips_in_hand_plus_dead_tiles() -> None:
    match = discarder(target=1000)
    play(match, "0 dead 12-12")
    # Seat 0 discarded all six of its tiles: 20 + 21 + 22 + 22 + 23 + 24.
    assert result_of(match).totals == (132, 18, 11, 10)


def test_gaple_dead_lowest_total_wins_and_each_side_scores_its_own_total() -> None:
    match = discarder(target=1000)
    play(match, "0 dead 12-12")
    assert result_of(match).winner == 3  # seat 0 went out but its dead tiles count 132
    assert result_of(match).decision is None  # the lowest total alone: no tie to break
    assert result_of(match).points == (132, 18, 11, 10)
    assert match.scores == (132, 18, 11, 10)


def test_gaple_dead_blank_double_25_counts_25_without_another_blank_half() -> None:
    match = blocked_at_once(
        *TIED_AT_45,
        blank_double_25=True,
        target=1000,
    )
    assert result_of(match).totals == (45, 45, 102, 90)


def test_gaple_dead_blank_double_25_off_counts_0_0_as_0() -> None:
    match = blocked_at_once(
        *TIED_AT_45,
        target=1000,
    )
    assert result_of(match).totals == (45, 20, 102, 90)


def test_gaple_dead_blank_double_25_counts_0_with_another_blank_in_hand() -> None:
    match = blocked_at_once(
        "0-1 0-0 3-3 4-4 5-5 8-9",
        "1-2 1-1 2-2 1-3 2-3 1-4",
        "6-6 7-7 8-8 9-9 10-10 11-11",
        "6-7 6-8 6-9 6-10 6-11 7-8",
        blank_double_25=True,
        target=1000,
    )
    assert result_of(match).totals[0] == 1 + 0 + 6 + 8 + 10 + 17


def test_gaple_dead_blank_double_25_counts_0_with_another_blank_among_dead_tiles() -> None:
    # Seat 0 is stuck on the turned-up 12-11, discards 0-5 and keeps 0-0; seat 1 lays 11-10,
    # after which nobody holds a 12 or a 10.
    hands = (
        "0-0 0-5 1-2 1-3 1-4 2-3",
        "10-11 2-2 2-4 2-5 3-3 3-4",
        "4-4 4-5 5-5 3-5 6-6 1-1",
        "6-7 7-7 6-8 8-8 1-5 1-6",
    )
    match = started(
        "gaple-dead", deal(*hands, middle="12-11 9-9 0-9 0-1"), set=12, blank_double_25=True
    )
    play(match, "0 dead 0-5", "1 11-10")
    assert result_of(match).reason is HandEndReason.BLOCKED
    assert result_of(match).totals == (22, 30, 49, 70)
    assert result_of(match).winner == 0


def test_gaple_dead_tie_break_lowest_counted_tile_of_smaller_value_wins() -> None:
    # Seats 0 and 1 tie at 42; seat 1's lowest tile 0-1 (1) beats seat 0's 0-2 (2).
    match = blocked_at_once(
        *TIED_AT_42,
        target=1000,
    )
    assert result_of(match).totals == (42, 42, 102, 115)
    assert result_of(match).winner == 1
    assert result_of(match).decision == Decision(
        DecidedBy.LOWEST_TILE, (1, 0), (Tile(0, 1), Tile(0, 2)))


def test_gaple_dead_tie_break_equal_value_smaller_lower_half_wins() -> None:
    # Seats 2 and 3 end on one tile of 10 each: 3-7 against 1-9; the lower half 1 wins.
    match = discarder(seat_2_last="3-7", target=1000)
    play(match, "0 dead 12-12")
    assert result_of(match).totals == (132, 18, 10, 10)
    assert result_of(match).winner == 3
    assert result_of(match).decision == Decision(
        DecidedBy.LOWER_HALF, (3, 2), (Tile(1, 9), Tile(3, 7)))


def test_gaple_dead_tie_break_blank_double_is_worth_0_even_where_it_counts_25() -> None:
    # Tied at 45: seat 1's 0-0 counts 25 in its total but is worth 0 in the tie-break,
    # which beats seat 0's lowest tile 0-1.
    match = blocked_at_once(
        *TIED_AT_45,
        blank_double_25=True,
        target=1000,
    )
    assert result_of(match).winner == 1
    assert result_of(match).decision == Decision(
        DecidedBy.LOWEST_TILE, (1, 0), (Tile(0, 0), Tile(0, 1)))


def test_gaple_dead_default_target_is_101() -> None:
    assert Match("gaple-dead", 4).options.target == 101


def test_gaple_dead_running_totals_add_up_hand_totals() -> None:
    match = blocked_at_once(*TIED_AT_42, target=1000)
    match.start_hand(deal(*TIED_AT_42, middle="12-12 11-12 10-12 9-12"))
    assert match.hand.opener == 1  # the previous winner
    assert match.scores == (84, 84, 204, 230)
    assert not match.over


def test_gaple_dead_match_ends_after_the_hand_in_which_someone_reaches_the_target() -> None:
    match = discarder()  # default target 101
    assert not match.over
    events = play(match, "0 dead 12-12")
    assert match.scores == (132, 18, 11, 10)
    assert match.over and match.winner == 3  # the lowest running total wins
    assert events[-1] == MatchEnded(3, (132, 18, 11, 10))
    with pytest.raises(BadInputError, match="match is over"):
        match.deal_hand(random.Random(0))


def test_gaple_dead_match_reaching_the_target_exactly_ends_it() -> None:
    assert discarder_ended(target=132).over
    assert not discarder_ended(target=133).over


def discarder_ended(**options: object) -> Match:
    match = discarder(**options)
    play(match, "0 dead 12-12")
    return match


def test_gaple_dead_match_tie_for_the_lowest_running_total_is_drawn() -> None:
    match = discarder(seat_2_last="3-7")
    events = play(match, "0 dead 12-12")
    assert match.scores == (132, 18, 10, 10)
    assert result_of(match).winner == 3  # the hand has a winner ...
    assert match.over and match.winner is None  # ... the match is drawn
    assert events[-1] == MatchEnded(None, (132, 18, 10, 10))
