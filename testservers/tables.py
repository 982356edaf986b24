"""Tables of simulated people (and computer players) who play through the fake Bot API server,
for the fleet tests and ``benchmarks.fleet`` alike: each person taps their own hand when it is
their turn, and taps again when a tap goes unanswered within :data:`ANSWER_WAIT`. Here, not in
the tests, so that the benchmark does not import a test module."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass

from fakeapi import FakeChat, FakeTelegramServer, FakeUser, StoredMessage, WaitTimeoutError
from fakeapi.players import button, live_buttons, second_taps

from .stopping import settle

MATCH_OVER = "The match is over"
#: A simulated person taps again when a tap is not answered within this (its worker died
#: between its commit and its answer, or the tap waits for the shard's new owner).
ANSWER_WAIT = 8.0
#: A table whose taps go unanswered this many times in a row is stuck: the run fails.
MAX_RETAPS = 5


@dataclass
class Table:
    """A group where ``humans`` people (and computers in the other seats, of 4) play one match
    of ``game``: each person taps their own hand when it is their turn, and taps again when a
    tap is not answered within :data:`ANSWER_WAIT`."""

    server: FakeTelegramServer
    chat: FakeChat
    users: list[FakeUser]
    game: str
    rng: random.Random
    computers: int = 0
    moves: int = 0
    retaps: int = 0
    opened_after: int = 0  # the group's last message id before the match was opened
    _unanswered: int = 0  # taps unanswered in a row

    def whose_turn(self) -> tuple[FakeUser, StoredMessage] | None:
        """The person whose hand (among the last messages of their chat) waits for a tap."""
        for user in self.users:
            for message in reversed(self.server.world.recent_messages(user.private_chat, 4)):
                if message.from_bot and not message.deleted and live_buttons(message):
                    return user, message
        return None

    def over(self) -> bool:
        """The match opened last is over (said among the group's last messages, after it
        was opened)."""
        return any(m.message_id > self.opened_after and m.from_bot
                   and MATCH_OVER in (m.text or m.caption or "")
                   for m in self.server.world.recent_messages(self.chat, 8))

    async def _said(self, user: FakeUser, text: str, prefix: str) -> StoredMessage:
        before = len(self.server.bot_messages(self.chat))
        user.send(self.chat, text)
        found: StoredMessage = await self.server.wait_for(lambda: next(
            (m for m in self.server.bot_messages(self.chat)[before:] if button(m, prefix)),
            None), timeout=60, message=f"{self.chat.name}: {text}")
        return found

    async def _tap(self, user: FakeUser, message: StoredMessage, data: str) -> None:
        """A lobby tap, tapped again while it goes unanswered."""
        for _ in range(MAX_RETAPS):
            record = user.press_raw(message, data)
            try:
                await self.server.wait_for(lambda r=record: r.answered,  # type: ignore[misc]
                                           timeout=ANSWER_WAIT)
                return
            except WaitTimeoutError:
                self.retaps += 1
        raise WaitTimeoutError(f"{self.chat.name}: {data} unanswered\n{self.story()}")

    async def open(self) -> None:
        """Everyone opens the private chat; a lobby; computers and people sit; started."""
        last = self.server.world.recent_messages(self.chat, 1)
        self.opened_after = last[0].message_id if last else 0
        for user in self.users:
            user.send_private("/start")
        # As a person would: the greeting seen before joining. (In a fleet a private chat's
        # updates and a group's may be handled by two workers, in either order.)
        for user in self.users:
            await self.server.wait_for(lambda u=user: any(  # type: ignore[misc]
                m.from_bot for m in self.server.world.recent_messages(u.private_chat, 2)),
                timeout=60, message=f"{self.chat.name}: {user.first_name}'s /start")
        lobby = await self._said(self.users[0], f"/newgame {self.game}", "j:")
        game_id = (button(lobby, "j:") or "").split(":")[1]
        for user in self.users[1:]:
            await self._tap(user, lobby, button(lobby, "j:") or "")
        for _ in range(self.computers):
            await self._tap(self.users[0], lobby, f"a:{game_id}:2")
        await self._tap(self.users[0], lobby, button(lobby, "s:") or "")

    async def play(self, timeout: float = 60.0) -> None:
        """Play until the match is over; a tap unanswered in time is tapped again."""
        server = self.server
        while not self.over():
            try:
                await server.wait_for(lambda: self.whose_turn() is not None or self.over(),
                                      timeout=timeout)
            except WaitTimeoutError:
                raise WaitTimeoutError(f"{self.chat.name}: nobody's turn for {timeout}s\n"
                                       f"{self.story()}") from None
            turn = self.whose_turn()
            if turn is None:
                continue
            user, message = turn
            shown = live_buttons(message)
            if not await self._press(user, message, self.rng.choice(shown)):
                continue
            try:
                await server.wait_for(lambda m=message, s=shown: (  # type: ignore[misc]
                    m.deleted or live_buttons(m) != s), timeout=ANSWER_WAIT)
            except WaitTimeoutError:
                continue  # a refusal answered, the hand unchanged: look again
            follow = second_taps(live_buttons(message))
            if follow and not await self._press(user, message, self.rng.choice(follow)):
                continue
            self.moves += 1

    def story(self, lines: int = 30) -> str:
        """The end of what happened at this table: in the group and in its people's chats."""
        chats = [self.chat, *(user.private_chat for user in self.users)]
        return "\n".join(f"--- {chat.name}:\n" + "\n".join(
            self.server.transcript(chat).splitlines()[-lines:]) for chat in chats)

    async def keep_playing(self) -> None:
        """Match after match, until cancelled (the benchmarks' steady load)."""
        while True:
            await self.play()
            await self.open()

    async def _press(self, user: FakeUser, message: StoredMessage, label: str) -> bool:
        """Tap ``label``; False when it went unanswered (tapped again after a new look)."""
        if message.deleted:
            return False  # the bot replaced the hand meanwhile: look again
        record = user.press(message, label)
        try:
            await self.server.wait_for(lambda: record.answered, timeout=ANSWER_WAIT)
        except WaitTimeoutError:
            self.retaps += 1
            self._unanswered += 1
            if self._unanswered >= MAX_RETAPS:
                raise WaitTimeoutError(f"{self.chat.name}: {MAX_RETAPS} taps in a row "
                                       f"unanswered\n{self.story()}") from None
            return False
        self._unanswered = 0
        return True


async def open_tables(server: FakeTelegramServer, plan: Sequence[tuple[str, int]], seed: int
                      ) -> list[Table]:
    """One group per (game, people at the table) in ``plan``; 4 seats, computers in the rest;
    opened all at once."""
    tables = []
    for number, (game, people) in enumerate(plan):
        users = [server.add_user(f"T{number}{name}", language_code="en", started=True)
                 for name in "ABCD"[:people]]
        chat = server.add_group(f"Table {number}", members=users, admins=users[:1])
        tables.append(Table(server, chat, users, game, random.Random(seed + number),
                            computers=4 - people))
    opening = [asyncio.ensure_future(table.open()) for table in tables]
    try:
        await asyncio.gather(*opening)
    finally:  # one table failing to open stops the others (they would play on, unwatched)
        await settle(opening)
    return tables
