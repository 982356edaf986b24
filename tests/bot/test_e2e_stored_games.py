"""A bot database written by the code before issue 21's refactor, opened by the bot of today.

The fixture (tests/bot/stored/, made once on commit dfb8806 by make_before_db.py) holds a
finished Pair match, a lobby, and nine games stopped part way: Pair in its second hand with an
end question open, Gaple with dead tiles, Gaple with a turn timer long run out, Kolbasa,
Matador, Six-matador, French against a computer player, Muggins in its second hand, and
Bergen; and every message of every chat as it showed when the bot stopped. The bot starts on
a copy, against a fake server that holds those messages again under their ids (Telegram keeps
them across an upgrade, and the bot's database says they are current, so it sends nothing
again), every old button is tapped where it sat, and every game is played to its end.
"""

from __future__ import annotations

import asyncio
import html
import io
import json
import logging
import re
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from bot_kit import Group, counting_seeds, plain
from PIL import Image

from bot.handlers.timers import OVERDUE_GRACE
from bot.i18n import translator
from bot.models import Game, Status
from bot.presentation import captions
from engine import (
    Action,
    End,
    Play,
    full_set,
    match_from_json,
    match_to_dict,
    table_view,
    variant,
)
from fakeapi import CallbackQueryRecord, FakeTelegramServer, FakeUser, StoredMessage
from fakeapi.players import Table, live_buttons, second_taps

STORED = Path(__file__).parent / "stored"
FACTS: dict[str, Any] = json.loads((STORED / "before-refactor.json").read_text("utf-8"))
GROUPS: dict[str, dict[str, Any]] = FACTS["groups"]
CHATS: dict[str, list[dict[str, Any]]] = json.loads(
    (STORED / "before-refactor-chats.json").read_text("utf-8"))
OPEN = [name for name, facts in GROUPS.items() if "to_move" in facts]
ACTING = re.compile(r"^[pedfqz]:(\d+):(\d+):")  # the hand buttons that act (not "i:")
TILES = {tile.index: tile for tile in full_set(6)}  # a button names its tile by index
ENDS = {"L": End.LEFT, "R": End.RIGHT, "U": End.UP, "D": End.DOWN}
OUT_OF_DATE = "That button is out of date."


# Issue 24 reworded what the bot wrote before; each change, applied to the stored texts, gives
# what today's bot writes (and so edits once, on its first start after the upgrade).
_PENALTY_RULE = re.compile(r"Penalty points: (.*?)\. The match ends when someone reaches (\d+); "
                           r"the lowest total wins\.")
_DRAWS_THEN = re.compile(r"^(• )?(.+?) drew (a tile|\d+ tiles) from the stock\.\n(?:• )?\2 ",
                         re.MULTILINE)
# Ratings damped while new, since shown undamped and marked provisional (footnoted) instead.
_RATINGS = {"rating 1049": "rating 1039?", "rating 970": "rating 961?"}
PROVISIONAL = ("? after a rating: provisional, fewer than 5 matches played; a scoreboard lists "
               "it after the established ones.")


#: A line of two plain open ends (a Muggins table before it said its count).
_PLAIN_ENDS = re.compile(r"(?m)^(Open ends: left (\d+) · right (\d+))\.$")
#: Kolbasa's ribbons, since named upper and lower as the picture draws them (player QA).
_RIBBONS = {" on the left.": " on the upper ribbon.", " on the right.": " on the lower ribbon.",
            "Open ends: left ": "Open ends: upper ", " · right ": " · lower "}


