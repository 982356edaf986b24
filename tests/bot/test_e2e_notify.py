"""/notify, as players use it: on and off in the group, the private notice a lobby's opening
sends each subscriber (in their language, with a Join link that seats them), the private
chat to open first, a subscriber who blocked the bot, and a big group's notices under
Telegram's limits.

The tables, the storage and the sending (the publisher's, after the lobby's group sync) are
the product's; only the command is registered here until ``app.py`` lists it.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest
from bot_kit import Group, counting_seeds, lobby_button, plain

from bot.models import Status
from bot.publishing.notices import Notices
from fakeapi import FakeTelegramServer, FakeUser, StoredMessage


@pytest.fixture
def notify(telegram: FakeTelegramServer, tmp_path: Path,
           monkeypatch: pytest.MonkeyPatch) -> Group:
    """A group whose people speak the four languages: Ayu (en) opens tables; Budi (id),
    Sergei (ru), Þóra (is) and Dewi (en) may subscribe."""
    users = [telegram.add_user(name, language_code=code) for name, code in
             (("Ayu", "en"), ("Budi", "id"), ("Sergei", "ru"), ("Þóra", "is"), ("Dewi", "en"))]
    chat = telegram.add_group("Domino evening", members=users, admins=users[:1])
    return Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())


def private(group: Group, user: FakeUser) -> list[StoredMessage]:
    return group.server.bot_messages(user.private_chat)


def notices(group: Group, user: FakeUser) -> list[StoredMessage]:
    """The private messages with a Join link (the /notify notices)."""
    return [m for m in private(group, user)
            if any(b.url and "start=join" in b.url for row in m.buttons for b in row)]


def subscribers(group: Group) -> set[int]:
    with closing(sqlite3.connect(group.database)) as db:
        return {row[0] for row in db.execute("SELECT user_id FROM subscriptions")}


async def replied(group: Group, user: FakeUser, fragment: str) -> StoredMessage:
    """``user`` sends /notify in the group; the bot's reply that holds ``fragment``."""
    sent = group.send(user, "/notify")
    return await group.server.wait_for(lambda: next(
        (m for m in group.messages() if fragment in m.content
         and m.reply_to is sent), None))


async def test_subscribers_but_the_opener_are_told_in_their_language_and_join(
        notify: Group) -> None:
    ayu, budi, sergei, thora, dewi = notify.users
    async with notify.bot():
        for user in notify.users:
            user.send_private("/start")
        await replied(notify, budi, "chat pribadi kalau ada meja dibuka")  # before any table
        await replied(notify, sergei, "Напишу тебе в личку")  # it speaks the sender's
        await replied(notify, thora, "Ég sendi þér einkaskilaboð")
        await replied(notify, ayu, "I will message you in private when a table opens here")
        await replied(notify, dewi, "I will message you")
        await replied(notify, dewi, "Done: I will not message you about new tables")  # off
        assert subscribers(notify) == {ayu.id, budi.id, sergei.id, thora.id}

        notify.send(ayu, "/newgame gaple")
        await notify.server.wait_for(notify._lobby_or_none)
        for user in (budi, sergei, thora):
            await notify.server.wait_for(lambda u=user: notices(notify, u))  # type: ignore[misc]
        await notify.runtime.publisher.idle()  # type: ignore[union-attr]
        assert notices(notify, ayu) == [] and notices(notify, dewi) == []

        (told_id,), (told_ru,), (told_is,) = (notices(notify, u) for u in (budi, sergei, thora))
        assert plain(told_id.text or "").startswith("🔔 Ayu membuka meja Gaple di Domino evening.")
        assert "Kirim /notify lagi di grup" in (told_id.text or "")
        assert plain(told_ru.text or "").startswith(
            "🔔 Ayu зовёт за стол: Гапле в группе Domino evening.")
        assert plain(told_is.text or "").startswith("🔔 Ayu opnaði borð í hópnum Domino evening:")
        assert [b.text for b in told_ru.buttons[0]] == ["✋ Играю"]

        sergei.open_url(told_ru.buttons[0][0].url or "")
        await notify.server.wait_for(lambda: sergei.id in notify.lobby().mentioned_user_ids)
        assert [p.user_id for p in notify.game().players] == [ayu.id, sergei.id]
        # the group speaks English since Ayu's table: so does /notify's reply to Sergei
        await replied(notify, sergei, "Done: I will not message you about new tables here")
        assert subscribers(notify) == {ayu.id, budi.id, thora.id}


