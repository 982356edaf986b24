"""Ratings from recorded matches: who gains what against whom, partners, leavers, the order of
the records, the rating shown and the places it gives."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest
from results_kit import GROUP

from bot.service.ratings import (
    RATING_BASE,
    RATING_SCALE,
    Standing,
    fresh_rating,
    next_shown,
    places,
    shown_skill,
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


def test_the_rating_shown_is_the_estimate_damped_by_what_is_not_known_yet() -> None:
    board = standings([duel(1, 1, 2)], [])
    assert [(s.user_id, s.streak) for s in board] == [(1, 1), (2, -1)]
    for s in board:
        assert s.skill == pytest.approx(shown_skill(s.mu, s.played))  # after one match
        assert s.rating == round(RATING_BASE + RATING_SCALE * s.skill)
    assert board[0].rating > RATING_BASE > board[1].rating
    assert fresh_rating() == RATING_BASE  # a newcomer shows exactly the base
    assert shown_skill(40.0, 0) == 0.0 and next_shown(0.0, 25.0, 40.0, 0) == 0.0
    assert standings([], []) == ()


def test_a_first_match_moves_the_ratings_a_little_and_losers_never_gain() -> None:
    """Issue 24: the conservative mu - 3 sigma moved a first match of four by +208 and even
    raised the losers' ratings (everyone's sigma shrinks); the damped estimate moves it by
    tens, down for every loser."""
    def first_match(scores: tuple[int, ...]) -> list[int]:
        record = MatchRecord(1, GROUP, "gaple", tuple((i, f"p{i}") for i in range(1, 5)),
                             ((0,), (1,), (2,), (3,)), 0, scores, 1.0)
        moved = {s.user_id: s.rating - RATING_BASE for s in standings([record], [])}
        return [moved[u] for u in range(1, 5)]

    ranked = first_match((100, 40, 30, 20))  # the ordinal showed about +208/+103/-3/-108
    assert ranked == sorted(ranked, reverse=True) and all(abs(m) <= 50 for m in ranked)
    assert ranked[0] > 0 > ranked[-1]
    one_winner = first_match((100, 0, 0, 0))  # the ordinal raised the three losers
    assert 0 < one_winner[0] <= 50
    assert all(-30 <= m < 0 for m in one_winner[1:]), one_winner
    # As the bot learns, the shown rating moves towards the estimate mu itself.
    def winner_after(wins: int) -> Standing:
        return next(s for s in standings([duel(n, 1, 2) for n in range(1, wins + 1)], [])
                    if s.user_id == 1)

    early, late = winner_after(3), winner_after(30)
    assert RATING_BASE < early.rating < late.rating < RATING_BASE + RATING_SCALE * (late.mu - 25)
    share = (late.rating - RATING_BASE) / (RATING_SCALE * (late.mu - 25))
    assert share > (early.rating - RATING_BASE) / (RATING_SCALE * (early.mu - 25))


def test_players_with_the_same_rating_share_a_place() -> None:
    def standing(rating: int) -> Standing:
        fields_ = {f.name: 0 for f in fields(Standing)}
        return Standing(**{**fields_, "name": "x", "rating": rating})  # type: ignore[arg-type]

    assert places([standing(1200), standing(1100), standing(1100), standing(900)]) == [1, 2, 2, 4]


def test_a_first_win_moves_the_rating_visibly_whatever_the_matchs_shape() -> None:
    """Damped by sigma, a first pair win showed +1 and a first win of two +3 (sigma shrinks
    little in those), a first win of four +30; damped by matches played, each is in sight."""
    pair = shown([match(1, "pair", (1, 2, 3, 4))])
    assert pair[1] == pair[3] >= 8 and pair[2] == pair[4] <= -8
    two = shown([match(1, "gaple", (1, 2))])
    assert two[1] >= 8 and two[2] <= -8
    four = shown([match(1, "gaple", (1, 2, 3, 4))])
    three = shown([match(1, "gaple", (1, 2, 3))])
    assert two[1] <= three[1] <= four[1] <= 50  # a bigger match says more, not wildly more
    assert all(-20 <= m <= -8 for m in (*four.values(), *three.values()) if m < 0)


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
    """The share of mu shown grows with every match played, lost ones too: a newcomer's lucky
    win of four (+40), then a loss to a regular of two, moved mu down by 2.5 and the share
    from 1/4 to 2/5, which alone would show +46. The rating shown falls instead."""
    history = [match(n, "gaple", (1, 2)) for n in range(1, 9)]  # 1 is a regular, 2 is beaten
    history.append(match(9, "gaple", (50, 60, 61, 62)))  # 50's first match, won
    lucky = shown(history)[50]
    history.append(match(10, "gaple", (1, 50)))
    assert shown(history)[50] <= lucky - 8


def test_a_match_that_leaves_mu_as_it_was_leaves_the_rating_too() -> None:
    """The share grows with every match: a player above the start whose mu a match left
    where it was would rise by it alone (review: "moves the way mu moved")."""
    mu = 40.0
    shown = shown_skill(mu, 1) - 2.0  # below its target: a loss had held it down
    assert next_shown(shown, mu, mu, 2) == shown
    assert next_shown(shown, mu, mu + 1e-9, 2) > shown  # (any rise still lets it catch up)


def test_over_mixed_matches_the_rating_moves_with_the_estimate() -> None:
    """Sixty matches of every shape among six players: a loser of two sides or the last of
    several never rises, a winner never falls, and the shown rating stays near the damped
    estimate, coming to it as the share shown stops growing."""
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
            moved, now = after[player].skill - was.skill, after[player]
            assert moved * (now.mu - was.mu) > 0, (game_id, player)  # the way the estimate went
            if seat % sides == winner:
                assert moved > 0, (game_id, player)
            elif sides == 2:
                assert moved < 0, (game_id, player)
        before = after
    assert min(s.played for s in before.values()) >= 30
    for s in before.values():  # after 30 matches or more, within 2 of the damped estimate
        assert RATING_SCALE * abs(s.skill - shown_skill(s.mu, s.played)) <= 2