def issue_24(text: str) -> str:
    """A stored text as today's bot words it, read without the names' isolates (see
    bot_kit.plain): a penalty match's rule said once (not in every caption), a player's draws
    told on the line of the move they led to, ratings damped, Muggins' count beside its ends;
    and since, Kolbasa's ribbons named upper and lower."""
    text = _PENALTY_RULE.sub(r"Penalty points: \1 (to \2)", plain(text))
    text = _DRAWS_THEN.sub(lambda m: f"{m[1] or ''}{m[2]} drew {m[3]} from the stock. {m[2]} ",
                           text)
    for before, now in _RATINGS.items():
        text = text.replace(before, now)
    if text.startswith("Muggins"):  # its open ends now say the count they make
        text = _PLAIN_ENDS.sub(lambda m: f"{m[1]}; count {int(m[2]) + int(m[3])}.", text)
    if text.startswith("Kolbasa"):
        for before, now in _RIBBONS.items():
            text = text.replace(before, now)
    if "Not your turn yet" in text:  # a knock made for the player is told on their next turn
        text = re.sub(r"(?m)^(I drew .*\n)?You could not lay a tile, so I knocked for you[^\n]*\n",
                      "", text)
    return text


def png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def stored_rows(database: Path) -> list[sqlite3.Row]:
    with closing(sqlite3.connect(database)) as db:
        db.row_factory = sqlite3.Row
        return list(db.execute("SELECT * FROM games ORDER BY game_id"))


def test_every_stored_match_loads_and_writes_back_the_same() -> None:
    """The match records from before read into today's engine and come out as they were."""
    rows = stored_rows(STORED / "before-refactor.sqlite3")
    matches = [row for row in rows if row["match"]]
    assert {row["variant"] for row in matches} == {
        "pair", "gaple-dead", "gaple", "kolbasa", "matador", "six-matador", "french",
        "muggins", "bergen"}
    for row in matches:
        match = match_from_json(row["match"])
        assert match_to_dict(match) == json.loads(row["match"]), row["variant"]
        assert match.over == (row["status"] == "finished")


def groups_on(server: FakeTelegramServer, database: Path) -> dict[str, Group]:
    """The stored groups again, with the same chat and user ids, in the order they were made."""
    groups = {}
    seeds = counting_seeds(9100)
    for name, facts in GROUPS.items():
        users = [server.add_user(first, user_id=uid, language_code="en", started=True)
                 for first, uid in zip(facts["names"], facts["users"], strict=True)]
        chat = server.add_group(f"Domino {name}", members=users, admins=users[:1])
        assert chat.id == facts["chat_id"]
        groups[name] = Group(server, chat, users, database, seeds)
    return groups


def actions_of(game: Game, seat: int) -> list[Action]:
    """Everything ``seat`` has done in the match, hand after hand."""
    assert game.match is not None
    return [move.action for hand in game.match.hands for move in hand.moves if move.seat == seat]


def restore_chats(server: FakeTelegramServer) -> None:
    """Put every stored message back under its id (a picture as a blank of its size: the bot
    never reads its pictures back)."""
    world = server.world
    for user in list(world.users.values()):
        world.private_chat(user)
    for chat_id, messages in CHATS.items():
        chat = world.chats[int(chat_id)]
        for stored in messages:
            assert stored["id"] == chat.next_message_id, (chat_id, stored["id"])
            sender = world.bot if stored["from"] == world.bot.id else world.users[stored["from"]]
            photo = None
            if stored["photo"]:
                png = io.BytesIO()
                Image.new("RGB", tuple(stored["photo"]), "white").save(png, "PNG")
                photo = world.store_photo(png.getvalue())
            version = world.version(
                text=stored["text"], entities=tuple(stored["entities"]),
                caption=stored["caption"], caption_entities=tuple(stored["caption_entities"]),
                photo=photo, reply_markup=stored["reply_markup"])
            message = world.store(chat, sender, version, service=stored["service"])
            message.deleted = stored["deleted"]


def user_of(group: Group, user_id: int) -> FakeUser:
    return next(u for u in group.users if u.id == user_id)


def restored(group: Group) -> int:
    """The highest message id the group held before the bot started."""
    return max(int(m["id"]) for m in CHATS[str(group.chat.id)])


def hand_message(server: FakeTelegramServer, user: FakeUser) -> StoredMessage:
    """The user's newest hand message (the one the bot's database names)."""
    message = next((m for m in reversed(server.bot_messages(user.private_chat))
                    if any(ACTING.match(b.callback_data or "") or (b.callback_data or "")
                           .startswith("i:") for row in m.buttons for b in row)), None)
    assert message is not None, user.first_name
    return message


