"""Ratings from recorded matches: who gains what against whom, partners, leavers, the order of
the records, the rating shown and the places it gives."""

from __future__ import annotations

import random
from dataclasses import fields
from itertools import pairwise

import pytest
from results_kit import GROUP

from bot.service.ratings import (
    PROVISIONAL_MATCHES,
    RATING_BASE,
    RATING_SCALE,
    Standing,
    fresh_rating,
    places,
    rating_change,
    standings,
)
from bot.storage import MatchRecord


def duel(game_id: int, winner: int, loser: int) -> MatchRecord:
    return MatchRecord(game_id, GROUP, "gaple", ((winner, f"p{winner}"), (loser, f"p{loser}")),
                       ((0,), (1,)), 0, (100, 0), float(game_id))


def match(game_id: int, game: str, players: tuple[int, ...], winner: int = 0) -> MatchRecord:
    """A match of ``game`` (pairs: seats 0 and 2 against 1 and 3; else each for themselves)
    that side ``winner`` won, the others tied behind it."""
    sides = ((0, 2), (1, 3)) if game == "pair" else tuple((seat,) for seat in range(len(players)))
    scores = tuple(100 if side == winner else 0 for side in range(len(sides)))
    return MatchRecord(game_id, GROUP, game, tuple((p, f"p{p}") for p in players), sides, winner,
                       scores, float(game_id))


def shown(history: list[MatchRecord]) -> dict[int, int]:
    """Everyone's shown rating after ``history``, less the base."""
    return {s.user_id: s.rating - RATING_BASE for s in standings(history, [])}


def test_beating_stronger_players_rates_higher_than_beating_weaker_ones() -> None:
    strong, weak, giant_killer, bully = 10, 11, 12, 13
    history = [duel(n, strong, weak) for n in range(1, 9)]
    history += [duel(n, giant_killer, strong) for n in range(9, 12)]
    history += [duel(n, bully, weak) for n in range(12, 15)]
    by_id = {s.user_id: s for s in standings(history, [])}
    assert by_id[giant_killer].won == by_id[bully].won == 3
    assert by_id[giant_killer].rating > by_id[bully].rating
    assert by_id[strong].rating > by_id[weak].rating


def test_partners_share_their_pairs_result() -> None:
    match = MatchRecord(1, GROUP, "pair", ((1, "a"), (2, "b"), (3, "c"), (4, "d")),
                        ((0, 2), (1, 3)), 1, (10, 100), 1.0)
    by_id = {s.user_id: s for s in standings([match], [])}
    assert by_id[2].mu == pytest.approx(by_id[4].mu)
    assert by_id[1].mu == pytest.approx(by_id[3].mu)
    assert by_id[2].mu > 25 > by_id[1].mu  # 25: openskill's starting mu
    assert by_id[2].rating == by_id[4].rating > by_id[1].rating == by_id[3].rating


def test_leaving_a_match_is_losing_it_even_when_the_side_left_wins() -> None:
    """Player 5 left pair's seat 0 to a computer (7001 here); the side went on and won."""
    match = MatchRecord(1, GROUP, "pair", ((7001, "robot"), (2, "b"), (3, "c"), (4, "d")),
                        ((0, 2), (1, 3)), 0, (100, 10), 1.0, leavers=((5, "e", 0),))
    by_id = {s.user_id: s for s in standings([match], [])}
    leaver = by_id[5]
    assert (leaver.played, leaver.won, leaver.lost, leaver.streak) == (1, 0, 1, -1)
    assert leaver.name == "e" and leaver.hands_played == 0
    assert by_id[3].rating > fresh_rating() > by_id[2].rating  # the match as it was played
    assert leaver.mu == pytest.approx(by_id[2].mu)  # as the losers of it: the same change
    assert leaver.rating == by_id[2].rating


def test_the_order_of_the_records_given_does_not_change_the_board() -> None:
    history = [duel(1, 1, 2), duel(2, 2, 3), duel(3, 3, 1), duel(4, 1, 3)]
    tied = MatchRecord(5, GROUP, "gaple", ((2, "p2"), (1, "p1")), ((0,), (1,)), 0, (100, 0), 4.0)
    forward = standings([*history, tied], [])
    assert standings([tied, *reversed(history)], []) == forward
    streaks = {s.user_id: s.streak for s in forward}
    assert streaks == {1: -1, 2: 2, 3: -1}  # at equal times, the lower game id came first


def test_the_rating_shown_is_the_sum_of_the_changes_shown() -> None:
    board = standings([duel(1, 1, 2)], [])
    assert [(s.user_id, s.streak) for s in board] == [(1, 1), (2, -1)]
    for s in board:  # after one match: the start plus its change, mu moved on the scale
        assert s.rating == RATING_BASE + rating_change(25.0, s.mu)
        assert s.skill == pytest.approx(s.mu - 25.0)
    assert board[0].rating > RATING_BASE > board[1].rating
    assert fresh_rating() == RATING_BASE  # a newcomer shows exactly the base
    assert standings([], []) == ()


