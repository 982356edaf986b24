"""Several games of one forum stopped at once (the bot removed): each player's last hand
still says which table it was (QA: the group's and topics' names were forgotten as the first
game left memory, before the others' hands were drawn)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot_kit import Group, counting_seeds, plain

from bot.models import Status
from fakeapi import FakeTelegramServer


async def test_games_stopped_together_keep_their_way_back(
        telegram: FakeTelegramServer, tmp_path: Path) -> None:
    users = [telegram.add_user(name, language_code="en") for name in ("Ayu", "Budi", "Dewi")]
    chat = telegram.add_group("Club", members=users, admins=users[:1], forum=True)
    evening = telegram.create_topic(chat, "Evening", users[0])
    morning = telegram.create_topic(chat, "Morning", users[0])
    first = Group(telegram, chat, users[:2], tmp_path / "bot.sqlite3", counting_seeds(),
                  topic=evening)
    places = [first, replace(first, users=[users[0], users[2]], topic=morning),
              replace(first, users=users[1:], topic=None)]
    async with first.bot() as runtime:
        for place in places[1:]:
            place.runtime = runtime
        tables = [await place.start("kolbasa", players=2) for place in places]
        for table in tables:
            await table.play_one()
        await runtime.publisher.idle()
        games = [place.game() for place in places]
        telegram.kick_bot(chat)
        await telegram.wait_for(lambda: all(g.status is Status.STOPPED for g in games))
        await runtime.publisher.idle()
        telegram.add_bot(chat, by=users[0])  # (each stopped table brought to its end)
        await telegram.wait_idle()
        await runtime.publisher.idle()
    for place, where in zip(places, ("the topic Evening of the group Club",
                                     "the topic Morning of the group Club",
                                     "the group Club"), strict=True):
        for user in place.users:
            captions = [plain(m.content) for m in telegram.bot_messages(user.private_chat)
                        if m.photo and not m.deleted and "stopped" in m.content]
            assert any(f"↩ The table is in {where}." in c for c in captions), (where, captions)
            assert not any(c.endswith("The table in the group") for c in captions), captions
