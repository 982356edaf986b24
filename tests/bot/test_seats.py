"""A person's games, found by who sat at them (the ``seats`` table, version 11): their open
tables (what a fleet worker asks before their hands, and a receiver for each private
message), the games of their recent hands and their finished matches, on each engine; and
found through the index, not by reading every game's players."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from bot.gamemessages import Messages
from bot.models import Game, Player, SeatChange, Status
from bot.presentation.composer import TextComposer
from bot.presentation.pictures import PictureMaker
from bot.service import GameService
from bot.storage import MIGRATIONS, Storage
from bot.storage.fleet import PLAYER_OPEN_GAMES, games_left_by_player, open_games_of_player
from bot.storage.games import HANDS_OF_PLAYER
from bot.storage.results import MATCHES_OF_PLAYER
from engine import HandEnded, HandEndReason, MatchEnded

ANN, BOB, CID, DEE, EVE, FAY = 1, 2, 3, 4, 12, 13  # 12: holds Ann's id as text, not her seat
ROBOT = Player(-7, "Robot", "hard")


def person(user_id: int) -> Player:
    return Player(user_id, f"p{user_id}")


def lobby(chat_id: int, *people: int) -> Game:
    return Game(0, chat_id, Status.LOBBY, "gaple", {}, people[0],
                [person(p) for p in people], None, 0, "en", Messages())


async def test_a_persons_open_tables_are_those_they_sit_at_now(database: Path | str) -> None:
    storage = Storage(database)
    await storage.open()
    try:
        first = lobby(-100, ANN, BOB)
        first.game_id = await storage.insert_game(first, 1.0)
        second = lobby(-200, EVE, ANN)
        second.game_id = await storage.insert_game(second, 2.0)
        elsewhere = lobby(-300, CID, EVE)
        elsewhere.game_id = await storage.insert_game(elsewhere, 3.0)
        # Bob left the first lobby; Dee joined it.
        first.players = [person(ANN), person(DEE)]
        await storage.save_players(first, [], 4.0)
        assert await open_games_of_player(storage, ANN) == [second.game_id, first.game_id]
        assert await open_games_of_player(storage, BOB) == []
        assert await open_games_of_player(storage, DEE) == [first.game_id]
        assert await open_games_of_player(storage, EVE) == [elsewhere.game_id, second.game_id]
        # A seat taken over mid-game: the computer sits there now, Eve no more.
        elsewhere.status = Status.PLAYING
        elsewhere.seat_changes.append(SeatChange(1, 0, 3, elsewhere.players[1]))
        elsewhere.players[1] = ROBOT
        await storage.save_seats(elsewhere, [], 5.0)
        assert await open_games_of_player(storage, EVE) == [second.game_id]
        assert await open_games_of_player(storage, ROBOT.user_id) == []  # nobody asks
        await storage.save_status(second, Status.CANCELLED, [], 6.0)
        assert await open_games_of_player(storage, ANN) == [first.game_id]
    finally:
        await storage.close()


async def test_the_matches_a_person_may_take_back_a_seat_of_are_found(
        database: Path | str) -> None:
    """What a fleet worker reads for a private /start or /hand from someone seated nowhere:
    the matches under way whose seat was handed on from them while they were away (Eve: the
    way back) or as they left with /leave (Cid: why none), not one whose seat they took back
    (Dee), nor one over."""
    storage = Storage(database)
    await storage.open()
    try:
        games = []
        for chat, people in ((-100, (ANN, EVE)), (-200, (BOB, CID)), (-300, (DEE, FAY)),
                             (-400, (EVE, BOB))):
            game = lobby(chat, *people)
            game.game_id = await storage.insert_game(game, 1.0)
            await storage.save_status(game, Status.PLAYING, [], 1.5)
            games.append(game)
        away, left, back, over = games
        for game, seat, handed_while_away in ((away, 1, True), (left, 1, False),
                                              (back, 0, True), (over, 0, True)):
            game.seat_changes.append(SeatChange(seat, 0, 3, game.players[seat],
                                                handed_while_away))
            game.players[seat] = ROBOT
            await storage.save_seats(game, [], 2.0)
        back.seat_changes.append(SeatChange(0, 0, 5, ROBOT))  # (Dee took it back)
        back.players[0] = person(DEE)
        await storage.save_seats(back, [], 3.0)
        await storage.save_status(over, Status.FINISHED, [], 4.0)
        assert await games_left_by_player(storage, EVE) == [away.game_id]
        assert await games_left_by_player(storage, CID) == [left.game_id]
        assert await games_left_by_player(storage, DEE) == []
        assert await games_left_by_player(storage, ANN) == []  # (seated: nothing to take)
    finally:
        await storage.close()


async def test_a_persons_hands_and_matches_are_found_by_their_seats(
    database: Path | str,
) -> None:
    """Cid left a finished match to a computer: it is his (a lost match) and the hand he sat
    at its end is; Eve, whose id holds Ann's as text, has none of Ann's."""
    storage = Storage(database)
    await storage.open()
    try:
        game = lobby(-100, ANN, BOB, CID, DEE)
        game.game_id = await storage.insert_game(game, 1.0)
        game.status = Status.PLAYING
        await storage.record_results(game, [hand_won(0)], 2.0)
        game.seat_changes.append(SeatChange(2, 1, 0, game.players[2]))
        game.players[2] = ROBOT
        await storage.save_seats(game, [], 3.0)
        await storage.record_results(game, [hand_won(1), MatchEnded(0, (100, 0, 0, 0))], 4.0)
        other = lobby(-200, EVE, BOB)
        other.game_id = await storage.insert_game(other, 5.0)

        assert await storage.recent_games_of(ANN, 5) == [game.game_id]
        assert await storage.recent_games_of(CID, 5) == [game.game_id]  # hand 0's end
        assert await storage.recent_games_of(EVE, 5) == []
        assert [(r.game, r.name) for r in await storage.matches_played_by(CID)] == [
            ("gaple", "p3")]
        assert [r.name for r in await storage.matches_played_by(ANN)] == ["p1"]
        assert await storage.matches_played_by(EVE) == []
    finally:
        await storage.close()


def hand_won(number: int) -> HandEnded:
    return HandEnded(number, HandEndReason.BLOCKED, None, False, 0, (0, 0, 0, 0),
                     (50, 0, 0, 0), (50 * (number + 1), 0, 0, 0))


async def test_version_11_finds_who_sat_at_the_games_before_it(database: Path | str) -> None:
    """Exactly the rows a version-10 bot wrote, each source of seats naming someone no other
    source does: an open table (Ann, Bob), a lobby Bob left (Dee), a finished match whose
    seat Eve left to a computer in its second hand (Cid and the computer at the end), and a
    hand of an old match whose replaced player (Fay) nothing else names. After the
    migration each person's games are found as a bot of today finds them."""
    storage = Storage(database)
    await storage.open(schema_version=10)
    async with storage.transaction() as tx:
        for game_id, chat, status, players, changes in (
            (1, -100, "playing", '[[1,"p1"],[2,"p2"]]', "[]"),
            (2, -200, "lobby", '[[4,"p4"]]', "[]"),
            (3, -300, "finished", '[[3,"p3"],[-7,"Robot","hard"]]', '[[1,1,3,[12,"p12"]]]'),
            (4, -400, "finished", '[[3,"p3"],[-7,"Robot","hard"]]', "[]"),
        ):
            await tx.execute(
                "INSERT INTO games (game_id, chat_id, status, variant, options, creator_id,"
                " players, seat_changes, created_at, updated_at)"
                " VALUES (?, ?, ?, 'gaple', '{}', 1, ?, ?, 0, 0)",
                (game_id, chat, status, players, changes))
        for game_id, hand, players in ((3, 0, '[[3,"p3"],[12,"p12"]]'),
                                       (4, 0, '[[3,"p3"],[13,"p13"]]')):
            await tx.execute(
                "INSERT INTO hand_results (game_id, hand_number, chat_id, variant, players,"
                " winner_side, totals, points, finished_at)"
                " VALUES (?, ?, -1, 'gaple', ?, 0, '[0,0]', '[0,0]', 0)", (game_id, hand, players))
        await tx.execute(
            "INSERT INTO match_results (game_id, chat_id, variant, players, sides,"
            " winner_side, scores, finished_at, leavers)"
            " VALUES (3, -300, 'gaple', '[[3,\"p3\"],[-7,\"Robot\",\"hard\"]]', '[[0],[1]]',"
            " 0, '[100,0]', 9, '[[14,\"p14\",1]]')")  # (14: a leaver only the result names)
    await storage.close()
    await storage.open()
    try:
        assert await storage.schema_version() == len(MIGRATIONS)
        assert await open_games_of_player(storage, ANN) == [1]
        assert await open_games_of_player(storage, BOB) == [1]
        assert await open_games_of_player(storage, DEE) == [2]
        assert await storage.recent_games_of(EVE, 5) == [3]  # (her seat_changes' row)
        assert await storage.recent_games_of(FAY, 5) == [4]  # (the hand's row alone)
        assert await storage.recent_games_of(CID, 5) == [4, 3]
        assert [r.name for r in await storage.matches_played_by(14)] == ["p14"]
        assert [r.name for r in await storage.matches_played_by(CID)] == ["p3"]
        assert await storage.matches_played_by(BOB) == []
        async with storage.transaction() as tx:
            rows = await tx.fetch_all("SELECT user_id, game_id FROM seats ORDER BY 1, 2")
        assert [tuple(row) for row in rows] == [(1, 1), (2, 1), (3, 3), (3, 4), (4, 2), (12, 3),
                                                (13, 4), (14, 3)]  # no computer
    finally:
        await storage.close()


