"""Writes before-refactor.sqlite3, before-refactor.json and before-refactor-chats.json: a bot
database as the code before issue 21's refactor left it, and what the test needs that the
database does not say.

Run once, on commit dfb8806 (the tree before the refactor), with that tree's own bot, test kit
and fake server::

    cd /work/wt/before && PYTHONPATH=/work/wt/before:/work/wt/before/tests/bot \\
        /work/wt/stored/.venv/bin/python /work/wt/stored/tests/bot/stored/make_before_db.py

It opens one table per group, plays each part way by simulated players' taps, leaves one lobby
open and one match finished, stops the bot cleanly, and copies the database with SQLite's
backup API. before-refactor-chats.json keeps every message of every chat as it showed then.
before-refactor.json keeps the chats, the players, and for each open game the buttons of the
hand message the bot had sent to the player to move (and the same player's buttons of an
earlier move), exactly as they sat in the private chat; the group's table caption, and the
finished group's /scoreboard answer, as the bot before the refactor wrote them.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sqlite3
import sys
import tempfile
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.settings import GroupSettings
from bot_kit import Group, counting_seeds

from fakeapi import FakeTelegramServer, FakeUser, StoredMessage
from fakeapi.players import Table, live_buttons, second_taps

HERE = Path(__file__).resolve().parent
DATABASE = HERE / "before-refactor.sqlite3"
FACTS = HERE / "before-refactor.json"
CHATS = HERE / "before-refactor-chats.json"
PLAY_DATA = re.compile(r"^[pedfqz]:(\d+):(\d+):")  # the buttons that act (not "i:")


# name, /newgame text, humans, computer levels (lobby index), turn timer, how far to play
TABLES: tuple[tuple[str, str, int, tuple[int, ...], int, str], ...] = (
    # a line game half through its second hand, stopped after a tap that asked which end
    ("pair", "pair target=80", 4, (), 0, "second hand, end question"),
    ("gaple-dead", "gaple-dead target=30", 4, (), 0, "7 moves"),
    # its turn ran out long ago: the restart plays the safe move, the old button is stale
    ("gaple", "gaple target=20", 4, (), 90, "5 moves"),
    ("kolbasa", "kolbasa target=25", 3, (), 0, "9 moves"),
    ("matador", "matador target=25", 2, (), 0, "8 moves"),
    ("six-matador", "six-matador target=20", 3, (), 0, "8 moves"),
    ("french", "french target=101", 1, (2,), 0, "4 moves"),  # against a hard computer
    ("muggins", "muggins target=100", 3, (), 0, "second hand"),
    ("bergen", "bergen target=4", 2, (), 0, "6 moves"),
)
LOBBY = ("lobby", "gaple target=20", 2)  # left open with two of four seated
FINISHED = ("finished", "pair target=30", 4)  # a whole match: the scoreboard has its rows


def buttons(rows: Any) -> list[dict[str, str | None]]:
    return [{"text": b.text, "data": b.callback_data} for row in rows for b in row]


def chat_contents(server: FakeTelegramServer) -> dict[str, list[dict[str, Any]]]:
    """Every message of every chat as it shows now (pictures by their size only), so a fresh
    fake server can hold them again under the same ids: Telegram keeps a bot's messages
    across its restart, and the bot does not send again what its database says is shown."""
    chats = {}
    for chat in server.world.chats.values():
        listed = []
        for message in server.world.messages_in(chat):
            shown = message.current
            listed.append({
                "id": message.message_id, "from": message.sender.id,
                "deleted": message.deleted, "service": message.service,
                "text": shown.text, "entities": list(shown.entities),
                "caption": shown.caption, "caption_entities": list(shown.caption_entities),
                "photo": [shown.photo.width, shown.photo.height] if shown.photo else None,
                "reply_markup": shown.reply_markup})
        chats[str(chat.id)] = listed
    return chats


def photo_digest(message: StoredMessage) -> str | None:
    data = message.photo_bytes
    return hashlib.sha256(data).hexdigest() if data else None


def table_message(group: Group) -> StoredMessage:
    return next(m for m in reversed(group.messages())
                if any((b.callback_data or "").startswith("h:") for r in m.buttons for b in r))


def earlier_buttons(user: FakeUser, server: FakeTelegramServer, game_id: int,
                    move_no: int) -> list[dict[str, str | None]]:
    """The user's acting hand buttons of their latest earlier turn (a move number now past): on a
    message the bot has deleted or edited since, as a client that missed that still shows."""
    sent = [m for m in server.messages(user.private_chat, include_deleted=True) if m.from_bot]
    for message in reversed(sent):
        for version in reversed(message.versions):
            found = [b for row in version.buttons for b in row
                     if (m := PLAY_DATA.match(b.callback_data or ""))
                     and int(m.group(1)) == game_id and int(m.group(2)) < move_no]
            if found:
                return [{"text": b.text, "data": b.callback_data} for b in found]
    return []


async def play(group: Group, table: Table, how: str) -> None:
    if how.endswith("moves"):
        for _ in range(int(how.split()[0])):
            await table.play_one()
        return
    await table.play_until(lambda: len(group.hand_results()) >= 1)
    for _ in range(3):
        await table.play_one()
    if how.endswith("end question"):
        await ask_an_end(group, table)


async def ask_an_end(group: Group, table: Table) -> None:
    """Play on until the player to move taps a tile that fits two ends, and stop there: the
    question "which end?" and its buttons sit in the chat."""
    for _ in range(40):
        user, message = await group.server.wait_for(table.whose_turn)
        shown = live_buttons(message)
        record = user.press(message, shown[0])
        await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        await group.server.wait_for(
            lambda m=message, s=shown: m.deleted or live_buttons(m) != s)  # type: ignore[misc]
        follow = second_taps(live_buttons(message))
        if follow:
            return
        await group.server.wait_for(lambda m=message: m.deleted or not live_buttons(m))  # type: ignore[misc]
    raise AssertionError("no tile fitted two ends")


async def main(workdir: Path) -> None:
    server = FakeTelegramServer()
    await server.start()
    database = workdir / "bot.sqlite3"
    seeds = counting_seeds(2100)
    groups: dict[str, Group] = {}
    names = iter(f"{first}{n}" for n in range(1, 9) for first in
                 ("Ayu", "Budi", "Sergei", "Þóra", "Dewi", "Kofi"))

    def new_group(name: str, people: int) -> Group:
        users = [server.add_user(next(names), language_code="en") for _ in range(people)]
        chat = server.add_group(f"Domino {name}", members=users, admins=users[:1])
        groups[name] = Group(server, chat, users, database, seeds)
        return groups[name]

    facts: dict[str, Any] = {"made_on": "dfb8806", "groups": {}}
    first = new_group(*FINISHED[::2])
    async with first.bot(computer_pause=0.05) as runtime:
        # The finished match: the scoreboard's rows, and its answer before the refactor.
        await first.start(FINISHED[1], FINISHED[2])
        await Table(server, first.users).play_until(first.match_over)
        first.send(first.users[0], "/scoreboard")
        board = await server.wait_for(lambda: next(
            (m for m in first.messages() if "Scoreboard" in (m.caption or "")), None))
        result = next(m for m in first.messages() if (m.caption or m.text or "").startswith(
            "The match is over"))
        facts["groups"]["finished"] = {
            "chat_id": first.chat.id, "users": [u.id for u in first.users],
            "names": [u.first_name for u in first.users], "game_id": first.game().game_id,
            "scoreboard": board.caption, "result_buttons": buttons(result.buttons)}
        for name, text, humans, computers, seconds, how in TABLES:
            group = new_group(name, humans)
            group.runtime = runtime
            await runtime.storage.save_chat_settings(
                group.chat.id, GroupSettings(turn_seconds=seconds).to_json())
            if computers:
                group.users[0].send_private("/start")
                group.send(group.users[0], f"/newgame {text}")
                lobby = await server.wait_for(group._lobby_or_none)
                gid = group.game().game_id
                for level in computers:
                    tap = group.users[0].press_raw(lobby, f"a:{gid}:{level}")
                    await server.wait_for(lambda r=tap: r.answered)  # type: ignore[misc]
                tap = group.users[0].press_raw(lobby, f"s:{gid}")
                await server.wait_for(lambda r=tap: r.answered)  # type: ignore[misc]
                table = Table(server, group.users)
            else:
                table = await group.start(text, humans)
            await play(group, table, how)
            await server.wait_idle()
            game = group.game()
            turn = table.whose_turn()
            assert turn is not None, name
            user, message = turn
            shown = table_message(group)
            facts["groups"][name] = {
                "chat_id": group.chat.id, "users": [u.id for u in group.users],
                "names": [u.first_name for u in group.users], "game_id": game.game_id,
                "variant": game.variant, "move_no": game.move_no,
                "turn_seconds": seconds, "how": how,
                "to_move": user.id,
                "hand_caption": message.caption or message.text,
                "hand_buttons": buttons(message.buttons),
                "earlier_buttons": earlier_buttons(user, server, game.game_id, game.move_no),
                "table_caption": shown.caption, "table_photo": photo_digest(shown),
                "table_buttons": buttons(shown.buttons),
            }
        lobby_group = new_group(LOBBY[0], 4)
        lobby_group.runtime = runtime
        await lobby_group.open_table(LOBBY[1], LOBBY[2])
        lobby = lobby_group.lobby()
        facts["groups"]["lobby"] = {
            "chat_id": lobby_group.chat.id, "users": [u.id for u in lobby_group.users],
            "names": [u.first_name for u in lobby_group.users],
            "game_id": lobby_group.game().game_id, "seated": LOBBY[2],
            "lobby_text": lobby.text or lobby.caption, "lobby_buttons": buttons(lobby.buttons)}
        await server.wait_idle()
    server.assert_no_violations()
    chats = chat_contents(server)
    await server.stop()
    with closing(sqlite3.connect(database)) as source:
        source.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        DATABASE.unlink(missing_ok=True)
        with closing(sqlite3.connect(DATABASE)) as target:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")
            target.execute("VACUUM")
    FACTS.write_text(json.dumps(facts, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    CHATS.write_text(json.dumps(chats, ensure_ascii=False, separators=(",", ":")) + "\n",
                     encoding="utf-8")


if __name__ == "__main__":
    if "/wt/before" not in str(Path(sys.modules["bot"].__file__ or "")):
        raise SystemExit("run this against the tree before the refactor (see the docstring)")
    with tempfile.TemporaryDirectory() as scratch:
        asyncio.run(main(Path(scratch)))