async def tap(server: FakeTelegramServer, user: FakeUser, message: StoredMessage,
              data: str) -> CallbackQueryRecord:
    record = user.press_raw(message, data)
    await server.wait_for(lambda: record.answered, message=f"{data} not answered")
    return record


async def test_a_database_from_before_the_refactor_plays_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    database = tmp_path / "bot.sqlite3"
    shutil.copyfile(STORED / "before-refactor.sqlite3", database)
    caplog.set_level(logging.INFO)
    async with FakeTelegramServer() as server:
        groups = groups_on(server, database)
        restore_chats(server)
        async with groups["finished"].bot(computer_pause=0.02) as runtime:
            for group in groups.values():
                group.runtime = runtime
            await server.wait_idle()
            await timed_out_after_the_grace(groups)
            every_open_game_is_back(groups)
            await the_scoreboard_is_the_same(groups["finished"])
            compared, outcomes = 0, {}
            for name in OPEN:
                compared += await my_tiles_again(groups[name], name)
                outcomes[name] = await old_buttons_of(groups[name], name)
            assert compared == len(OPEN) - 2  # all but French's lone human and the timed out
            # French's and Bergen's buttons were a tile that fits two ends: the bot asks which
            assert outcomes == dict.fromkeys(OPEN, "played") | {
                "gaple": "refused", "french": "asked, then played", "bergen": "asked, then played"}
            await the_lobby_takes_old_taps(groups["lobby"])
            await the_finished_match_plays_again(groups["finished"])
            tables = {name: Table(server, groups[name].users) for name in [*OPEN, "lobby"]}
            await asyncio.gather(*(table.play_until(groups[name].match_over)
                                   for name, table in tables.items()))
            await server.wait_idle()
            ended = {name: groups[name].game() for name in tables}
        server.assert_no_violations()
    for name, game in ended.items():
        assert game.status is Status.FINISHED and game.match is not None, name
        assert game.match.over and game.match.winner is not None, name
        assert groups[name].said("The match is over"), name
    with closing(sqlite3.connect(database)) as db:
        results = {row[0] for row in db.execute("SELECT game_id FROM match_results")}
    assert results == {GROUPS["finished"]["game_id"]} | {g.game_id for g in ended.values()}
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def timed_out_after_the_grace(groups: dict[str, Group]) -> None:
    """The turn that ran out while the bot was away times out a grace after the start (a
    tap of it waiting at Telegram would have come first: ``Timers.resume``)."""
    for name in OPEN:
        facts, group = GROUPS[name], groups[name]
        game = group.service.game(facts["game_id"])
        if facts["turn_seconds"] and game is not None:
            table = group.server.message(group.chat, game.messages.table_message)  # type: ignore[arg-type]
            await group.server.wait_for(lambda t=table: "time ran out" in (t.caption or ""),  # type: ignore[misc]
                                        timeout=OVERDUE_GRACE + 10, message=name)
    await groups["finished"].server.wait_idle()


