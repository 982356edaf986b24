"""A seat handed to a computer while its player was away, taken back by them during the match
(bot.service.returns): who may, when, what is recorded, and how results and ratings read it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from test_games import ANN, BOB, CID, people_storage, play_to_the_end, service_for, started_game

from bot.errors import OutOfDateError, SeatHandedOnError, UserError
from bot.gamemessages import Messages
from bot.i18n import translator
from bot.models import Game, Player, SeatChange, Status
from bot.presentation import captions
from bot.service import GameService
from bot.service.lobby import players_of, seated_again
from bot.service.ratings import standings
from bot.service.returns import ALREADY_BACK, LEFT_FOR_GOOD, MATCH_OVER, may_take_back
from bot.service.scoreboards import rating_changes
from bot.storage import MatchRecord, Storage, leavers_of
from bot.wording import named
from engine import MatchEnded, Play, player_view


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    async with people_storage(database) as store:
        yield store


async def hand_bob_over(service: GameService, game: Game) -> int:
    """Bob is away and Ann, the creator, hands his seat to a computer: his seat."""
    bob = game.seat_of(BOB.user_id)
    assert bob is not None
    game.timer.away.append(bob)
    game.timer.timeouts[bob] = 3
    await service.replace_away(game, ANN.user_id, False, bob)
    assert game.players[bob].is_computer
    return bob


def moves_made(game: Game) -> tuple[int, int]:
    assert game.match is not None
    return game.match.hand.number, len(game.match.hand.moves)


async def test_an_away_player_takes_their_seat_back_and_history_keeps_who_moved(
        storage: Storage) -> None:
    service = service_for(storage)
    game = await started_game(service)
    computer_moves = 0
    bob = await hand_bob_over(service, game)
    robot = game.players[bob]
    with pytest.raises(SeatHandedOnError) as told:  # his old buttons: the way back
        service.seat_of(game, BOB.user_id)
    assert told.value.seat == bob and "Take my seat back" in told.value.message
    assert may_take_back(game, BOB.user_id) and not may_take_back(game, CID.user_id)
    handed_at = moves_made(game)
    # The computer plays a turn or two of his seat before he is back.
    assert game.match is not None
    while computer_moves < 2 and game.status is Status.PLAYING:
        seat = game.match.to_move
        assert seat is not None
        await service.act(game, game.players[seat].user_id, game.move_no,
                          game.match.legal_actions()[0])
        computer_moves += seat == bob
    back_at = moves_made(game)
    before = await storage.pending_outbox(game.game_id)
    given_back = await service.take_back(game, BOB.user_id, bob, "Bob B.")
    assert given_back == robot
    assert game.players[bob].user_id == BOB.user_id and game.players[bob].name == "Bob B."
    assert game.seat_changes[-1] == SeatChange(bob, *back_at, robot)
    assert bob not in game.timer.away and bob not in game.timer.timeouts
    said = [item.text for item in await storage.pending_outbox(game.game_id)]
    assert said[len(before):] == [f"Bob B. back from {robot.name}"]
    # Each move's player, as replays, /verify and the table read it.
    assert game.player_at(bob, handed_at[0], handed_at[1] - 1).user_id == BOB.user_id
    assert game.player_at(bob, *handed_at) == robot
    assert game.player_at(bob, back_at[0], back_at[1] - 1) == robot
    assert game.player_at(bob, *back_at).user_id == BOB.user_id
    # Stored so: a restart reads the same seats and changes.
    fresh = await storage.load_game(game.game_id)
    assert fresh is not None
    assert fresh.players == game.players and fresh.seat_changes == game.seat_changes
    # A second tap, or one late in a race, finds the seat his already.
    with pytest.raises(UserError) as refused:
        await service.take_back(game, BOB.user_id, bob)
    assert refused.value.message == ALREADY_BACK
    # He plays on to the end: one of the seated, credited with the seat's result, no leaver.
    await play_to_the_end(service, game)
    assert game.status is Status.FINISHED
    assert leavers_of(game.players, game.seat_changes) == ()
    rows = await storage.fetch_all("SELECT players, leavers FROM match_results WHERE game_id=?",
                                   (game.game_id,))
    assert str(BOB.user_id) in rows[0]["players"] and rows[0]["leavers"] == "[]"
    with pytest.raises(UserError) as refused:  # (seated: his seat)
        await service.take_back(game, BOB.user_id, bob)
    assert refused.value.message == ALREADY_BACK


async def test_the_match_end_credits_the_returner_as_seated_not_as_a_leaver(
        storage: Storage) -> None:
    service = service_for(storage)
    game = await started_game(service)
    bob = await hand_bob_over(service, game)
    await service.take_back(game, BOB.user_id, bob)
    ratings = await rating_changes(storage, game, None, 0.0)  # (as a stop would say it)
    assert ratings.leavers == ratings.away == ratings.handed_on == ()
    await play_to_the_end(service, game)
    assert game.match is not None and game.match.result is not None
    ended = MatchEnded(game.match.result.winner, game.match.scores)
    ratings = await rating_changes(storage, game, ended, 1.0)
    assert ratings.seats[bob] is not None and ratings.leavers == ratings.away == ()


async def test_only_the_away_player_may_and_only_while_the_computer_has_the_seat(
        storage: Storage) -> None:
    service = service_for(storage)
    game = await started_game(service)
    bob = await hand_bob_over(service, game)
    ann = game.seat_of(ANN.user_id)
    assert ann is not None
    with pytest.raises(OutOfDateError):  # someone else (seated elsewhere) with his button
        await service.take_back(game, CID.user_id, bob)
    with pytest.raises(OutOfDateError):  # his button for another seat
        await service.take_back(game, BOB.user_id, (bob + 1) % 4)
    # Ann leaves on purpose: hers is the computer's for good.
    await service.quit(game, ANN.user_id)
    with pytest.raises(UserError) as refused:
        await service.take_back(game, ANN.user_id, ann)
    assert refused.value.message == LEFT_FOR_GOOD
    with pytest.raises(SeatHandedOnError) as told:
        service.seat_of(game, ANN.user_id)
    assert told.value.seat is None
    # The match ends (stopped): too late.
    await service.stop(game, CID.user_id, is_admin=True)
    with pytest.raises(UserError) as refused:
        await service.take_back(game, BOB.user_id, bob)
    assert refused.value.message == MATCH_OVER
    assert game.players[bob].is_computer and not may_take_back(game, BOB.user_id)


async def test_a_computer_decision_thought_out_before_the_return_is_dropped(
        storage: Storage) -> None:
    service = service_for(storage)
    game = await started_game(service)
    bob = await hand_bob_over(service, game)
    assert game.match is not None
    while game.match.to_move != bob:  # the others play until it is the computer's turn
        seat = game.match.to_move
        assert seat is not None
        await service.act(game, game.players[seat].user_id, game.move_no,
                          game.match.legal_actions()[0])
    question = service.computer_question(game, game.move_no)
    assert question is not None and question.seat == bob
    before = (game.move_no, moves_made(game))
    game.turn_seconds = 60  # (a table with a turn clock)
    await service.take_back(game, BOB.user_id, bob)
    assert await service.computer_move(game, question, 0) == []  # no move for him
    assert (game.move_no, moves_made(game)) == before
    assert game.match.to_move == bob and game.deadline == 60.0  # his turn, his clock
    await service.act(game, BOB.user_id, game.move_no, game.match.legal_actions()[0])
    assert game.move_no > before[0]


async def test_a_return_that_fails_to_commit_changes_nothing(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    service = service_for(storage)
    game = await started_game(service)
    bob = await hand_bob_over(service, game)
    seats, changes = list(game.players), list(game.seat_changes)

    async def broken(*args: object) -> None:
        raise OSError("disk full")
    monkeypatch.setattr(storage, "save_seats", broken)
    with pytest.raises(OSError):
        await service.take_back(game, BOB.user_id, bob)
    assert game.players == seats and game.seat_changes == changes
    monkeypatch.undo()
    await service.take_back(game, BOB.user_id, bob)
    assert game.players[bob].user_id == BOB.user_id


async def test_back_then_away_again_or_gone_reads_as_the_last_change_says(
        storage: Storage) -> None:
    """Back, then handed on while away again: away (Play again seats him, he is rated as
    one replaced while away); back, then /leave: he left."""
    service = service_for(storage)
    game = await started_game(service)
    bob = await hand_bob_over(service, game)
    await service.take_back(game, BOB.user_id, bob)
    await service.quit(game, BOB.user_id)
    assert not may_take_back(game, BOB.user_id)
    assert game.status is Status.PLAYING
    assert seated_again(game)[bob] is None  # open: Bob left, and his stand-in is not seated
    assert BOB.user_id in [p.user_id for p in players_of(game)]  # (he may take it)
    ratings = await rating_changes(storage, game, None, 0.0)
    assert [name for name, _ in ratings.leavers] == ["Bob"] and ratings.away == ()



def test_a_person_seated_at_the_end_is_rated_once_even_if_a_record_names_them_a_leaver() -> None:
    """The rule (bot.service.ratings._rate_leavers): seated at the end, the seat's result
    alone; a record that also named them a leaver changes nothing."""
    pair = ((0, 2), (1, 3))
    seated = ((1, "a"), (2, "b"), (3, "c"), (4, "d"))
    won = MatchRecord(1, 1, "pair", seated, pair, 0, (101, 20), 1.0)
    also_leaver = MatchRecord(1, 1, "pair", seated, pair, 0, (101, 20), 1.0,
                              leavers=((1, "a", 0),))
    assert standings([also_leaver], []) == standings([won], [])
    (a,) = [s for s in standings([also_leaver], []) if s.user_id == 1]
    assert (a.played, a.won) == (1, 1)


async def test_a_return_on_anothers_turn_leaves_that_turns_clock_alone(storage: Storage) -> None:
    service = service_for(storage)
    game = await started_game(service)
    game.turn_seconds = 60
    bob = await hand_bob_over(service, game)
    assert game.match is not None
    while game.match.to_move in (bob, None) or game.players[game.match.to_move].is_computer:
        seat = game.match.to_move
        assert seat is not None
        await service.act(game, game.players[seat].user_id, game.move_no,
                          game.match.legal_actions()[0])
    game.deadline = 30.0  # half of that turn gone
    service.clock = lambda: 45.0
    await service.take_back(game, BOB.user_id, bob)
    assert game.deadline == 30.0


def test_each_seats_last_change_and_each_persons_last_change() -> None:
    """The one rule taking a seat back reads (Game.last_changes, Game.last_change_of): the
    last change of each seat, and the last change that took a seat from a person."""
    rio, zeno = Player(-201, "🤖 Rio", "normal"), Player(-202, "🤖 Zeno", "normal")
    game = Game(1, -100, Status.PLAYING, "gaple", {}, ANN.user_id, [zeno, rio], None, 0, "en",
                Messages())
    away = SeatChange(1, 0, 3, BOB, away=True)
    back = SeatChange(1, 0, 5, rio)
    gone = SeatChange(1, 0, 7, BOB)
    game.seat_changes = [away, back, gone, SeatChange(0, 0, 8, ANN, away=True)]
    assert game.last_changes() == {1: gone, 0: game.seat_changes[-1]}
    assert game.last_change_of(BOB.user_id) == gone  # (back, then /leave: gone)
    assert game.last_change_of(rio.user_id) == back
    assert game.last_change_of(CID.user_id) is None
    game.seat_changes = []
    assert game.last_changes() == {} and game.last_change_of(BOB.user_id) is None


async def test_a_fleet_worker_reads_the_match_whose_seat_went_while_away(
        storage: Storage) -> None:
    """A private /start (or /hand) from Bob, whose seat went to a computer while he was
    away, handled by a fleet worker whose memory lacks the match (its group's game just
    moved into its shards): the match is read into memory and run, and gives the way back
    (before: memory alone was asked, and Bob was greeted as a newcomer)."""
    here = service_for(storage)
    game = await started_game(here)
    await hand_bob_over(here, game)
    there = service_for(storage)
    assert await there.read_games_left_by(BOB.user_id) == []  # one process: memory is all
    loaded: list[int] = []
    there.on_load = lambda g: loaded.append(g.game_id)  # a fleet worker
    games = await there.read_games_left_by(BOB.user_id)
    assert [g.game_id for g in games] == [game.game_id] and loaded == [game.game_id]
    assert games[0] is there.game(game.game_id)
    assert there.handed_while_away(games[0], BOB.user_id) is not None
    assert await there.read_games_left_by(ANN.user_id) == []  # (she sits there)
    assert await there.read_games_left_by(BOB.user_id) == games  # (memory has it now)


async def test_a_fleet_worker_reads_the_match_left_with_leave(storage: Storage) -> None:
    """Review: on a fleet worker whose memory lacks the match, a private /hand from Bob who
    left it with /leave found nothing ("You are not playing a game right now"): the
    database's matches left were those handed on while away only. It is read now, with no
    way back (one process: memory's, which held it already)."""
    here = service_for(storage)
    game = await started_game(here)
    await here.quit(game, BOB.user_id)
    there = service_for(storage)
    there.on_load = lambda g: None  # a fleet worker
    games = await there.read_games_left_by(BOB.user_id)
    assert [g.game_id for g in games] == [game.game_id]
    assert there.handed_while_away(games[0], BOB.user_id) is None
    change = games[0].last_change_of(BOB.user_id)
    assert change is not None and not change.away


async def test_the_moves_a_computer_made_in_the_seat_are_not_told_as_the_players_own(
        storage: Storage) -> None:
    """Review: back with "↩ Take my seat back", Bob read "✔ You laid 4-6 on the right." of
    the lay the computer made in his seat while he was away; it is the computer's."""
    service = service_for(storage)
    game = await started_game(service)
    bob = await hand_bob_over(service, game)
    robot = game.players[bob]
    assert game.match is not None
    laid = None
    while laid is None or game.match.to_move == bob:  # until the computer laid, then on
        seat = game.match.to_move
        assert seat is not None and game.status is Status.PLAYING
        action = next((a for a in game.match.legal_actions() if isinstance(a, Play)),
                      game.match.legal_actions()[0])
        await service.act(game, game.players[seat].user_id, game.move_no, action)
        if seat == bob and isinstance(action, Play):
            laid = action.tile
    await service.take_back(game, BOB.user_id, bob, "Bob B.")
    view = player_view(game.match, bob)
    caption = captions.hand_caption(translator("en"), game, view)
    assert f"You laid {laid}" not in caption, caption
    game.match.play_forced()
    while game.match.to_move != bob:  # his turn: the computer's lay among the others' moves
        seat = game.match.to_move
        assert seat is not None
        await service.act(game, game.players[seat].user_id, game.move_no,
                          game.match.legal_actions()[0])
    caption = captions.hand_caption(translator("en"), game, player_view(game.match, bob))
    assert f"You laid {laid}" not in caption and f"{named(robot.name)} laid {laid}" in caption