async def test_games_written_without_seats_are_found_once_loaded_or_finished(
        database: Path | str) -> None:
    """In a fleet's rolling upgrade, processes of the older version go on writing games
    without seats beside the new ones for a while: a game is written once a process of
    today loads it (at its start, or taking its shard over), and a result's people with
    it."""
    storage = Storage(database)
    await storage.open()
    try:
        async with storage.transaction() as tx:  # as a version-10 process writes them
            for game_id, players in ((1, '[[1,"p1"],[2,"p2"]]'), (2, '[[3,"p3"],[4,"p4"]]')):
                await tx.execute(
                    "INSERT INTO games (game_id, chat_id, status, variant, options, creator_id,"
                    " players, created_at, updated_at)"
                    " VALUES (?, ?, 'playing', 'gaple', '{}', 1, ?, 0, 0)",
                    (game_id, -100 * game_id, players))
        assert await open_games_of_player(storage, ANN) == []
        service = GameService(storage, TextComposer(PictureMaker("classic")), lambda: bytes(32))
        await service.load_open_games()
        assert await open_games_of_player(storage, ANN) == [1]
        assert await open_games_of_player(storage, DEE) == [2]
        async with storage.transaction() as tx:
            await tx.execute("DELETE FROM seats")
        game = service.open_game_in(-200)
        assert game is not None
        await storage.record_results(game, [hand_won(0), MatchEnded(0, (100, 0))], 1.0)
        assert [r.name for r in await storage.matches_played_by(CID)] == ["p3"]
        assert await storage.recent_games_of(DEE, 5) == [2]
    finally:
        await storage.close()


async def test_a_persons_games_are_looked_up_by_the_index(tmp_path: Path) -> None:
    """SQLite's plan for each of the three lookups: a search of the person's seats, then each
    game, hand or match by its key; never a scan of games or results."""
    storage = Storage(tmp_path / "bot.sqlite3")
    await storage.open()
    await storage.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "bot.sqlite3")) as db:
        for sql in (PLAYER_OPEN_GAMES, HANDS_OF_PLAYER, MATCHES_OF_PLAYER):
            plan = [row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {sql}",
                                                 [1] * sql.count("?"))]
            assert any(step.startswith("SEARCH s USING") and "(user_id=?)" in step
                       for step in plan), plan
            assert not any(step.startswith("SCAN") for step in plan), plan
            if sql is HANDS_OF_PLAYER:  # a page of a person's hands: read in order, not
                assert not any("TEMP B-TREE" in step for step in plan), plan  # all sorted