async def test_a_table_opened_with_the_game_pickers_button_is_told_too(notify: Group) -> None:
    """Not only /newgame with a game: the picker's button opens a table the same way, and
    its subscribers hear of it once its lobby is up."""
    ayu, budi = notify.users[:2]
    async with notify.bot():
        for user in (ayu, budi):
            user.send_private("/start")
        await replied(notify, budi, "🔔")
        notify.send(ayu, "/newgame")
        picker = await notify.server.wait_for(lambda: next(
            (m for m in notify.messages() if "Which game?" in (m.text or "")), None))
        ayu.press(picker, "Pair dominoes")
        (told,) = await notify.server.wait_for(lambda: notices(notify, budi))
        assert plain(told.content).startswith("🔔 Ayu membuka meja Domino berpasangan")


async def test_a_user_without_a_private_chat_is_shown_how_to_open_it(notify: Group) -> None:
    dewi = notify.users[4]
    async with notify.bot():
        answer = await replied(notify, dewi, "open our private chat first")
        assert subscribers(notify) == set()
        (button,) = answer.buttons[0]
        assert button.text == "💬 Open my private chat" and button.url is not None
        dewi.open_url(button.url)
        await notify.server.wait_for(lambda: any(
            "Now send /notify in the group again" in m.content for m in private(notify, dewi)))
        await replied(notify, dewi, "I will message you in private")
        assert subscribers(notify) == {dewi.id}


async def test_subscribers_who_blocked_the_bot_are_dropped_quietly(notify: Group) -> None:
    """Budi blocks the bot (Telegram tells it); Sergei's block is learnt from the notice
    Telegram refuses; Þóra is told as ever, and the group hears nothing of it."""
    ayu, budi, sergei, thora, _ = notify.users
    async with notify.bot():
        for user in (ayu, budi, sergei, thora):
            user.send_private("/start")
            await replied(notify, user, "🔔")
        budi.block_bot()
        await notify.server.wait_for(lambda: budi.id not in subscribers(notify))
        sergei.blocked = True  # no update: the notice finds out
        notify.send(ayu, "/newgame gaple")
        await notify.server.wait_for(lambda: notices(notify, thora))
        await notify.server.wait_for(lambda: sergei.id not in subscribers(notify))
        await notify.runtime.publisher.idle()  # type: ignore[union-attr]
        assert subscribers(notify) == {ayu.id, thora.id}
        assert notices(notify, budi) == [] and notices(notify, sergei) == []
        assert not any("block" in text.lower() for text in notify.texts())


