"""A match stopped after people left it, without Telegram: each way it can stop keeps the
leavers' losses (and only theirs), on both engines; who may still stop it."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from test_games import (
    ANN,
    BOB,
    CID,
    DAN,
    RecordingComposer,
    people_storage,
    service_for,
    started_game,
)

from bot.errors import GameOverError, NotPlayingError, UserError
from bot.i18n import Translator
from bot.models import Game, MatchRatings, Outgoing, Player, Status
from bot.presentation.boardtexts import board_heading
from bot.service import GameService
from bot.service.ratings import fresh_rating, standings
from bot.service.scoreboards import player_stats, scoreboard
from bot.storage import MatchRecord, ResultFilter, Storage
from engine import MatchEnded

GROUP = -100


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    """A database of either engine whose people opened their private chats with the bot."""
    async with people_storage(database) as store:
        yield store


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


class Composer(RecordingComposer):
    def topic_gone(self, game: Game, deleted: bool, ratings: MatchRatings,
                   topic: str | None = None) -> list[Outgoing]:
        leavers = f" {list(ratings.leavers)}" if ratings.leavers else ""
        return [Outgoing(f"topic gone{leavers}")]


async def stop_by_creator_as_admin(service: GameService, game: Game, clock: Clock) -> None:
    await service.stop(game, ANN.user_id, is_admin=True)


async def bot_removed(service: GameService, game: Game, clock: Clock) -> None:
    await service.abandon(game)


async def topic_closed(service: GameService, game: Game, clock: Clock) -> None:
    game.thread_id = 7  # (as a forum's game has it)
    assert await service.topic_gone(game, 7, deleted=False)


async def everybody_away(service: GameService, game: Game, clock: Clock) -> None:
    """The people still seated let their turns run out, three in a row each: the game stops
    by itself (Play._play), in a move's own commit."""
    match = game.match
    assert match is not None
    while game.status is Status.PLAYING:
        clock.now += 91
        seat = match.to_move
        assert seat is not None
        if game.players[seat].is_computer:  # as its timer would make it
            await service.act(game, game.players[seat].user_id, game.move_no,
                              match.legal_actions()[0])
        else:
            await service.expire(game, game.move_no)


@pytest.mark.parametrize("ending", [stop_by_creator_as_admin, bot_removed, topic_closed,
                                    everybody_away])
async def test_every_way_a_match_stops_keeps_the_leavers_losses_alone(
        storage: Storage, ending: object) -> None:
    clock = Clock()
    seeds = itertools.count(1000)
    service = GameService(storage, Composer(), lambda: next(seeds).to_bytes(32, "big"),
                          clock=clock)
    game = await service.create(GROUP, ANN, "pair", "en", turn_seconds=90)
    for player in (BOB, CID, DAN):
        await service.join(game, player)
    await service.start(game, ANN.user_id)
    await service.quit(game, BOB.user_id)
    await ending(service, game, clock)  # type: ignore[operator]
    assert game.status is Status.STOPPED
    (record,) = await storage.finished_matches(ResultFilter(chat_id=GROUP))
    assert record.stopped and record.winner is None and record.leavers == ((2, "Bob", 1),)
    assert await storage.hands_of_finished_matches(ResultFilter(chat_id=GROUP)) == []
    board = await scoreboard(storage, GROUP, include_computers=True)
    assert (board.matches, board.stopped) == (0, 1)  # a loss for Bob, no match the group played
    assert [(s.name, s.played, s.won, s.hands_played) for s in board.standings] == [
        ("Bob", 1, 0, 0)]
    assert board.standings[0].rating < fresh_rating()
    for person in (ANN, CID, DAN):  # nobody won it, and nobody seated lost it
        assert (await player_stats(storage, person.user_id)).games == ()
        assert await storage.matches_played_by(person.user_id) == []
    bob = (await player_stats(storage, BOB.user_id)).games
    assert [(g.game, g.standing.played, g.standing.won) for g in bob] == [("pair", 1, 0)]
    # Said with the stop, as a finished match says its changes: the leaver's alone (the bot
    # removed from the group says nothing there).
    said = [item.text for item in await storage.pending_outbox(game.game_id)]
    change = board.standings[0].rating - fresh_rating()
    leavers = f"[('Bob', {change})]"
    assert change < 0
    assert [text for text in said if leavers in text] == (
        [] if ending is bot_removed else [said[-1]]), said


async def test_a_stopped_match_is_its_leavers_loss_but_no_match_the_group_played(
        storage: Storage) -> None:
    """QA: /scoreboard counted a match stopped after Bob left as one of the group's matches.
    It is his loss, on the board and in /stats (played and lost), but the group played one
    match to its end, which is what the others' figures and the board's count say."""
    service = service_for(storage)
    stopped = await started_game(service)
    await service.quit(stopped, BOB.user_id)
    await service.stop(stopped, ANN.user_id, is_admin=True)
    finished = await started_game(service)  # the same four play one to its end
    await storage.record_results(finished, [MatchEnded(0, (101, 20))], 10.0)
    await storage.save_status(finished, Status.FINISHED, [], 10.0)
    board = await scoreboard(storage, GROUP)
    assert (board.matches, board.stopped) == (1, 1)
    assert {s.name: (s.played, s.lost) for s in board.standings} == {
        "Ann": (1, 0), "Cid": (1, 0), "Bob": (2, 2), "Dan": (1, 1)}
    for person in (ANN, BOB, CID, DAN):  # /stats says what the board says
        (figures,) = (await player_stats(storage, person.user_id)).games
        assert figures.standing == next(s for s in board.standings
                                         if s.user_id == person.user_id)
    details = board_heading(Translator("en"), board)[1]
    assert details == "all time · 1 match · 1 match stopped after someone left"
    assert board_heading(Translator("en"), replace(board, stopped=0))[1] == "all time · 1 match"


