"""The newest message the bot knows of in each chat and topic (bot.publishing.tails)."""

from __future__ import annotations

import datetime

import pytest
from telegram import Chat, Message, User

from bot.handlers.updates import privacy_hides
from bot.publishing import tails
from bot.publishing.tails import Tails

NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
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


def test_only_a_chat_seen_read_in_full_is_trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A chat is read in full once the bot received what privacy mode would have hidden
    there; that knowledge goes with the places when they are forgotten."""
    monkeypatch.setattr(tails, "PLACES_KEPT", 2)
    known = Tails()
    known.saw(-1, None, 5)  # a command: privacy mode shows it anyway
    assert not known.reads_all(-1)
    known.saw(-1, 4, 6, unprompted=True)  # plain talk, in a topic: the whole chat
    assert known.reads_all(-1) and not known.reads_all(-2)
    known.saw(-2, None, 5)
    known.saw(-3, None, 5)  # past the bound: all forgotten
    assert not known.reads_all(-1)


def test_what_privacy_mode_would_have_hidden() -> None:
    bot = User(1, "Domino", True, username="DominoBot")
    person = User(2, "Ayu", False)
    chat = Chat(-5, "group")

    def said(text: str, reply_to: User | None = None) -> Message:
        replied = None if reply_to is None else Message(1, NOW, chat, from_user=reply_to)
        return Message(2, NOW, chat, from_user=person, text=text, reply_to_message=replied)

    def hides(message: Message) -> bool:
        return privacy_hides(message, bot.id, bot.username)

    assert hides(said("nice move"))
    assert hides(said("nice move", reply_to=person))
    assert not hides(said("/table"))
    assert not hides(said("nice", reply_to=bot))
    assert not hides(said("hey @dominobot"))
    assert not hides(Message(3, NOW, chat, from_user=person))  # no text


def test_the_chats_of_a_shard_given_away_are_forgotten() -> None:
    known = Tails()
    known.saw(-1, None, 5, unprompted=True)
    known.saw(-1, 3, 6)
    known.saw(-2, None, 7, unprompted=True)
    known.forget(lambda chat: chat == -1)
    assert known.newest(-1, None) is None and known.newest(-1, 3) is None
    assert not known.reads_all(-1)
    assert known.newest(-2, None) == 7 and known.reads_all(-2)
