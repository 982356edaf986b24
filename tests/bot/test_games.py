"""The game service without Telegram: lobby rules, turns, stale buttons, persistence."""

from __future__ import annotations

import ast
import itertools
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from bot_kit import plain

from bot.errors import UserError
from bot.gamemessages import Messages
from bot.i18n import translator
from bot.models import Game, MatchRatings, Outgoing, Player, Status, move_number
from bot.presentation.resulttexts import hand_result_text
from bot.service import GameService
from bot.service.locks import Locks
from bot.storage import Storage
from engine import KNOCK, Event, HandEnded, MatchEnded, Play, Tile, replay, table_view

ANN, BOB, CID, DAN = (Player(i, n) for i, n in ((1, "Ann"), (2, "Bob"), (3, "Cid"), (4, "Dan")))


class RecordingComposer:
    """Announces hand and match ends as plain text, so tests can see what was queued."""

    def announcements(self, game: Game, events: Sequence[Event]) -> list[Outgoing]:
        out = []
        for event in events:
            if isinstance(event, HandEnded):
                out.append(Outgoing(f"hand {event.hand_number} over: {event.winner}"))
        return out

    def match_end(self, game: Game, ended: MatchEnded, ratings: MatchRatings
                  ) -> list[Outgoing]:
        return [Outgoing(f"match over: {ended.winner} {list(ratings.seats)}")]

    def away(self, game: Game, seat: int) -> list[Outgoing]:
        return [Outgoing(f"away {seat}")]

    def back(self, game: Game, seat: int) -> list[Outgoing]:
        return [Outgoing(f"back {seat}")]

    def stopped(self, game: Game, by: str, ratings: MatchRatings) -> list[Outgoing]:
        leavers = f" {list(ratings.leavers)}" if ratings.leavers else ""
        return [Outgoing(f"stopped by {by}{leavers}")]

    def ready(self, game: Game) -> list[Outgoing]:
        return [Outgoing("ready")]

    def private_chats_needed(self, game: Game) -> list[Outgoing]:
        return [Outgoing("unreachable " + ", ".join(p.name for p in game.unreachable_players))]

    def replaced(self, game: Game, leaving: Player, newcomer: Player, away: bool = False
                 ) -> list[Outgoing]:
        return [Outgoing(f"{newcomer.name} for {leaving.name}")]

    def returned(self, game: Game, person: Player, computer: Player) -> list[Outgoing]:
        return [Outgoing(f"{person.name} back from {computer.name}")]


async def opened_private_chats(storage: Storage) -> None:
    """The players have started their private chats with the bot: a table can start."""
    for player in (ANN, BOB, CID, DAN):
        await storage.remember_user(player.user_id, player.name, None, "en", private_ok=True)


@asynccontextmanager
async def people_storage(database: Path | str) -> AsyncIterator[Storage]:
    """A database of either engine whose people opened their private chats with the bot (the
    ``storage`` fixture here and of the tests that play the service's games the same way)."""
    store = Storage(database)
    await store.open()
    await opened_private_chats(store)
    yield store
    await store.close()


@pytest.fixture
async def storage(database: Path | str) -> AsyncIterator[Storage]:
    async with people_storage(database) as store:
        yield store


def service_for(storage: Storage) -> GameService:
    seeds = itertools.count(1000)
    return GameService(storage, RecordingComposer(), lambda: next(seeds).to_bytes(32, "big"),
                       clock=lambda: 0.0)


async def started_game(service: GameService, name: str = "pair") -> Game:
    game = await service.create(-100, ANN, name, "en")
    for player in (BOB, CID, DAN):
        await service.join(game, player)
    await service.start(game, ANN.user_id)
    return game


async def test_one_open_game_per_chat(storage: Storage) -> None:
    service = service_for(storage)
    await service.create(-100, ANN, "gaple", "en")
    with pytest.raises(UserError):
        await service.create(-100, BOB, "pair", "en")
    await service.create(-200, BOB, "pair", "en")  # another group is free


