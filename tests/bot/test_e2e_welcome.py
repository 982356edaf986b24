"""The bot added to a group posts its help once (newcomer QA: it said nothing, and nobody
knew what to type); added through its "Add me to a group" link, whose ``/start new``
follows in the group, the group still reads the help once."""

from __future__ import annotations

import re

from bot_kit import Group, plain

from bot.i18n import translator
from bot.presentation import lobbytexts


def helps(group: Group) -> int:
    words = re.sub(r"<[^>]+>", "", lobbytexts.help_text(translator("en")).splitlines()[0])
    return sum(words in plain(text) for text in group.texts())


async def test_the_bot_added_to_a_group_posts_its_help_once(group: Group) -> None:
    ayu = group.users[0]
    async with group.bot() as runtime:
        group.server.kick_bot(group.chat)
        await group.server.wait_idle()
        assert helps(group) == 0
        group.server.add_bot(group.chat, by=ayu)
        await group.server.wait_for(lambda: helps(group) == 1)
        ayu.send(group.chat, "/start new")  # the link's own /start, just after
        await group.server.wait_for(lambda: group.server.world.updates.all_delivered)
        await group.server.wait_idle()
        await runtime.publisher.idle()
        assert helps(group) == 1
        ayu.send(group.chat, "/help")  # asked for: answered as always
        await group.server.wait_for(lambda: helps(group) == 2)
