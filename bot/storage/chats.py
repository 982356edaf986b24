"""Users, chats and the outbox: who may get private messages, each group's settings, and
the announcements committed but not yet sent."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass

from ..gamemessages import leave_group
from ..i18n import Speech
from ..models import Status
from ..storedjson import dumps, json_object
from .core import Connection, marks
from .fencing import fence
from .tx import Tx


@dataclass(frozen=True, slots=True)
class OutboxItem:
    id: int
    game_id: int
    chat_id: int
    text: str
    photo: bytes | None
    buttons: list[list[list[str]]] | None = None
    #: Marked in flight: its send began (and perhaps reached Telegram) before now.
    sending: bool = False


#: Games remembered with an empty outbox, at most (then forgotten all at once).
OUTBOX_EMPTY_KEPT = 4096
#: Users' languages remembered, at most (then forgotten all at once).
LANGUAGES_KEPT = 16384


class ChatRows(Connection):
    async def remember_user(
        self, user_id: int, name: str, username: str | None, language: str | None,
        private_ok: bool | None = None,
    ) -> None:
        await self.execute(
            "INSERT INTO users (user_id, name, username, language, private_ok, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(user_id) DO UPDATE SET name=excluded.name,"
            " username=excluded.username, language=excluded.language,"
            " private_ok=CASE WHEN CAST(? AS INTEGER) IS NULL THEN users.private_ok"
            " ELSE excluded.private_ok END,"
            " updated_at=excluded.updated_at",
            (user_id, name, username, language, int(bool(private_ok)), time.time(),
             None if private_ok is None else int(private_ok)),
        )
        self.languages.pop(user_id, None)  # read again (after the write: a read meanwhile
        # could have kept the old one)

    async def set_private_ok(self, user_id: int, ok: bool) -> None:
        await self.execute("UPDATE users SET private_ok=?, updated_at=? WHERE user_id=?",
                           (int(ok), time.time(), user_id))

    async def private_ok(self, user_id: int) -> bool:
        row = await self.fetch_one("SELECT private_ok FROM users WHERE user_id=?", (user_id,))
        return bool(row and row["private_ok"])

    async def choose_language(self, user_id: int, language: str | None) -> None:
        """The language a person chose in private /language (None: automatic again); their
        row is there (the command remembers them first)."""
        await self.execute("UPDATE users SET chosen_language=?, updated_at=? WHERE user_id=?",
                           (language, time.time(), user_id))
        self.languages.pop(user_id, None)

    async def user_language(self, user_id: int) -> Speech | None:
        """A person's language (:class:`Speech`); None: the bot does not know them."""
        return (await self.user_languages([user_id])).get(user_id)

    async def user_languages(self, user_ids: Iterable[int]) -> dict[int, Speech]:
        """The languages of these users (those the bot knows), in one query: a table's hand
        sync asks for every seat's each move. On SQLite what was read is kept until this
        process writes the user again, and a hand sync reads nothing."""
        wanted = sorted(set(user_ids))
        if all(user_id in self.languages for user_id in wanted):
            return {user_id: self.languages[user_id] for user_id in wanted}
        rows = await self.fetch_all(
            "SELECT user_id, language, chosen_language FROM users"
            f" WHERE user_id IN ({marks(len(wanted))})", wanted)
        found = {int(r["user_id"]): Speech(r["language"], r["chosen_language"]) for r in rows}
        if self.dialect == "sqlite":
            if len(self.languages) >= LANGUAGES_KEPT:
                self.languages.clear()
            self.languages.update(found)
        return found

    async def chat_settings(self, chat_id: int) -> str | None:
        row = await self.fetch_one("SELECT settings FROM chats WHERE chat_id=?", (chat_id,))
        return str(row["settings"]) if row else None

    async def save_chat_settings(self, chat_id: int, settings: str) -> None:
        async def write(tx: Tx) -> None:
            await fence(tx)
            await tx.execute(
                "INSERT INTO chats (chat_id, settings) VALUES (?, ?)"
                " ON CONFLICT(chat_id) DO UPDATE SET settings=excluded.settings",
                (chat_id, settings),
            )
        await self.write(write)

    async def chat_title(self, chat_id: int) -> str | None:
        row = await self.fetch_one("SELECT title FROM chats WHERE chat_id=?", (chat_id,))
        return None if row is None or row["title"] is None else str(row["title"])

    async def save_chat_title(self, chat_id: int, title: str | None) -> None:
        await self.execute(
            "INSERT INTO chats (chat_id, title) VALUES (?, ?)"
            " ON CONFLICT(chat_id) DO UPDATE SET title=excluded.title",
            (chat_id, title),
        )

    async def topic_name(self, chat_id: int, thread_id: int) -> str | None:
        """A forum topic's name as the bot last learnt it; None: never learnt."""
        row = await self.fetch_one("SELECT name FROM topics WHERE chat_id=? AND thread_id=?",
                                   (chat_id, thread_id))
        return None if row is None else str(row["name"])

    async def save_topic_name(self, chat_id: int, thread_id: int, name: str) -> None:
        await self.execute(
            "INSERT INTO topics (chat_id, thread_id, name) VALUES (?, ?, ?)"
            " ON CONFLICT(chat_id, thread_id) DO UPDATE SET name=excluded.name",
            (chat_id, thread_id, name),
        )

    async def settings_menu(self, chat_id: int) -> int | None:
        """The message id of the group's live /settings menu, if it has one."""
        row = await self.fetch_one("SELECT settings_menu FROM chats WHERE chat_id=?", (chat_id,))
        return None if row is None or row["settings_menu"] is None else int(row["settings_menu"])

    async def save_settings_menu(self, chat_id: int, message_id: int | None) -> None:
        await self.execute(
            "INSERT INTO chats (chat_id, settings_menu) VALUES (?, ?)"
            " ON CONFLICT(chat_id) DO UPDATE SET settings_menu=excluded.settings_menu",
            (chat_id, message_id),
        )

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: everything of the old id moves to the new one (its
        settings merged into any the supergroup has already: :func:`merge_chat_row`), its
        games' group messages left behind (:func:`leave_old_group`)."""
        async def write(tx: Tx) -> None:
            await fence(tx)
            await leave_old_group(tx, old_chat_id)
            for table in ("games", "outbox", "hand_results", "match_results"):
                await tx.execute(
                    f"UPDATE {table} SET chat_id=? WHERE chat_id=?", (new_chat_id, old_chat_id)
                )
            await merge_chat_row(tx, old_chat_id, new_chat_id)
        await self.write(write)

    # --- outbox ------------------------------------------------------------------------
    async def pending_outbox(self, game_id: int) -> list[OutboxItem]:
        """The game's announcements still to send, in order. Most syncs find none: on SQLite
        a game read empty is remembered so until this process queues one for it (the read
        and the transactions that queue take the connection's lock in turn, so one queued
        after the read forgets it), and not read again."""
        if game_id in self.outbox_empty:
            return []
        rows = await self.fetch_all(
            "SELECT id, game_id, chat_id, text, photo, buttons, sending FROM outbox"
            " WHERE game_id=?"
            " ORDER BY id",
            (game_id,),
        )
        if not rows and self.dialect == "sqlite":
            if len(self.outbox_empty) >= OUTBOX_EMPTY_KEPT:
                self.outbox_empty.clear()  # (read again, once each: nothing is lost)
            self.outbox_empty.add(game_id)
        return [
            OutboxItem(r["id"], r["game_id"], r["chat_id"], r["text"], r["photo"],
                       json.loads(r["buttons"]) if r["buttons"] else None, bool(r["sending"]))
            for r in rows
        ]

    async def games_with_outbox(self) -> list[int]:
        rows = await self.fetch_all("SELECT DISTINCT game_id FROM outbox ORDER BY game_id")
        return [int(r["game_id"]) for r in rows]

    async def outbox_backlog(self) -> tuple[int, float | None]:
        """How many announcements wait to be sent, and when the oldest was committed."""
        row = await self.fetch_one("SELECT COUNT(*), MIN(created_at) FROM outbox")
        return (int(row[0]), row[1]) if row is not None else (0, None)

    async def outbox_sending(self, item_id: int, sending: bool) -> None:
        """Marks an announcement in flight, before its send (or no more, surely not sent):
        found so by a later life of the bot (killed before its mark as sent), it is not sent
        again."""
        await self.execute("UPDATE outbox SET sending=? WHERE id=?", (int(sending), item_id))

    async def outbox_done(self, item_id: int) -> None:
        await self.execute("DELETE FROM outbox WHERE id=?", (item_id,))




