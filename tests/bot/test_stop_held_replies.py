"""SIGTERM while the group's limit (20 messages a minute) holds replies back: the bot stops
quietly, as an operator expects, one INFO line for each reply it gives up, no ERROR, no
traceback, exit 0. (A tester's stop logged an ERROR and a forty-line traceback for each.)"""

from __future__ import annotations

import signal
from pathlib import Path

from test_startup import RUNNING, bot_process, server_settings

from fakeapi import FakeTelegramServer

SENT = 24  # commands, against the 20 a minute the group's limit lets through
NOT_SENT = "INFO bot.handlers.updates [chat={chat}]: reply not sent: the bot is stopping"


async def test_replies_held_back_at_a_stop_are_given_up_quietly(telegram: FakeTelegramServer,
                                                                tmp_path: Path) -> None:
    ayu = telegram.add_user("Ayu", language_code="en", started=True)
    budi = telegram.add_user("Budi", language_code="en", started=True)
    chat = telegram.add_group("Domino evening", members=[ayu, budi], admins=[ayu])
    async with bot_process(tmp_path, **server_settings(telegram)) as bot:
        await bot.until(lambda lines: any(line.endswith(RUNNING) for line in lines))
        for number in range(SENT):
            (ayu if number % 2 else budi).send(chat, "/rules gaple")
        await telegram.wait_for(lambda: len(telegram.bot_messages(chat)) >= 3, timeout=30,
                                message="the first replies")
        bot.process.send_signal(signal.SIGTERM)
        assert await bot.ended() == 0
    given_up = [line for line in bot.unstamped() if line == NOT_SENT.format(chat=chat.id)]
    assert given_up and len(given_up) + len(telegram.bot_messages(chat)) == SENT, bot.text()
    assert not [line for line in bot.lines
                if "ERROR" in line or "CRITICAL" in line or "Traceback" in line], bot.text()
