"""The private hand's place line: its table's group and topic, the last named a link where
there is one, and every hand caption within Telegram's limit with the longest names."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from test_since_last_turn import T, turns

from bot.gamemessages import Messages
from bot.models import Game, Player, Status
from bot.presentation import captions
from bot.publishing.places import Places, table_url
from bot.storage import Storage
from bot.wording import CAPTION_LIMIT, FSI, PDI

URL = "https://t.me/c/1000000001/2/345"


def test_the_topic_is_the_link_and_the_group_is_named() -> None:
    assert captions.table_place(T, "Domino club", "Evening", URL) == (
        f'↩ The table is in the topic {FSI}<a href="{URL}">Evening</a>{PDI} of the group '
        f"{FSI}Domino club{PDI}.")
    assert captions.table_place(T, "Domino & co", "", URL) == (
        f'↩ The table is in the group {FSI}<a href="{URL}">Domino &amp; co</a>{PDI}.')
    assert captions.table_place(T, "Family", "", None) == (
        f"↩ The table is in the group {FSI}Family{PDI}.")
    assert captions.table_place(T, "", "Evening", URL) == (
        f'↩ <a href="{URL}">The table in the group</a>')
    assert captions.table_place(T, "", "", None) == ""


@pytest.mark.parametrize("seed", range(6))
def test_a_caption_with_the_longest_names_keeps_its_place_line_within_the_limit(
        seed: int) -> None:
    place = captions.table_place(T, "G" * 255, "T" * 128, URL)
    assert len(place) < 300  # each name shortened to 64
    for turn in turns("gaple", seed):
        caption = captions.hand_caption(T, turn.game, turn.view, table_link=place)
        assert len(caption) <= CAPTION_LIMIT and place in caption.split("\n")


def test_a_hand_sent_before_its_table_links_to_the_lobby_then_to_the_table() -> None:
    """A first turn's hand goes out before the table is posted: in a supergroup it links
    to the lobby's message, just above where the table comes (it had no link at all), and
    to the table once there is one; a basic group has no links."""
    game = Game(7, -1001234567890, Status.PLAYING, "gaple", {}, 1, [Player(1, "Ann")], None,
                5, "en", Messages(lobby=40))
    assert table_url(game) == "https://t.me/c/1234567890/40"
    game.messages.table_message = 45
    assert table_url(game) == "https://t.me/c/1234567890/45"
    assert table_url(replace(game, thread_id=2, messages=Messages(lobby=40))) == (
        "https://t.me/c/1234567890/2/40")
    assert table_url(replace(game, thread_id=2, messages=Messages())) == (
        "https://t.me/c/1234567890/2")
    assert table_url(replace(game, chat_id=-12345)) is None
    assert table_url(replace(game, messages=Messages())) is None


async def test_a_title_learnt_while_the_stored_one_is_read_stays(
        database: Path | str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A /newgame names the group as it is now while a sync of the group's other game
    reads the title stored before it (review): the hands say the new title."""
    storage = Storage(database)
    await storage.open()
    try:
        await storage.save_chat_title(-100, "Old name")
        places, reading, renamed = Places(storage), asyncio.Event(), asyncio.Event()
        stored_title = storage.chat_title

        async def read_while_renamed(chat_id: int) -> str | None:
            title = await stored_title(chat_id)
            reading.set()
            await renamed.wait()
            return title

        monkeypatch.setattr(storage, "chat_title", read_while_renamed)
        game = Game(7, -100, Status.PLAYING, "gaple", {}, 1, [Player(1, "Ann")], None, 5,
                    "en", Messages())
        learning = asyncio.create_task(places.learn(game))
        await reading.wait()
        places.chat_titles[-100] = "New name"  # (Runtime.chat_titled, from the /newgame)
        renamed.set()
        await learning
        assert places.group(game) == "New name"
    finally:
        await storage.close()