def test_a_first_match_ranks_its_players_and_losers_never_gain() -> None:
    """Issue 24: the conservative mu - 3 sigma raised even the losers of a first match of
    four (everyone's sigma shrinks); mu itself moves each by how they placed."""
    def first_match(scores: tuple[int, ...]) -> list[int]:
        record = MatchRecord(1, GROUP, "gaple", tuple((i, f"p{i}") for i in range(1, 5)),
                             ((0,), (1,), (2,), (3,)), 0, scores, 1.0)
        moved = {s.user_id: s.rating - RATING_BASE for s in standings([record], [])}
        return [moved[u] for u in range(1, 5)]

    ranked = first_match((100, 40, 30, 20))  # the ordinal showed about +208/+103/-3/-108
    assert ranked == sorted(ranked, reverse=True) and ranked[0] > ranked[1] > 0 > ranked[-1]
    assert ranked[0] <= 160  # beating three is worth about three wins of two (+53 each)
    one_winner = first_match((100, 0, 0, 0))  # the ordinal raised the three losers
    assert one_winner[0] > 0
    assert all(m < 0 for m in one_winner[1:]), one_winner


def test_players_with_the_same_rating_share_a_place() -> None:
    def standing(rating: int) -> Standing:
        fields_ = {f.name: 0 for f in fields(Standing)}
        return Standing(**{**fields_, "name": "x", "rating": rating})  # type: ignore[arg-type]

    assert places([standing(1200), standing(1100), standing(1100), standing(900)]) == [1, 2, 2, 4]


def test_a_first_win_moves_the_rating_visibly_whatever_the_matchs_shape() -> None:
    """Damped by sigma, a first pair win showed +1 and a first win of two +3 (sigma shrinks
    little in those); damped by matches played, +10 and +13; undamped, each is in sight."""
    pair = shown([match(1, "pair", (1, 2, 3, 4))])
    assert pair[1] == pair[3] >= 10 and pair[2] == pair[4] <= -10
    two = shown([match(1, "gaple", (1, 2))])
    assert two[1] >= 10 and two[2] <= -10
    four = shown([match(1, "gaple", (1, 2, 3, 4))])
    three = shown([match(1, "gaple", (1, 2, 3))])
    assert two[1] <= three[1] <= four[1]  # a bigger match says more
    assert all(m <= -10 for m in (*four.values(), *three.values()) if m < 0)


def changes(history: list[MatchRecord], player: int) -> list[int]:
    """How each match of ``history`` moved ``player``'s shown rating."""
    ratings = [shown(history[:n]).get(player, 0) for n in range(len(history) + 1)]
    return [after - before for before, after in pairwise(ratings)]


@pytest.mark.parametrize(("game", "players"), [
    ("pair", (1, 2, 3, 4)), ("gaple", (1, 2)), ("gaple", (1, 2, 3)), ("gaple", (1, 2, 3, 4)),
])
def test_the_changes_shrink_as_the_same_side_keeps_winning(
    game: str, players: tuple[int, ...],
) -> None:
    """Player QA: the same pair winning five straight showed +10, +18, +26, +27, +18 (the
    share of mu shown grew with every match); changes now shrink as a rating settles, for
    the winners and for the losers, down to the rounding."""
    history = [match(game_id, game, players) for game_id in range(1, 13)]
    won, lost = changes(history, 1), changes(history, 2)
    assert won[0] >= 10 and lost[0] <= -10
    assert all(0 < later <= earlier for earlier, later in pairwise(won)), won
    assert all(earlier <= later < 0 for earlier, later in pairwise(lost)), lost


def test_a_streak_of_losses_costs_less_and_less() -> None:
    """The loser's side of a streak, beaten by ever different opponents (new each match): a
    result the rating already expects costs less."""
    history = [duel(game_id, 100 + game_id, 1) for game_id in range(1, 11)]
    lost = changes(history, 1)
    assert all(earlier <= later < 0 for earlier, later in pairwise(lost)), lost


def test_ten_pair_wins_in_a_row_raise_the_rating_steadily() -> None:
    """QA: ten straight wins of one pair over another showed 1038 (+1 to +5 a match)."""
    history: list[MatchRecord] = []
    steps = []
    for game_id in range(1, 11):
        before = shown(history).get(1, 0)
        history.append(match(game_id, "pair", (1, 2, 3, 4)))
        steps.append(shown(history)[1] - before)
    assert all(step >= 8 for step in steps), steps
    assert sum(steps) >= 100
    assert all(shown(history[:n])[2] > shown(history[:n + 1])[2] for n in range(1, 10))


def test_a_loser_never_gains_by_being_better_known() -> None:
    """The share of mu once shown grew with every match played, lost ones too: a newcomer's
    lucky win of four, then a loss to a regular of two, showed a rise. It falls."""
    history = [match(n, "gaple", (1, 2)) for n in range(1, 9)]  # 1 is a regular, 2 is beaten
    history.append(match(9, "gaple", (50, 60, 61, 62)))  # 50's first match, won
    lucky = shown(history)[50]
    history.append(match(10, "gaple", (1, 50)))
    assert shown(history)[50] <= lucky - 8