async def test_a_stopped_match_nobody_left_is_no_result(storage: Storage) -> None:
    service = service_for(storage)
    game = await started_game(service)
    await service.stop(game, ANN.user_id, is_admin=False)
    assert await storage.finished_matches(ResultFilter()) == []


async def test_a_creator_who_left_may_no_longer_stop_the_game(storage: Storage) -> None:
    """Her seat is a computer's: she no longer speaks for the people still playing, unless
    she is an admin of the group; the others' rights are as before."""
    service = service_for(storage)
    game = await started_game(service)
    service.check_may_stop(game, ANN.user_id, is_admin=False)  # seated: she may
    await service.quit(game, ANN.user_id)
    with pytest.raises(UserError) as refused:
        await service.stop(game, ANN.user_id, is_admin=False)
    assert refused.value.message == "You are not playing in this game."
    # Nor may she hand another's seat to a computer (its player would keep a loss for it),
    # though he is away.
    bob = game.seat_of(BOB.user_id)
    assert bob is not None
    game.timer.away.append(bob)
    with pytest.raises(UserError) as refused:
        await service.replace_away(game, ANN.user_id, False, bob)
    assert refused.value.message == "You are not playing in this game."
    with pytest.raises(UserError) as refused:
        service.check_may_stop(game, BOB.user_id, is_admin=False)
    assert refused.value.message == "Only the game's creator or a group admin can stop it."
    assert game.status is Status.PLAYING
    await service.stop(game, ANN.user_id, is_admin=True)
    assert game.status is Status.STOPPED
    with pytest.raises(UserError) as refused:
        service.check_may_stop(game, ANN.user_id, is_admin=True)
    assert refused.value.message == "This game is over."


def test_leaving_a_stopped_duel_rates_as_leaving_one_the_side_lost() -> None:
    """Two sides: a leaver of a stopped match gets the change a leaver gets whose side went
    on to lose (the same opponents), and the stopped match moves nobody else."""
    pair = ((0, 2), (1, 3))
    seated = ((7001, "robot"), (2, "b"), (3, "c"), (4, "d"))
    stopped = MatchRecord(1, 1, "pair", seated, pair, None, (20, 40), 1.0,
                          leavers=((5, "e", 0),), stopped=True)
    lost = MatchRecord(1, 1, "pair", seated, pair, 1, (20, 101), 1.0, leavers=((5, "e", 0),))
    (leaver,) = standings([stopped], [])
    by_id = {s.user_id: s for s in standings([lost], [])}
    assert (leaver.user_id, leaver.played, leaver.won, leaver.streak) == (5, 1, 0, -1)
    assert leaver.mu == pytest.approx(by_id[5].mu)
    assert leaver.sigma == pytest.approx(by_id[5].sigma)
    assert leaver.rating == by_id[5].rating < fresh_rating()


def test_a_stopped_match_reads_the_others_ratings_as_they_were() -> None:
    """A leaver who walks out on stronger opponents loses less than on weaker ones, as in a
    finished match: the seated players' earlier matches count, and are left as they were."""
    duel = ((0,), (1,))

    def won(game_id: int, winner: int, loser: int) -> MatchRecord:
        return MatchRecord(game_id, 1, "gaple", ((winner, "w"), (loser, "l")), duel, 0,
                           (100, 0), float(game_id))
    strong = [won(n, 10, 11) for n in range(1, 6)]
    walked_out = MatchRecord(9, 1, "gaple", ((-1, "robot"), (10, "w")), duel, None, (0, 0),
                             9.0, leavers=((5, "e", 0),), stopped=True)
    weak_side = MatchRecord(9, 1, "gaple", ((-1, "robot"), (11, "l")), duel, None, (0, 0),
                            9.0, leavers=((5, "e", 0),), stopped=True)
    against_strong = {s.user_id: s for s in standings([*strong, walked_out], [])}
    against_weak = {s.user_id: s for s in standings([*strong, weak_side], [])}
    assert against_strong[5].rating > against_weak[5].rating
    before = {s.user_id: s for s in standings(strong, [])}
    assert against_strong[10] == before[10] and against_weak[11] == before[11]
    assert -1 not in against_strong  # the computer seated at the stop is on no board



async def test_a_player_whose_seat_was_taken_is_told_why_not_that_they_never_played(
        storage: Storage) -> None:
    """Ann left, Bob's seat was handed on while he was away: their old hands' buttons (and
    /hand) say so; once the game is over, that it is over; a stranger is not playing."""
    service = service_for(storage)
    game = await started_game(service)
    await service.quit(game, ANN.user_id)
    bob = game.seat_of(BOB.user_id)
    assert bob is not None
    game.timer.away.append(bob)
    await service.replace_away(game, CID.user_id, True, bob)
    said = {}
    for user in (ANN, BOB, Player(99, "Eve")):
        with pytest.raises(NotPlayingError) as refused:
            service.seat_of(game, user.user_id)
        said[user.name] = refused.value.message
    assert said == {
        "Ann": "You left this game: a computer player plays your seat now.",
        # (he may take it back while the match is on: bot.service.returns)
        "Bob": "A computer player took your seat while you were away and plays it for now: "
               "“↩ Take my seat back” in our private chat gives it back to you.",
        "Eve": "You are not playing in this game."}
    await service.stop(game, CID.user_id, is_admin=True)
    with pytest.raises(GameOverError):
        service.seat_of(game, BOB.user_id)
