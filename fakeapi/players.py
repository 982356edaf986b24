"""Simulated players: people who tap the buttons the bot sends them, one turn at a time.

Used by the end-to-end tests and the offline demo. A player looks only at what the bot sent
to their own private chat, like a person would: the marked tiles (✅ to lay, ⬛ to put face
down), and the second tap when there is one: the end buttons (◀ / ▶, and ▲ / ▼ for the ends
up and down or Kolbasa's upper and lower ribbons, each maybe "across" or "along") when a tile
has several places, the ribbon a cut
gives away (✂), the confirmation of a tile put face down.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .chats import FakeUser
from .fake_api import FakeTelegramServer
from .messages import StoredMessage
from .records import CallbackQueryRecord

PLAY_MARKS = ("✅", "⬛")
TILE_BUTTON = re.compile(r"^(✅|⬛) \d+-\d+$")
END_MARKS = ("◀", "▶", "▲", "▼", "✂")


def is_end(label: str) -> bool:
    return label.startswith(END_MARKS) or label.endswith(END_MARKS)


def is_confirmation(label: str) -> bool:
    """"⬛ Yes, put 1-1 face down", as against a tile's own button "⬛ 1-1"."""
    return label.startswith(PLAY_MARKS) and not TILE_BUTTON.match(label)


def second_taps(labels: list[str]) -> list[str]:
    return [label for label in labels if is_end(label) or is_confirmation(label)]


def live_buttons(message: StoredMessage) -> list[str]:
    """Labels of the buttons that act on the game now (tiles to lay or discard, ends)."""
    return [
        button.text
        for row in message.buttons
        for button in row
        if button.callback_data and (button.text.startswith(PLAY_MARKS) or is_end(button.text))
    ]


def active_hand(server: FakeTelegramServer, user: FakeUser) -> StoredMessage | None:
    """The user's hand message that waits for a tap, if it is their turn."""
    for message in reversed(server.bot_messages(user.private_chat)):
        if not message.deleted and live_buttons(message):
            return message
    return None


@dataclass
class Table:
    """Players at one table, and a way to let them play until something holds."""

    server: FakeTelegramServer
    players: Sequence[FakeUser]
    choose: Callable[[list[str]], str] = lambda labels: labels[0]

    def whose_turn(self) -> tuple[FakeUser, StoredMessage] | None:
        for user in self.players:
            message = active_hand(self.server, user)
            if message is not None:
                return user, message
        return None

    async def play_one(
        self, timeout: float = 15, done: Callable[[], bool] | None = None
    ) -> CallbackQueryRecord | None:
        """Wait for a player's turn and make one move (two taps when an end must be chosen).

        Returns None, without moving, when ``done`` comes true first.
        """
        await self.server.wait_for(
            lambda: self.whose_turn() is not None or (done is not None and done()),
            timeout=timeout, message="nobody got a turn",
        )
        turn = self.whose_turn()
        if turn is None:
            return None
        user, message = turn
        shown = live_buttons(message)
        record = user.press(message, self.choose(shown))
        await self.server.wait_for(lambda: record.answered, timeout=timeout,
                                   message="the tap was not answered")
        # As a person does: the answer may come before the message changes (the bot answers
        # first), so look again once it shows the move or the question of the second tap.
        await self.server.wait_for(
            lambda: message.deleted or live_buttons(message) != shown, timeout=timeout,
            message="the tapped hand message did not change",
        )
        follow = second_taps(live_buttons(message))
        if follow:
            record = user.press(message, self.choose(follow))
            await self.server.wait_for(lambda: record.answered, timeout=timeout,
                                       message="the second tap was not answered")
        await self.server.wait_for(
            lambda: message.deleted or not live_buttons(message), timeout=timeout,
            message="the played hand message was not updated",
        )
        return record

    async def play_until(self, done: Callable[[], bool], max_moves: int = 2000) -> int:
        moves = 0
        while not done():
            if moves >= max_moves:
                raise AssertionError(f"still not done after {max_moves} moves")
            if await self.play_one(done=done) is not None:
                moves += 1
        return moves


def button(message: StoredMessage, prefix: str) -> str | None:
    """The callback data of the message's first button whose data starts with ``prefix``
    (the benchmarks press lobby buttons by their data, whatever their language)."""
    return next((b.callback_data for row in message.buttons for b in row
                 if (b.callback_data or "").startswith(prefix)), None)


def random_choice(seed: int) -> Callable[[list[str]], str]:
    rng = random.Random(seed)
    return lambda labels: rng.choice(labels)