async def leave_old_group(tx: Tx, old_chat_id: int) -> None:
    """Every game of the old group forgets its messages there (:func:`left_behind`), not
    only those in memory (the service's, saved so before): a finished one read again later
    (a restart syncs the games closed lately) would take their ids for the supergroup's."""
    rows = await tx.fetch_all(
        "SELECT game_id, status, messages FROM games WHERE chat_id=?", (old_chat_id,))
    for row in rows:
        moved = leave_group(row["messages"], Status(row["status"]).open)
        if moved != row["messages"]:
            await tx.execute(
                "UPDATE games SET messages=? WHERE game_id=?", (moved, row["game_id"]))


async def merge_chat_row(tx: Tx, old_chat_id: int, new_chat_id: int) -> None:
    """The old group's row copied to the supergroup's. Telegram may tell of the bot joining
    the supergroup before the upgrade is handled, and that writes a row for it (its adder's
    automatic language): the old group's settings and title win over it, and its automatic
    language is kept only when the old group had none (review: the admin's language, turn
    time and house rules were lost). The old group's settings menu stays behind: its id
    names another message in the supergroup (review: the first /settings there took the
    bot's answer of that number for the menu it replaces, and edited it)."""
    columns = "title, language, settings, settings_menu"
    old = await tx.fetch_one(f"SELECT {columns} FROM chats WHERE chat_id=?", (old_chat_id,))
    if old is None:
        return
    new = await tx.fetch_one(f"SELECT {columns} FROM chats WHERE chat_id=?", (new_chat_id,))
    if new is None:
        await tx.execute(
            f"INSERT INTO chats (chat_id, {columns}) VALUES (?, ?, ?, ?, ?)",
            (new_chat_id, old["title"], old["language"], old["settings"], None))
        return
    settings = json_object(old["settings"])
    if not settings.get("auto_language"):
        auto = json_object(new["settings"]).get("auto_language")
        if auto:
            settings["auto_language"] = auto
    await tx.execute(
        "UPDATE chats SET title=?, language=?, settings=?, settings_menu=? WHERE chat_id=?",
        (old["title"] if old["title"] is not None else new["title"],
         old["language"] if old["language"] is not None else new["language"],
         dumps(settings),
         new["settings_menu"], new_chat_id))