def test_a_change_is_rounded_on_its_own_never_against_the_move() -> None:
    assert rating_change(25.0, 25.0) == 0
    assert rating_change(25.0, 25.0 + 0.6 / RATING_SCALE) == 1
    assert rating_change(25.0, 25.0 + 0.4 / RATING_SCALE) == 0  # too small to show: no move
    assert rating_change(25.0, 25.0 - 0.6 / RATING_SCALE) == -1


def test_over_mixed_matches_the_rating_moves_with_the_estimate() -> None:
    """Sixty matches of every shape among six players: a loser of two sides or the last of
    several never rises, a winner never falls, and the shown rating stays near the estimate
    (the rounding of each change drifts it by a few points at most)."""
    chance = random.Random(5)
    strength = {player: chance.gauss(0, 1) for player in range(1, 7)}
    history: list[MatchRecord] = []
    before = {s.user_id: s for s in standings(history, [])}
    for game_id in range(1, 61):
        game = chance.choice(("pair", "gaple"))
        players = tuple(chance.sample(range(1, 7), 4 if game == "pair" else chance.randint(2, 4)))
        sides = 2 if game == "pair" else len(players)
        strong = [sum(strength[players[seat]] for seat in range(len(players))
                      if seat % sides == side) + chance.gauss(0, 1) for side in range(sides)]
        winner = max(range(sides), key=strong.__getitem__)
        history.append(match(game_id, game, players, winner))
        after = {s.user_id: s for s in standings(history, [])}
        for seat, player in enumerate(players):
            was = before.get(player)
            if was is None:
                continue
            moved, now = after[player].rating - was.rating, after[player]
            assert moved * (now.mu - was.mu) >= 0, (game_id, player)  # the way mu went
            if seat % sides == winner:
                assert moved >= 0 and now.mu > was.mu, (game_id, player)
            elif sides == 2:
                assert moved <= 0 and now.mu < was.mu, (game_id, player)
        before = after
    assert min(s.played for s in before.values()) >= 30
    for s in before.values():
        assert abs(s.rating - RATING_BASE - RATING_SCALE * s.skill) <= 5
        assert not s.provisional


def regulars() -> list[MatchRecord]:
    """Five regulars, 30 matches of two among them: each beats everyone after them."""
    pairs = [(a, b) for a in range(1, 6) for b in range(a + 1, 6)]
    return [duel(n, *pairs[n % len(pairs)]) for n in range(30)]


def test_a_newcomers_lucky_win_is_provisional_and_listed_after_the_regulars() -> None:
    """A newcomer wins a first match of four over the three best of five regulars: mu puts
    them beside the best (damped by matches, third); provisional, they are listed after all
    five, the mark "?" says why, until they have played PROVISIONAL_MATCHES matches."""
    history = [*regulars(), match(40, "gaple", (50, 1, 2, 3))]
    board = standings(history, [])
    assert [s.user_id for s in board] == [1, 2, 3, 4, 5, 50]
    newcomer = board[-1]
    assert newcomer.provisional and not any(s.provisional for s in board[:-1])
    assert newcomer.rating > board[1].rating  # the rating itself is not held back
    assert places(board) == [1, 2, 3, 4, 5, 6]
    for n in range(1, PROVISIONAL_MATCHES):  # four more wins over the same three
        history.append(match(40 + n, "gaple", (50, 1, 2, 3)))
    board = standings(history, [])
    assert board[0].user_id == 50 and not board[0].provisional


def test_where_nobody_is_established_the_rating_alone_orders_the_board() -> None:
    history = [duel(1, 1, 2), duel(2, 3, 1), duel(3, 3, 2)]
    board = standings(history, [])
    assert all(s.provisional for s in board)
    assert [s.user_id for s in board] == [3, 1, 2]
    assert places(board) == [1, 2, 3]


def test_an_established_player_is_placed_above_a_provisional_one_of_the_same_rating() -> None:
    def standing(rating: int, played: int) -> Standing:
        fields_ = {f.name: 0 for f in fields(Standing)}
        return Standing(**{**fields_, "name": "x", "rating": rating,  # type: ignore[arg-type]
                           "played": played})

    board = [standing(1100, 9), standing(1000, 9), standing(1000, 9), standing(1200, 1),
             standing(1100, 2), standing(1100, 3)]
    assert places(board) == [1, 2, 2, 4, 5, 5]


def test_places_rank_the_established_first_and_share_only_equal_orders() -> None:
    """Review: a provisional player with an established one's rating gets a place of their
    own, after every established player; equal orders share one."""
    def standing(uid: int, rating: int, played: int) -> Standing:
        return Standing(uid, f"P{uid}", rating, 0.0, 25.0, 8.0, played, 0, 0, 0, 0, None, 0)

    board = [standing(1, 1100, 9), standing(2, 1050, 7), standing(3, 1050, 6),
             standing(4, 1200, 2), standing(5, 1050, 1), standing(6, 990, 4)]
    assert places(board) == [1, 2, 2, 4, 5, 6]
    assert places(board[::-1]) == [6, 5, 4, 2, 2, 1]
