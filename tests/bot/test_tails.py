"""The newest message the bot knows of in each chat and topic (bot.publishing.tails)."""

from __future__ import annotations

import pytest

from bot.publishing import tails
from bot.publishing.tails import Tails

FORUM = {"id": -100, "type": "supergroup", "is_forum": True}


def test_a_send_is_the_newest_of_its_place_and_an_older_one_is_not() -> None:
    known = Tails()
    known.answered("sendPhoto", {"message_id": 9, "chat": {"id": -5, "type": "group"}})
    known.answered("sendMessage", {"message_id": 7, "chat": {"id": -5, "type": "group"}})
    assert known.newest(-5, None) == 9
    known.saw(-5, None, 12)  # someone's command, received
    assert known.newest(-5, None) == 12


def test_topics_are_places_of_their_own_and_general_has_no_thread() -> None:
    known = Tails()
    known.answered("sendMessage", {"message_id": 30, "chat": FORUM, "message_thread_id": 4,
                                   "is_topic_message": True})
    known.answered("sendMediaGroup", [{"message_id": 31, "chat": FORUM}])
    # (a reply chain's thread id, outside a topic, is no topic)
    known.answered("sendMessage", {"message_id": 32, "chat": {"id": -7, "type": "supergroup"},
                                   "message_thread_id": 3})
    assert known.newest(-100, 4) == 30
    assert known.newest(-100, None) == 31
    assert known.newest(-7, None) == 32 and known.newest(-7, 3) is None


def test_edits_other_answers_and_private_chats_are_not_noted() -> None:
    known = Tails()
    known.answered("editMessageCaption", {"message_id": 40, "chat": {"id": -5}})
    known.answered("sendChatAction", True)
    known.answered("copyMessage", {"message_id": 41})  # (no chat: the place is unknown)
    known.answered("sendMessage", {"message_id": 42, "chat": {"id": 5, "type": "private"}})
    assert known.newest(-5, None) is None and known.newest(5, None) is None


def test_places_past_the_bound_are_forgotten(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tails, "PLACES_KEPT", 3)
    known = Tails()
    for chat in range(3):
        known.saw(-chat - 1, None, 5)
    known.saw(-1, None, 6)  # a place known already: nothing forgotten
    assert known.newest(-3, None) == 5
    known.saw(-9, None, 1)
    assert known.newest(-1, None) is None and known.newest(-9, None) == 1
