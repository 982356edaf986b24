"""A backup restored: the groups whose games it took back are told so.

A restored backup is older than its chats: a game played on after the backup was made shows
its table again at an older position (its messages are sent anew at the start, see
:meth:`Publisher.send_anew <bot.publishing.publisher.Publisher.send_anew>`), and without a
word the players would take it for the bot's mistake. Each game under way gets one short
notice in its chat (and topic), in the game's language, through its outbox: committed before
the sync that posts the table anew, it goes out first, and a stop before it is sent keeps it.
The bot cannot tell which games did move after the backup (the chats know, the database does
not), so the notice says "moves made since then", true of a game that made none.
"""

from __future__ import annotations

import time

from ..i18n import N_, translator
from ..models import Game, Outgoing, Status
from ..storage import Storage

#: The notice of a game taken back by a restored backup ({made}: when the backup was made).
REWOUND = N_("⏪ The bot was restored from a backup made {made}: moves made since then are "
             "undone, and this game goes on from where it was then.")


def made_at(backup: float) -> str:
    """When the backup was made, in the notice's words (UTC, to the minute)."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(backup))


async def tell_rewound(storage: Storage, games: list[Game], backup: float) -> int:
    """Queue the notice in each game under way; how many were told."""
    told = 0
    for game in games:
        if game.status is not Status.PLAYING:  # a lobby: its message is edited anew, enough
            continue
        text = translator(game.language)(REWOUND, made=made_at(backup))
        # (the players as they are: the notice alone is written, in the outbox)
        await storage.save_players(game, [Outgoing(text)], time.time())
        told += 1
    return told
