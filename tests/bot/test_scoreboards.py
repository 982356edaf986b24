"""Scoreboards and a player's figures (/scoreboard, /stats) from a known history of recorded
results: what counts, by game and period, computers and leavers, penalties and debts."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_kit import drawn_words, plain
from results_kit import (
    ANN,
    BOB,
    CID,
    COMPUTER,
    DEE,
    EVE,
    GROUP,
    HISTORY,
    NAMES,
    ROBOT,
    Played,
    at,
    figures,
    record,
    storage_with_history,  # noqa: F401  (the fixture storage)
)

from bot.gamemessages import Messages
from bot.i18n import Translator
from bot.models import Game, Player, SeatChange, Status
from bot.presentation.boardtexts import scoreboard_picture, scoreboard_text, stats_text
from bot.service.scoreboards import Scoreboard, month_start, player_stats, scoreboard
from bot.storage import MatchRecord, ResultFilter, Storage, penalty_points
from engine import MatchEnded


async def test_a_groups_board_counts_finished_matches_of_every_game(storage: Storage) -> None:
    board = await scoreboard(storage, GROUP)
    assert board.matches == 4
    assert figures(board) == {
        "Ann": (4, 1, 1, 13, 5, None, -1),  # won, lost, drew, lost
        "Bob": (4, 2, 1, 13, 5, None, 1),
        "Cid": (3, 0, 0, 10, 1, None, -3),  # the stopped game's hand is not his
        "Dee": (3, 1, 0, 11, 3, None, -1),
        "Eve": (1, 0, 0, 2, 0, None, -1),
    }
    assert [s.name for s in board.standings][:2] == ["Bob", "Ann"]
    assert board.standings[-1].name == "Cid"


async def test_computers_are_left_off_unless_asked_for(storage: Storage) -> None:
    without = await scoreboard(storage, GROUP)
    assert all(s.user_id != COMPUTER for s in without.standings)
    everyone = await scoreboard(storage, GROUP, include_computers=True)
    robot = next(s for s in everyone.standings if s.user_id == COMPUTER)
    assert robot.is_computer and (robot.played, robot.won, robot.hands_won) == (1, 0, 1)
    assert len(everyone.standings) == len(without.standings) + 1


async def test_filtering_by_game_adds_up_that_games_points(storage: Storage) -> None:
    board = await scoreboard(storage, GROUP, "pair")
    assert board.matches == 1 and not board.penalty_points
    assert figures(board) == {
        "Bob": (1, 1, 0, 4, 2, 101, 1),
        "Dee": (1, 1, 0, 4, 2, 101, 1),
        "Ann": (1, 0, 0, 4, 1, 40, -1),
        "Cid": (1, 0, 0, 4, 1, 40, -1),
    }


async def test_gaple_dead_points_are_penalties_and_a_draw_ties_the_leaders(
    storage: Storage,
) -> None:
    board = await scoreboard(storage, GROUP, "gaple-dead")
    assert board.penalty_points
    assert [s.name for s in board.standings] == ["Ann", "Bob", "Eve", "Cid"]
    ann, bob, eve, cid = board.standings
    assert (ann.points, bob.points, eve.points, cid.points) == (50, 50, 80, 101)
    assert (ann.drawn, ann.lost, bob.drawn, eve.lost, cid.lost) == (1, 0, 1, 1, 1)
    assert ann.mu == pytest.approx(bob.mu) and ann.sigma == pytest.approx(bob.sigma)
    assert bob.skill > eve.skill > cid.skill  # the lower the penalty, the better the place


async def test_a_board_of_every_game_says_penalties_where_its_only_game_counts_them(
    database: Path | str,
) -> None:
    """A group that has played only gaple-dead: its board of every game shows that game's
    points, and they are penalties there too."""
    store = Storage(database)
    await store.open()
    try:
        await record(store, HISTORY[2])  # the gaple-dead match
        board = await scoreboard(store, GROUP)
        assert board.game is None and board.points_game == "gaple-dead" and board.penalty_points
        assert figures(board)["Cid"][5] == 101
        text = scoreboard_text(Translator("en"), board)
        assert "Points here are penalties: fewer is better." in text
        assert "penalty points: 101" in text and "; points: " not in text
        await record(store, HISTORY[0])  # and a gaple match: points of two games, none shown
        mixed = await scoreboard(store, GROUP)
        assert mixed.points_game is None and not mixed.penalty_points
        assert all(s.points is None for s in mixed.standings)
    finally:
        await store.close()


async def test_the_period_filter_keeps_matches_finished_inside_it(storage: Storage) -> None:
    may = month_start(at(5, 20))
    board = await scoreboard(storage, GROUP, since=may)
    assert board.matches == 2
    assert figures(board)["Ann"] == (2, 0, 1, 5, 2, None, -1)
    april = await scoreboard(storage, GROUP, since=month_start(at(4, 30)), until=may)
    assert april.matches == 2
    assert figures(april)["Cid"] == (2, 0, 0, 8, 1, None, -2)
    assert await scoreboard(storage, GROUP, since=at(6, 1)) == Scoreboard(
        GROUP, None, at(6, 1), None, 0, ()
    )


async def test_current_names_replace_the_recorded_ones(storage: Storage) -> None:
    await storage.remember_user(ANN, "Ann <Queen>", None, "en")
    board = await scoreboard(storage, GROUP)
    assert "Ann <Queen>" in [s.name for s in board.standings]


async def test_a_players_stats_cover_every_group_per_game(storage: Storage) -> None:
    stats = await player_stats(storage, ANN)
    assert stats.name == "Ann"
    by_game = {g.game: g for g in stats.games}
    assert [g.game for g in stats.games] == ["gaple", "gaple-dead", "pair"]
    pair = by_game["pair"]
    assert (pair.groups, pair.standing.played, pair.standing.won) == (2, 2, 1)
    assert (pair.standing.points, pair.standing.hands_won, pair.standing.streak) == (140, 2, 1)
    gaple = by_game["gaple"].standing
    assert (gaple.played, gaple.won, gaple.points, gaple.streak) == (2, 1, 124, -1)
    assert penalty_points("gaple-dead") and by_game["gaple-dead"].standing.points == 50


async def test_a_player_without_finished_matches_has_no_stats(storage: Storage) -> None:
    stats = await player_stats(storage, 99, name="Zed")
    assert (stats.name, stats.games) == ("Zed", ())
    assert plain(stats_text(Translator("en"), stats)) == "Zed has not finished a match yet."


async def test_a_leaver_is_recorded_with_the_match(database: Path | str) -> None:
    """On both engines: Eve left seat 2 of a gaple match to a computer, saved as the bot saves
    a seat change; the match's recorded result names her, and her /stats count it."""
    store = Storage(database)
    await store.open()
    try:
        players = [Player(ANN, NAMES[ANN]), Player(BOB, NAMES[BOB]), Player(EVE, NAMES[EVE]),
                   Player(DEE, NAMES[DEE])]
        game = Game(0, GROUP, Status.PLAYING, "gaple", {}, ANN, players, None, 0, "en",
                    Messages())
        game.game_id = await store.insert_game(game, at(6, 1))
        game.seat_changes.append(SeatChange(2, 0, 3, players[2]))
        game.players[2] = ROBOT
        await store.save_seats(game, [], at(6, 1))
        await store.record_results(game, [MatchEnded(0, (100, 0, 5, 0))], at(6, 2))
        (match,) = await store.finished_matches(ResultFilter(chat_id=GROUP))
        assert match.leavers == ((EVE, NAMES[EVE], 2),)
        assert [(r.game, r.name) for r in await store.matches_played_by(EVE)] == [
            ("gaple", NAMES[EVE])]
        eve = (await player_stats(store, EVE)).games[0].standing
        assert (eve.played, eve.won) == (1, 0)
    finally:
        await store.close()