def every_open_game_is_back(groups: dict[str, Group]) -> None:
    """Each open game is in memory at its stored move, its table is the message it was, and
    the bot found nothing to send again: what its database says is shown, is. Only the game
    whose turn ran out while the bot was away has moved (the bot played for the player)."""
    for name in OPEN:
        facts, group = GROUPS[name], groups[name]
        game = group.service.game(facts["game_id"])
        assert game is not None and game.status is Status.PLAYING, name
        assert game.match is not None and not game.match.over, name
        table = group.server.message(group.chat, game.messages.table_message)  # type: ignore[arg-type]
        assert not table.deleted and table.message_id <= restored(group), name
        # Issue 24: a table edited since (the game that moved) gained the Table button ("m:"),
        # which brings it down the chat; the others gain it with their next move.
        gained = [f"m:{game.game_id}"] if facts["turn_seconds"] else []
        assert [b.callback_data for row in table.buttons for b in row] == [
            b["data"] for b in facts["table_buttons"]] + gained, name
        if facts["turn_seconds"]:
            assert game.move_no == facts["move_no"] + 1, name
            mover = [p.user_id for p in game.players].index(facts["to_move"])
            assert game.match.hand.moves[-1].seat == mover, name
            continue
        assert game.move_no == facts["move_no"], name
        # Issue 24: a penalty game's lobby says once how its match ends, so the bot edits it.
        ruled = variant(game.game_name).lowest_total_wins
        assert [m.edit_count for m in group.messages()] == [
            int(ruled and m.message_id == game.messages.lobby) for m in group.messages()], name
        # Written and drawn again by today's bot, the table is the one the group has.
        view = table_view(game.match)
        written = captions.table_caption(translator(game.language), game, view)
        assert html.unescape(re.sub(r"<[^>]+>", "", plain(written))) == issue_24(
            facts["table_caption"]), name
        # Its picture is drawn again from the stored game; its pixels are today's (issue 24
        # redrew every table for phones: the goldens guard them), so only its size is the old
        # one's kind: a PNG as wide as the group's.
        picture = group.runtime.pictures.table(game, view)  # type: ignore[union-attr]
        shown = group.server.message(group.chat, game.messages.table_message)  # type: ignore[arg-type]
        assert picture.startswith(b"\x89PNG") and shown.photo is not None, name
        assert png_size(picture)[0] == png_size(shown.photo.data)[0], name
        assert all(m.message_id <= restored(group) for m in group.messages()), name
    lobby = groups["lobby"]
    game = lobby.service.game(GROUPS["lobby"]["game_id"])
    assert game is not None and game.status is Status.LOBBY
    assert [p.user_id for p in game.players] == GROUPS["lobby"]["users"][:2]


async def old_buttons_of(group: Group, name: str) -> str:
    """Where they sat: the player to move taps, on their hand message, a button of an earlier
    turn (as a client that missed an edit may show it): refused, nothing changes. Then the
    button they were shown when the bot stopped: it plays if the position is still the one
    it was made for (a tile that fits two ends asks which, and the first is taken), else it
    is refused like the first."""
    facts, server = GROUPS[name], group.server
    game = group.service.game(facts["game_id"])
    assert game is not None and game.match is not None
    user = user_of(group, facts["to_move"])
    seat = [p.user_id for p in game.players].index(user.id)
    message = hand_message(server, user)
    if not facts["turn_seconds"]:  # (the timed-out hand shows the turn that followed)
        assert [b.callback_data for row in message.buttons for b in row] == [
            b["data"] for b in facts["hand_buttons"]], name
    before, state = game.move_no, match_to_dict(game.match)
    mine = len(actions_of(game, seat))
    refusal = OUT_OF_DATE
    if game.match.to_move != seat:  # the timer moved for them: it is the next one's turn
        mover = game.players[game.match.to_move].name  # type: ignore[index]
        refusal = f"It is {mover}'s turn; I will write when it is yours."
    stale = await tap(server, user, message, facts["earlier_buttons"][0]["data"])
    assert plain(stale.answer_text or "") == refusal, (name, stale.answer_text)
    await server.wait_idle(quiet=0.1)
    assert game.move_no == before and match_to_dict(game.match) == state, name
    message = hand_message(server, user)
    data = next(b["data"] for b in facts["hand_buttons"] if ACTING.match(b["data"] or ""))
    shown = live_buttons(message)
    record = await tap(server, user, message, data)
    if before != facts["move_no"]:  # the position moved on since the button was made
        assert plain(record.answer_text or "") == refusal, (name, record.answer_text)
        await server.wait_idle(quiet=0.1)
        assert game.move_no == before and match_to_dict(game.match) == state, name
        return "refused"
    assert record.answer_text is None, (name, record.answer_text)
    follow = await server.wait_for(lambda: game.move_no > before or (
        live_buttons(message) != shown and second_taps(live_buttons(message))),
        message=f"{name}: {data} did nothing")
    asked = isinstance(follow, list)
    if isinstance(follow, list):
        record = user.press(message, follow[0])
        await server.wait_for(lambda: record.answered and game.move_no > before)
    laid = actions_of(game, seat)[mine]  # the tapped tile, where the button (or end) said
    kind, _, _, index, end, *way = data.split(":")
    assert isinstance(laid, Play) and laid.tile == TILES[int(index)], (name, laid)
    if kind in "pq" and end != "-":
        assert laid.end is ENDS[end], (name, laid)
    if way and way[0] != "-":
        assert laid.cross is (way[0] == "x"), (name, laid)
    return "asked, then played" if asked else "played"