async def test_notices_are_per_topic(telegram: FakeTelegramServer, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """In a forum, /notify is about the topic it is sent in: a table in another topic (or
    in General) is not told, and the private words send the subscriber back to the topic,
    not to the group."""
    ayu, budi = (telegram.add_user(name) for name in ("Ayu", "Budi"))
    chat = telegram.add_group("Domino club", members=[ayu, budi], admins=[ayu], forum=True)
    evening = telegram.create_topic(chat, "Evening", by=ayu)
    group = Group(telegram, chat, [ayu, budi], tmp_path / "bot.sqlite3", counting_seeds(),
                  topic=evening)
    async with group.bot():
        ayu.send_private("/start")
        answer = await replied(group, budi, "open our private chat first")
        budi.open_url(answer.buttons[0][0].url or "")
        opened = await group.server.wait_for(lambda: next(
            (m for m in private(group, budi) if "Now send /notify" in m.content), None))
        assert "Now send /notify in the topic again" in opened.content
        await replied(group, budi, "🔔")
        ayu.send(chat, "/newgame gaple")  # in General
        await group.server.wait_for(lambda: any(
            "a new table" in m.content for m in telegram.topic_messages(chat, None)))
        group.send(ayu, "/newgame muggins")  # in the topic
        await group.server.wait_for(lambda: notices(group, budi))
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        (told,) = notices(group, budi)
        assert plain(told.content).startswith(  # (the topic named: QA)
            "🔔 Ayu opened a table of Muggins in the topic Evening of Domino club.")
        assert plain(told.content).endswith(
            "Send /notify in the topic Evening again to stop these messages.")


async def test_two_hundred_subscribers_are_told_within_the_limits(
        notify: Group, telegram: FakeTelegramServer) -> None:
    """Telegram's limits as configured by default (30 a second overall, 3 in 3 s per private
    chat, 20 a minute per group): 200 notices keep to them, the group's lobby goes first,
    and they take about 200 / 20 seconds (notices hold at most two thirds of the overall
    budget)."""
    ayu = notify.users[0]
    crowd = [telegram.add_user(f"P{i}", started=True) for i in range(200)]
    async with notify.bot(messages_per_second=30, private_messages_per_period=3,
                          group_messages_per_minute=20):
        ayu.send_private("/start")
        await notify.server.wait_for(lambda: private(notify, ayu))
        with closing(sqlite3.connect(notify.database)) as db, db:
            db.executemany("INSERT INTO users (user_id, name, language, private_ok, updated_at)"
                           " VALUES (?, ?, 'en', 1, 0)", [(u.id, u.first_name) for u in crowd])
            db.executemany("INSERT INTO subscriptions (chat_id, thread_id, user_id, created_at)"
                           " VALUES (?, 0, ?, 0)", [(notify.chat.id, u.id) for u in crowd])
        began = time.monotonic()
        notify.send(ayu, "/newgame gaple")
        await notify.server.wait_for(notify._lobby_or_none)
        lobby_after = time.monotonic() - began
        await notify.server.wait_for(lambda: all(notices(notify, u) for u in crowd),
                                     timeout=60)
        took = time.monotonic() - began
    worst = telegram.worst_windows()
    print(f"200 notices: lobby after {lobby_after:.2f} s, all told after {took:.1f} s, "
          f"worst second {worst.overall}")
    assert worst.overall <= 30 and max(worst.per_group.values()) <= 20
    assert lobby_after < 2.0
    assert 200 / 20 - 1 < took < 30  # 20 notices a second: two thirds of the budget
    with closing(sqlite3.connect(notify.database)) as db:
        assert db.execute("SELECT COUNT(*) FROM notices").fetchone()[0] == 0


async def test_help_names_notify_in_every_language(notify: Group) -> None:
    async with notify.bot():
        for user, line in zip(notify.users[:4], (
                "/notify — a private message from me when a table opens here",
                "/notify — aku kabari kamu lewat chat pribadi",
                "/notify — напишу тебе в личку",
                "/notify — ég sendi þér einkaskilaboð"), strict=True):
            user.send_private("/help")
            await notify.server.wait_for(lambda u=user, s=line: any(  # type: ignore[misc]
                s in m.content for m in private(notify, u)))


async def test_notices_left_unsent_by_a_stop_go_after_the_restart(
        notify: Group, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bot stops right after a lobby's commit: its notices wait in the database, and
    the start-up's sync of the lobby sends them; a lobby that closes drops those not sent
    yet."""
    ayu, budi, sergei, _, dewi = notify.users
    async with notify.bot():
        for user in (ayu, budi, sergei):
            user.send_private("/start")
            await replied(notify, user, "🔔")
        with monkeypatch.context() as stopped:  # as if the bot died before sending them
            stopped.setattr(Notices, "after_group_sync", lambda self, game_id: None)
            notify.send(ayu, "/newgame gaple")
            await notify.server.wait_for(notify._lobby_or_none)
            await notify.runtime.publisher.idle()  # type: ignore[union-attr]
    assert pending(notify) == 2 and notices(notify, budi) == []
    async with notify.bot():
        for user in (budi, sergei):
            await notify.server.wait_for(lambda u=user: notices(notify, u))  # type: ignore[misc]
        await notify.server.wait_for(lambda: not pending(notify))
        with closing(sqlite3.connect(notify.database)) as db, db:  # one not sent yet
            db.execute("INSERT INTO notices VALUES (?, ?, 0)", (notify.game().game_id, dewi.id))
        cancel = ayu.press(notify.lobby(), lobby_button(notify.lobby(), "c") or "")
        await notify.server.wait_for(lambda: cancel.answered)
        assert notify.game().status is Status.CANCELLED and pending(notify) == 0
        await notify.runtime.publisher.idle()  # type: ignore[union-attr]
        assert notices(notify, dewi) == [] and len(notices(notify, budi)) == 1


def pending(group: Group) -> int:
    with closing(sqlite3.connect(group.database)) as db:
        return int(db.execute("SELECT COUNT(*) FROM notices").fetchone()[0])