SIX_MATADOR = (  # Six-matador's scores go below 0 with knocks: debts count as they are
    Played(GROUP, "six-matador", (ANN, BOB, CID), [[0], [1], [2]], 1, [-8, 104, 30],
           at(6, 1), [(1, [-14, 60, 20]), (1, [6, 44, 10])]),
    Played(GROUP, "six-matador", (ANN, BOB, CID), [[0], [1], [2]], 0, [102, 30, -40],
           at(6, 2), [(0, [102, 30, -40])]),
)


async def test_six_matador_debts_count_on_the_board_and_in_stats(
    database: Path | str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    store = Storage(database)
    await store.open()
    try:
        for played in SIX_MATADOR:
            await record(store, played)
        first = MatchRecord(11, GROUP, "six-matador", ((ANN, "Ann"), (BOB, "Bob"), (CID, "Cid")),
                            ((0,), (1,), (2,)), 1, (-8, 104, 30), at(6, 1))
        assert first.ranks() == [3.0, 1.0, 2.0]  # a debt is the last place
        board = await scoreboard(store, GROUP, "six-matador")
        assert not board.penalty_points
        assert figures(board) == {
            "Ann": (2, 1, 0, 3, 1, 94, 1),
            "Bob": (2, 1, 0, 3, 2, 134, -1),
            "Cid": (2, 0, 0, 3, 0, -10, -2),
        }
        assert board.standings[-1].name == "Cid"
        text = scoreboard_text(Translator("en"), board)
        assert "points: -10" in text and "points: 134" in text
        drawn = drawn_words(monkeypatch)
        scoreboard_picture(Translator("en"), board)
        assert "-10" in drawn and "134" in drawn
        stats = await player_stats(store, CID)
        assert stats.games[0].standing.points == -10
        assert "points: -10" in stats_text(Translator("en"), stats)
    finally:
        await store.close()
