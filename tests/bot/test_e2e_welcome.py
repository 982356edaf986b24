"""The bot added to a group posts its help once (newcomer QA: it said nothing, and nobody
knew what to type); added through its "Add me to a group" link, whose ``/start new``
follows in the group, the group still reads the help once. Added back soon after its
removal stopped the group's game, it says so first (QA: only the players were told)."""

from __future__ import annotations

import re

from bot_kit import Group, plain

from bot.i18n import translator
from bot.presentation import lobbytexts
from bot.service.seats import REMOVAL_TOLD_FOR


def helps_in(text: str) -> bool:
    words = re.sub(r"<[^>]+>", "", lobbytexts.help_text(translator("en")).splitlines()[0])
    return words in plain(text)


def helps(group: Group) -> int:
    return sum(helps_in(text) for text in group.texts())


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


REMOVED = "The game was stopped: I was removed from the group."


def removals(group: Group) -> list[str]:
    return [text for text in group.texts() if text.startswith(REMOVED)]


async def test_added_back_the_bot_says_first_that_its_removal_stopped_the_game(
        group: Group) -> None:
    """QA: removed mid-game and added back, the bot posted its help alone, and only the
    players' private messages said why their game ended: the welcome says it first, once."""
    ayu = group.users[0]
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await table.play_one()
        await runtime.publisher.idle()
        group.server.kick_bot(group.chat)
        await group.server.wait_idle()
        group.server.add_bot(group.chat, by=ayu)
        await group.server.wait_for(lambda: helps(group) == 1)
        welcome = [text for text in group.texts() if helps_in(text)]
        assert welcome[0].startswith(REMOVED + "\n\n"), welcome
        assert group.game().messages.removed_at is None  # told: stored
        group.server.kick_bot(group.chat)  # again, no game stopped this time: not said again
        await group.server.wait_idle()
        group.server.add_bot(group.chat, by=ayu)
        await group.server.wait_idle()
        await runtime.publisher.idle()
        assert len(removals(group)) == 1


async def test_added_back_days_after_its_removal_the_bot_posts_its_help_alone(
        group: Group) -> None:
    ayu = group.users[0]
    async with group.bot() as runtime:
        await group.start("gaple")
        await runtime.publisher.idle()
        group.server.kick_bot(group.chat)
        await group.server.wait_idle()
        now = runtime.service.clock()
        runtime.service.clock = lambda: now + REMOVAL_TOLD_FOR + 60
        group.server.add_bot(group.chat, by=ayu)
        await group.server.wait_for(lambda: helps(group) == 1)
        await runtime.publisher.idle()
        assert not removals(group)