async def test_only_the_creator_starts_and_only_with_enough_players(storage: Storage) -> None:
    service = service_for(storage)
    game = await service.create(-100, ANN, "pair", "en")
    await service.join(game, BOB)
    with pytest.raises(UserError, match="needs"):
        await service.start(game, ANN.user_id)
    await service.join(game, CID)
    await service.join(game, DAN)
    with pytest.raises(UserError, match="created"):
        await service.start(game, BOB.user_id)
    with pytest.raises(UserError, match="full"):
        await service.join(game, Player(5, "Eve"))
    await service.start(game, ANN.user_id)
    assert game.status is Status.PLAYING


async def test_joining_twice_and_leaving_rules(storage: Storage) -> None:
    service = service_for(storage)
    game = await service.create(-100, ANN, "gaple", "en")
    await service.join(game, BOB)
    with pytest.raises(UserError, match="already"):
        await service.join(game, BOB)
    with pytest.raises(UserError, match="cancel"):
        await service.leave(game, ANN.user_id)
    await service.leave(game, BOB.user_id)
    assert [p.name for p in game.players] == ["Ann"]


async def test_only_the_seat_to_move_acts_and_stale_moves_are_refused(storage: Storage) -> None:
    service = service_for(storage)
    game = await started_game(service)
    match = game.match
    assert match is not None
    seat = match.to_move
    assert seat is not None
    other = game.players[(seat + 1) % 4]
    action = match.legal_actions()[0]
    with pytest.raises(UserError, match="not your turn"):
        await service.act(game, other.user_id, game.move_no, action)
    with pytest.raises(UserError, match="not playing"):
        await service.act(game, 99, game.move_no, action)
    with pytest.raises(UserError, match="out of date"):
        await service.act(game, game.players[seat].user_id, game.move_no - 1, action)
    before = game.move_no
    await service.act(game, game.players[seat].user_id, before, action)
    assert game.move_no > before
    with pytest.raises(UserError, match="out of date"):  # the same tap again: plays once
        await service.act(game, game.players[seat].user_id, before, action)


async def test_an_illegal_move_changes_nothing(storage: Storage) -> None:
    service = service_for(storage)
    game = await started_game(service)
    match = game.match
    assert match is not None
    seat = match.to_move
    assert seat is not None
    held = match.hand.hands[seat]
    wrong = next((t for t in held if Play(t) not in match.legal_actions()), None)
    before = (game.move_no, len(match.hand.moves))
    if wrong is not None:
        with pytest.raises(UserError):
            await service.act(game, game.players[seat].user_id, game.move_no, Play(wrong))
    not_held = next(t for t in (Tile(a, b) for a in range(7) for b in range(a, 7))
                    if t not in held)
    with pytest.raises(UserError, match="don't hold"):
        await service.act(game, game.players[seat].user_id, game.move_no, Play(not_held))
    assert (game.move_no, len(match.hand.moves)) == before


async def play_to_the_end(service: GameService, game: Game) -> None:
    while game.status is Status.PLAYING:
        match = game.match
        assert match is not None
        seat = match.to_move
        assert seat is not None
        assert match.legal_actions() != (KNOCK,)  # the service knocks for stuck players
        await service.act(game, game.players[seat].user_id, game.move_no, match.legal_actions()[0])


@pytest.mark.parametrize("name", ["gaple", "gaple-dead", "pair"])
async def test_a_whole_match_is_recorded_and_announced(storage: Storage, name: str) -> None:
    service = service_for(storage)
    game = await started_game(service, name)
    await play_to_the_end(service, game)
    assert game.status is Status.FINISHED
    match = game.match
    assert match is not None and match.over
    hands = await storage.fetch_all("SELECT * FROM hand_results WHERE game_id=?", (game.game_id,))
    assert len(hands) == len(match.hands)
    results = await storage.fetch_all("SELECT * FROM match_results WHERE game_id=?",
                                      (game.game_id,))
    assert len(results) == 1 and results[0]["winner_side"] == match.winner
    outbox = [item.text for item in await storage.pending_outbox(game.game_id)]
    assert len(outbox) == len(match.hands) + 1 and outbox[-1].startswith("match over")


async def test_the_lobbys_call_to_start_not_yet_sent_is_dropped_at_the_start(
    storage: Storage,
) -> None:
    """The creator was called when the last seat was taken; the call is still unsent (the
    group's budget held it back) when they press Start: it would come after the start."""
    service = service_for(storage)
    game = await service.create(-100, ANN, "pair", "en")
    for player in (BOB, CID, DAN):
        await service.join(game, player)
    assert [i.text for i in await storage.pending_outbox(game.game_id)] == ["ready"]
    await service.start(game, ANN.user_id)
    assert "ready" not in [i.text for i in await storage.pending_outbox(game.game_id)]