async def my_tiles_again(group: Group, name: str) -> bool:
    """A player who waits taps the table's "My tiles" from before: today's bot sends their
    hand again, word for word and button for button as the bot before the refactor had it."""
    facts, server = GROUPS[name], group.server
    game = group.service.game(facts["game_id"])
    assert game is not None
    waiting = [u for u in group.users if u.id != facts["to_move"]]
    if facts["turn_seconds"] or not waiting:
        return False  # (the timed-out game moved on; French's one human is to move)
    user = waiting[0]
    seat = [p.user_id for p in game.players].index(user.id)
    shown = game.messages.hands[seat].message_id
    old = next(m for m in CHATS[str(user.id)] if m["id"] == shown)
    table = server.message(group.chat, game.messages.table_message)  # type: ignore[arg-type]
    record = await tap(server, user, table, facts["table_buttons"][0]["data"])
    assert record.answer_text == "I sent your tiles to our private chat.", name
    await server.wait_for(lambda: getattr(game.messages.hands.get(seat), "message_id", shown)
                          != shown)
    await server.wait_idle(quiet=0.1)
    again = server.message(user.private_chat, game.messages.hands[seat].message_id)
    # (a waiting hand now confirms its player's own move, on a line of its own: bot_kit)
    caption = plain(again.caption or "")
    if "Not your turn yet" in caption:
        played = re.search(r"(?m)^✔ (.*)\n", caption)  # told as its player reads it
        assert played is not None and played[1].startswith("You "), name
        caption = caption.replace(played[0], "")
    assert caption == issue_24(old["caption"]), name
    assert [[b.text for b in row] for row in again.buttons] == [  # and today's Table row
        [b["text"] for b in row] for row in old["reply_markup"]["inline_keyboard"]
    ] + [["⬇ Table"]], name
    return True


async def the_scoreboard_is_the_same(group: Group) -> None:
    """The finished match's rows, word for word as /scoreboard gave them before."""
    group.send(group.users[0], "/scoreboard")
    board = await group.server.wait_for(lambda: next(
        (m for m in reversed(group.messages()) if "Scoreboard" in (m.caption or "")
         and m.message_id > restored(group)), None))
    assert plain(board.caption or "") == "\n".join(
        [issue_24(GROUPS["finished"]["scoreboard"]), PROVISIONAL])


async def the_lobby_takes_old_taps(group: Group) -> None:
    """The lobby's Join and Start buttons from before seat the last two and start the game."""
    facts, server = GROUPS["lobby"], group.server
    data = {b["text"]: b["data"] for b in facts["lobby_buttons"]}
    lobby = group.lobby()
    # Written again once on the first start: only its names' isolates are new, and the
    # sentence that says how many play Gaple (QA: its lobby alone did not say it).
    assert lobby.message_id <= restored(group) and lobby.edit_count == 1
    assert len({plain(version.text or "").replace(" The game takes 4 players.", "")
                for version in lobby.versions}) == 1
    for user in group.users[2:]:
        user.send_private("/start")
        joined = await tap(server, user, lobby, data["✋ Join"])
        assert joined.answer_text == "You joined the game."
    started = await tap(server, group.users[0], lobby, data["▶ Start"])
    assert started.answer_text == "Let's play!"


async def the_finished_match_plays_again(group: Group) -> None:
    """Play again, under the finished match's result, opens the same table again."""
    facts, server = GROUPS["finished"], group.server
    again = facts["result_buttons"][0]["data"]
    result = next(m for m in group.messages() if any(
        b.callback_data == again for row in m.buttons for b in row))
    record = await tap(server, group.users[1], result, again)
    assert record.answer_text == "A new table is open: the others press Join to play again."
    game = group.game()
    assert game.status is Status.LOBBY and game.game_id != facts["game_id"]
    assert {p.user_id for p in game.players} <= set(facts["users"])
