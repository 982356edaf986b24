"""Scoreboards and player figures from a known history of recorded results."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from bot_kit import drawn_words, plain
from PIL import Image

from bot.errors import UserError
from bot.i18n import Translator
from bot.models import Game, Messages, Player, SeatChange, Status, computer
from bot.presentation.boardtexts import (
    board_heading,
    scoreboard_labels,
    scoreboard_picture,
    scoreboard_text,
    stats_text,
)
from bot.service.ratings import (
    RATING_BASE,
    RATING_SCALE,
    Standing,
    fresh_rating,
    places,
    shown_skill,
    standings,
)
from bot.service.scoreboards import (
    BoardQuery,
    Scoreboard,
    month_start,
    parse_query,
    player_stats,
    scoreboard,
)
from bot.storage import MatchRecord, ResultFilter, Storage, penalty_points
from engine import HandEnded, HandEndReason, MatchEnded, variant

GROUP, OTHER_GROUP = 100, 200
ROBOT = computer("easy", set())  # as the lobby seats one: three stored fields, not two
ANN, BOB, CID, DEE, EVE, COMPUTER = 1, 2, 3, 4, 5, ROBOT.user_id
NAMES = {ANN: "Ann", BOB: "Bob", CID: "Cid", DEE: "Dee", EVE: "Eve", COMPUTER: ROBOT.name}
SINGLES4 = [[0], [1], [2], [3]]
PAIRS = [[0, 2], [1, 3]]


def at(month: int, day: int) -> float:
    return datetime(2024, month, day, 12, tzinfo=UTC).timestamp()


@dataclass(frozen=True)
class Played:
    chat_id: int
    game: str
    seats: tuple[int, ...]  # user ids by seat
    sides: list[list[int]]
    winner: int | None
    scores: list[int]
    finished_at: float
    hands: list[tuple[int | None, list[int]]]  # (winning side, points by side)
    finished: bool = True  # False: stopped, so no match result


HISTORY = (
    Played(GROUP, "gaple", (ANN, BOB, CID, DEE), SINGLES4, 0, [104, 30, 0, 12], at(4, 10),
           [(0, [60, 0, 0, 0]), (1, [0, 30, 0, 0]), (0, [44, 0, 0, 0]), (3, [0, 0, 0, 12])]),
    Played(GROUP, "pair", (ANN, BOB, CID, DEE), PAIRS, 1, [40, 101], at(4, 20),
           [(1, [0, 70]), (0, [40, 0]), (None, [0, 0]), (1, [0, 31])]),
    # A drawn gaple-dead match: Ann and Bob tie for the lowest total; Cid and Eve lost.
    Played(GROUP, "gaple-dead", (ANN, BOB, CID, EVE), SINGLES4, None, [50, 50, 101, 80],
           at(5, 5), [(0, [10, 20, 60, 40]), (1, [40, 30, 41, 40])]),
    # Stopped after one hand: no result, and Cid's hand does not count either.
    Played(GROUP, "gaple", (ANN, BOB, CID, DEE), SINGLES4, None, [0, 0, 50, 0], at(5, 8),
           [(2, [0, 0, 50, 0])], finished=False),
    Played(GROUP, "gaple", (BOB, ANN, COMPUTER, DEE), SINGLES4, 0, [100, 20, 5, 0],
           at(5, 12), [(0, [100, 0, 0, 0]), (1, [0, 20, 0, 0]), (2, [0, 0, 5, 0])]),
    Played(OTHER_GROUP, "pair", (ANN, EVE, DEE, CID), PAIRS, 0, [100, 0], at(5, 15),
           [(0, [100, 0])]),
)


async def record(storage: Storage, played: Played) -> None:
    """Record ``played`` as the bot does when a move finishes hands and a match: the product's
    players, the engine's events, the storage layer's own writes."""
    players = [ROBOT if uid == COMPUTER else Player(uid, NAMES[uid]) for uid in played.seats]
    game = Game(0, played.chat_id, Status.PLAYING, played.game, {}, ANN, players, None, 0, "en",
                Messages())
    game.game_id = await storage.insert_game(game, played.finished_at - 200)
    assert [list(side) for side in variant(played.game).sides(len(players))] == played.sides
    scores = [0] * len(played.sides)
    for number, (winner, points) in enumerate(played.hands):
        scores = [a + b for a, b in zip(scores, points, strict=True)]
        ended = HandEnded(number, HandEndReason.BLOCKED, None, False, winner,
                          (0,) * len(players), tuple(points), tuple(scores))
        await storage.record_results(game, [ended], played.finished_at - 100 + number)
    if played.finished:
        await storage.record_results(
            game, [MatchEnded(played.winner, tuple(played.scores))], played.finished_at)
    await storage.save_status(game, Status.FINISHED if played.finished else Status.STOPPED, [],
                              played.finished_at)


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    store = Storage(database)
    await store.open()
    for played in HISTORY:
        await record(store, played)
    yield store
    await store.close()


def figures(board: Scoreboard) -> dict[str, tuple[object, ...]]:
    """name -> (played, won, drawn, hands played, hands won, points, streak)."""
    return {
        s.name: (s.played, s.won, s.drawn, s.hands_played, s.hands_won, s.points, s.streak)
        for s in board.standings
    }


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


# --- ratings -------------------------------------------------------------------------------
def duel(game_id: int, winner: int, loser: int) -> MatchRecord:
    return MatchRecord(game_id, GROUP, "gaple", ((winner, f"p{winner}"), (loser, f"p{loser}")),
                       ((0,), (1,)), 0, (100, 0), float(game_id))


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
        assert s.skill == pytest.approx(shown_skill(s.mu, s.sigma))
        assert s.rating == round(RATING_BASE + RATING_SCALE * s.skill)
    assert board[0].rating > RATING_BASE > board[1].rating
    assert fresh_rating() == RATING_BASE  # a newcomer shows exactly the base
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


# --- the query and the period --------------------------------------------------------------
def test_scoreboard_words_choose_game_and_period() -> None:
    assert parse_query([]) == BoardQuery()
    assert parse_query(["PAIR", "month"]) == BoardQuery("pair", "month")
    assert parse_query(["all", "gaple-dead"]) == BoardQuery("gaple-dead", "all")
    assert parse_query(["week", "dead"]) == BoardQuery("gaple-dead", "week")
    # names of several words, and the periods in the bot's languages
    assert parse_query(["Домино", "парами", "неделя"]) == BoardQuery("pair", "week")
    assert parse_query(["BULAN", "Gaple", "with", "dead", "tiles"]) == BoardQuery(
        "gaple-dead", "month")
    assert parse_query(["allt"]) == BoardQuery(None, "all")
    with pytest.raises(UserError) as raised:
        parse_query(["pair", "Domino", "Prancis"])
    assert raised.value.params["word"] == "Domino Prancis"
    with pytest.raises(UserError) as raised:
        parse_query(["chess"])
    assert raised.value.params["word"] == "chess"
    for twice in (["month", "all"], ["week", "week"], ["pair", "dead"]):  # which one was meant?
        with pytest.raises(UserError) as raised:
            parse_query(twice)
        assert raised.value.params["word"] == twice[1]


def test_this_month_starts_at_midnight_of_the_first_in_the_groups_time_zone() -> None:
    now = datetime(2024, 3, 1, 2, 30, tzinfo=UTC).timestamp()
    assert month_start(now) == datetime(2024, 3, 1, tzinfo=UTC).timestamp()
    jakarta = ZoneInfo("Asia/Jakarta")
    assert month_start(now, jakarta) == datetime(2024, 3, 1, tzinfo=jakarta).timestamp()
    new_york = ZoneInfo("America/New_York")  # still February there
    assert month_start(now, new_york) == datetime(2024, 2, 1, tzinfo=new_york).timestamp()
    assert BoardQuery(period="month").since(now) == month_start(now)
    assert BoardQuery().since(now) is None


# --- the messages --------------------------------------------------------------------------
class Marking(Translator):
    """English, with every translated piece wrapped in ⟦ ⟧ so untranslated words stand out."""

    def __init__(self) -> None:
        super().__init__("en")

    def __call__(self, message: str, **params: object) -> str:
        return "⟦" + super().__call__(message, **params) + "⟧"

    def plural(self, singular: str, plural: str, count: int, **params: object) -> str:
        return "⟦" + super().plural(singular, plural, count, **params) + "⟧"


def untranslated(text: str, names: Sequence[str]) -> str:
    """What is left of ``text`` outside every translated piece, name, number and mark."""
    while "⟦" in text:
        text = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
    for name in names:
        text = text.replace(name, " ")
    return re.sub(r"</?b>|[\d\s.,:;·()%]", "", text)


async def test_every_word_of_the_scoreboard_message_is_translated(storage: Storage) -> None:
    await storage.remember_user(ANN, "Ann <b>&", None, "en")
    for game in (None, "gaple-dead"):
        board = await scoreboard(storage, GROUP, game, since=at(4, 1))
        text = scoreboard_text(Marking(), board, limit=3)
        assert untranslated(text, ["Ann &lt;b&gt;&amp;", "Bob", "Cid", "Dee", "Eve"]) == ""
        assert "Ann &lt;b&gt;&amp;" in text and "<b>&" not in text
    text = scoreboard_text(Translator("en"), await scoreboard(storage, GROUP, "gaple-dead"), 3)
    assert "penalties" in text and "… and 1 more" in text and "since" not in text


async def test_every_word_of_the_stats_message_is_translated(storage: Storage) -> None:
    text = stats_text(Marking(), await player_stats(storage, ANN))
    assert untranslated(text, ["Ann"]) == ""
    english = stats_text(Translator("en"), await player_stats(storage, ANN))
    assert "Pair dominoes" in english and "in 2 groups" in english and "drawn 1" in english


async def test_an_empty_board_says_so(storage: Storage) -> None:
    board = await scoreboard(storage, OTHER_GROUP, "gaple")
    assert "No finished matches yet: open a table with /newgame." in scoreboard_text(
        Translator("en"), board)


async def test_the_period_is_dated_in_the_groups_time_zone(storage: Storage) -> None:
    now = datetime(2024, 5, 20, tzinfo=UTC).timestamp()
    jakarta = ZoneInfo("Asia/Jakarta")  # its May starts on 30 April, 17:00 UTC
    board = await scoreboard(storage, GROUP, since=BoardQuery(period="month").since(now, jakarta))
    assert "since 2024-05-01" in scoreboard_text(Translator("en"), board, tz=jakarta)
    assert "since 2024-04-30" in scoreboard_text(Translator("en"), board)
    assert board_heading(Translator("en"), board, jakarta)[1] == "since 2024-05-01 · 2 matches"


async def test_the_picture_draws_the_best_players_with_translated_labels(
    storage: Storage,
) -> None:
    labels = scoreboard_labels(Marking())
    assert all(getattr(labels, f.name).startswith("⟦") for f in fields(labels))
    board = await scoreboard(storage, GROUP)
    heights = []
    for limit in (2, 5, 50):
        png = scoreboard_picture(Translator("en"), board, limit=limit)
        with Image.open(io.BytesIO(png)) as image:
            heights.append(image.height)
    assert heights[0] < heights[1] == heights[2]  # five players in the group


def test_this_week_starts_on_monday_at_midnight_in_the_groups_time_zone() -> None:
    wednesday = datetime(2024, 3, 6, 15, tzinfo=UTC).timestamp()
    assert BoardQuery(period="week").since(wednesday) == datetime(2024, 3, 4,
                                                                  tzinfo=UTC).timestamp()
    jakarta = ZoneInfo("Asia/Jakarta")
    monday_early = datetime(2024, 3, 4, 1, tzinfo=jakarta).timestamp()  # Sunday in UTC
    assert BoardQuery(period="week").since(monday_early, jakarta) == datetime(
        2024, 3, 4, tzinfo=jakarta).timestamp()
    assert BoardQuery().since(wednesday) is None


def test_players_with_the_same_rating_share_a_place() -> None:
    def standing(rating: int) -> Standing:
        fields_ = {f.name: 0 for f in fields(Standing)}
        return Standing(**{**fields_, "name": "x", "rating": rating})  # type: ignore[arg-type]

    assert places([standing(1200), standing(1100), standing(1100), standing(900)]) == [1, 2, 2, 4]


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