async def test_a_start_that_fails_to_commit_keeps_the_lobbys_call(
    storage: Storage, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The call is dropped in the start's own transaction: a start that fails leaves the
    lobby as it was, its call still to go."""
    service = service_for(storage)
    game = await service.create(-100, ANN, "pair", "en")
    for player in (BOB, CID, DAN):
        await service.join(game, player)

    async def broken(*args: object) -> None:
        raise RuntimeError("the disk is full")
    monkeypatch.setattr(storage, "_queue", broken)  # inside the transaction, after the drop
    with pytest.raises(RuntimeError):
        await service.start(game, ANN.user_id)
    assert [i.text for i in await storage.pending_outbox(game.game_id)] == ["ready"]
    assert service.game(game.game_id).status is Status.LOBBY  # type: ignore[union-attr]


async def test_a_restarted_service_finds_every_game_as_it_was(storage: Storage) -> None:
    service = service_for(storage)
    game = await started_game(service, "gaple-dead")
    match = game.match
    assert match is not None
    for _ in range(5):
        seat = match.to_move
        assert seat is not None
        await service.act(game, game.players[seat].user_id, game.move_no, match.legal_actions()[0])
    again = service_for(storage)
    [loaded] = await again.load_open_games()
    assert loaded.move_no == game.move_no == move_number(loaded.match)
    assert loaded.match is not None
    assert loaded.match.hand.moves == match.hand.moves
    assert loaded.players == game.players


async def test_stop_is_for_the_creator_or_an_admin(storage: Storage) -> None:
    service = service_for(storage)
    game = await started_game(service)
    with pytest.raises(UserError):
        await service.stop(game, BOB.user_id, is_admin=False)
    await service.stop(game, BOB.user_id, is_admin=True)
    assert game.status is Status.STOPPED
    assert service.open_game_in(-100) is None


async def test_a_migrated_group_keeps_its_game(storage: Storage) -> None:
    service = service_for(storage)
    game = await started_game(service)
    await service.migrate_chat(-100, -100200300)
    assert service.open_game_in(-100200300) is game
    again = service_for(storage)
    [loaded] = await again.load_open_games()
    assert loaded.chat_id == -100200300


async def test_a_question_posted_in_the_group_before_it_became_a_supergroup_stays_behind(
        storage: Storage) -> None:
    """The /leave question's answer came back after the group's migration was handled: its
    id names another message in the supergroup, so the game keeps no question to close."""
    service = service_for(storage)
    game = await started_game(service)
    await service.asked(game.game_id, 7, -100)
    await service.migrate_chat(-100, -100200300)
    await service.asked(game.game_id, 8, -100)
    await service.asked(game.game_id, 9, -100200300)
    assert game.messages.questions == [9]
    [loaded] = await service_for(storage).load_open_games()
    assert loaded.messages.questions == [9]


async def test_a_question_kept_while_the_move_is_being_saved_stays_behind(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """CI: the /leave question's id was kept while the group's move to a supergroup was
    being saved (between forgetting the old messages and the new chat id), and the game's
    stop then edited the message with that id in the supergroup, the bot's answer to /help."""
    service = service_for(storage)
    game = await started_game(service)
    migrate = storage.migrate_chat

    async def asked_meanwhile(old: int, new: int) -> None:
        await service.asked(game.game_id, 7, -100)  # (the question's chat: the old group)
        await migrate(old, new)

    monkeypatch.setattr(storage, "migrate_chat", asked_meanwhile)
    await service.migrate_chat(-100, -100200300)
    assert game.chat_id == -100200300 and game.messages.questions == []
    [loaded] = await service_for(storage).load_open_games()
    assert loaded.messages.questions == []


@pytest.mark.parametrize("joined_first", [True, False])
async def test_an_upgraded_groups_settings_menu_stays_behind(storage: Storage,
                                                            joined_first: bool) -> None:
    """The old group's menu id names another message in the supergroup (review: the first
    /settings there edited the bot's answer of that number as the menu it replaced)."""
    service, locks = service_for(storage), Locks()
    await storage.save_settings_menu(-100, 8)
    if joined_first:
        await service.bot_added(-100200300, "id", locks)
    await service.migrate_chat(-100, -100200300)
    assert await storage.settings_menu(-100200300) is None


@pytest.mark.parametrize("joined_first", [True, False])
async def test_an_upgraded_group_keeps_its_settings_whichever_is_told_first(
        storage: Storage, joined_first: bool) -> None:
    """Telegram tells of the bot joining the new supergroup (its upgrader's language) before
    or after the upgrade itself: the old group's settings win either way (review: told first,
    the join's row kept and the admin's language, turn time and house rules were lost)."""
    service, locks = service_for(storage), Locks()
    await service.change_group_settings(-100, lambda s: replace(
        s, language="ru", turn_seconds=30, games={"pair": {"target": 150}}), locks)
    await storage.save_chat_title(-100, "Domino evening")
    if joined_first:
        await service.bot_added(-100200300, "id", locks)
    await service.migrate_chat(-100, -100200300)
    if not joined_first:
        await service.bot_added(-100200300, "id", locks)
    settings = await service.group_settings(-100200300)
    assert (settings.language, settings.turn_seconds, settings.games, settings.spoken
            ) == ("ru", 30, {"pair": {"target": 150}}, "ru")
    assert await storage.chat_title(-100200300) == "Domino evening"


async def test_an_upgraded_group_without_a_language_takes_the_joins(storage: Storage) -> None:
    """The old group had no automatic language, the join told first gave the supergroup
    one: it is kept beside the old group's settings."""
    service, locks = service_for(storage), Locks()
    await service.change_group_settings(-100, lambda s: replace(s, turn_seconds=30), locks)
    await service.bot_added(-100200300, "id", locks)
    await service.migrate_chat(-100, -100200300)
    settings = await service.group_settings(-100200300)
    assert (settings.turn_seconds, settings.auto_language) == (30, "id")


@pytest.mark.parametrize("upgraded", [False, True])
async def test_a_match_keeps_its_language_when_the_bot_is_added_again(
        storage: Storage, upgraded: bool) -> None:
    """The group speaks English (its adder's); mid-match the bot is told added again by a
    Russian (the group upgraded to a supergroup, or a join after a restriction): the match
    and the group stay English (review: the match switched to Russian at once)."""
    service, locks = service_for(storage), Locks()
    assert await service.bot_added(-100, "en", locks) == []
    game = await started_game(service)
    assert game.match is not None and game.match.to_move is not None
    await service.act(game, game.players[game.match.to_move].user_id, game.move_no,
                      game.match.legal_actions()[0])
    chat = -100
    if upgraded:
        chat = -100200300
        await service.migrate_chat(-100, chat)
    assert await service.bot_added(chat, "ru", locks) == []
    assert game.language == "en"
    assert (await service.group_settings(chat)).spoken == "en"
    [loaded] = await service_for(storage).load_open_games()
    assert loaded.language == "en"


def test_a_blocked_pair_hand_shows_both_pairs_sums() -> None:
    """The conformance example of a blocked pair hand, as the group reads its result."""
    scenario = json.loads((Path(__file__).parents[1] / "engine" / "conformance"
                           / "pair_blocked_draw.json").read_text())
    match = replay(scenario).match
    assert match is not None
    ended = match.hands[-1].result
    assert ended is not None and ended.reason.value == "blocked"
    game = Game(1, -1, Status.PLAYING, "pair", {}, 1,
                [Player(i + 1, name) for i, name in enumerate(("Ann", "Bob", "Cid", "Dee"))],
                match, 0, "en", Messages())
    text = plain(hand_result_text(translator("en"), game, ended, table_view(match)))
    sums = (ended.totals[0] + ended.totals[2], ended.totals[1] + ended.totals[3])
    assert f"Pairs' pips: Ann & Cid {sums[0]} · Bob & Dee {sums[1]}." in text


async def test_the_match_end_says_how_each_rating_moved(storage: Storage) -> None:
    """The winner's rating goes up most and the last player's down on the group's board of
    that game (every pair of seats is compared: a runner-up who beat two may gain too)."""
    service = service_for(storage)
    game = await started_game(service, "gaple")
    await play_to_the_end(service, game)
    assert game.match is not None and game.match.winner is not None
    last = (await storage.pending_outbox(game.game_id))[-1].text
    changes = ast.literal_eval(last.split(" ", 3)[3])  # the list the composer was given
    assert len(changes) == 4
    winner = game.match.sides[game.match.winner][0]
    assert changes[winner] > 0 and changes[winner] == max(changes)
    scores = game.match.scores
    last = min((seat for seat in range(4) if seat != winner), key=lambda seat: scores[seat])
    if sorted(scores).count(scores[last]) == 1:  # nobody tied with the last
        assert changes[last] < 0
    assert sum(change < 0 for change in changes) >= 1


def finished(players: Sequence[Player], name: str = "pair") -> Game:
    """A match just over, as "Play again" reads it: its table, not its play."""
    return Game(90, -100, Status.FINISHED, name, {}, players[0].user_id, list(players), None,
                40, "en", Messages())


async def test_a_rematch_goes_on_without_a_player_who_never_confirms(storage: Storage) -> None:
    """Dan never taps Join at the rematch Bob opened: Start says whom it waits for and how
    to go on without him; only Bob may free his seat, which a computer player then takes."""
    service = service_for(storage)
    game = await service.rematch(finished([ANN, BOB, CID, DAN]), BOB)
    for player in (CID, ANN):
        await service.join(game, player)
    assert game.names == ["Bob", "Cid", "Dan", "Ann"] and game.pending == [DAN.user_id]
    with pytest.raises(UserError) as waiting:
        await service.start(game, BOB.user_id)
    assert translator("en")(waiting.value.message, **waiting.value.params) == (
        "Waiting for \u2068Dan\u2069 to confirm with Join. To go on without them, free their "
        "seats with the 🪑 button.")
    with pytest.raises(UserError) as refused:
        await service.free_unconfirmed(game, CID.user_id)
    assert refused.value.message == "Only the player who created the game can free seats."
    assert game.pending == [DAN.user_id] and len(game.players) == 4
    assert await service.free_unconfirmed(game, BOB.user_id) == [DAN]
    assert game.names == ["Bob", "Cid", "Ann"] and game.pending == []
    [stored] = await service_for(storage).load_open_games()
    assert stored.players == game.players and stored.pending == []
    with pytest.raises(UserError) as again:  # its button, tapped a second time
        await service.free_unconfirmed(game, BOB.user_id)
    assert again.value.message == "Everyone has confirmed: there is no seat to free."
    await service.add_computer(game, BOB.user_id, "normal")
    assert [i.text for i in await storage.pending_outbox(game.game_id)] == ["ready"]
    await service.start(game, BOB.user_id)
    assert game.status is Status.PLAYING and game.players[3].is_computer
    with pytest.raises(UserError):  # too late for Dan's Join
        await service.join(game, DAN)


async def test_start_names_the_unconfirmed_first_shortened_even_with_a_seat_left_empty(
        storage: Storage) -> None:
    """Cid left the rematch and Dan, whose name is long, never confirmed: Start names Dan and
    the 🪑 way on (freeing him is the way on either way), not only "needs 4 players"; and
    a toast's names are cut short, so that it stays within Telegram's 200 characters."""
    service = service_for(storage)
    dan = Player(DAN.user_id, "Daniel " + "the very patient domino player " * 4)
    game = await service.rematch(finished([ANN, BOB, CID, dan]), BOB)
    await service.join(game, ANN)
    await service.leave(game, CID.user_id)
    assert len(game.players) == 3 and game.pending == [DAN.user_id]
    with pytest.raises(UserError) as waiting:
        await service.start(game, BOB.user_id)
    text = translator("en")(waiting.value.message, **waiting.value.params)
    assert text.startswith("Waiting for \u2068Daniel the very patient domino")
    assert "…\u2069 to confirm with Join" in text and "🪑" in text and len(text) <= 200


async def test_a_freed_player_joins_again_while_a_seat_is_free(storage: Storage) -> None:
    """Freed, Dan is a newcomer like any other: his Join takes a free seat, at the end."""
    service = service_for(storage)
    game = await service.rematch(finished([ANN, BOB, CID, DAN]), BOB)
    await service.free_unconfirmed(game, BOB.user_id)
    assert game.names == ["Bob"]
    await service.join(game, DAN)
    assert game.names == ["Bob", "Dan"] and game.pending == []
