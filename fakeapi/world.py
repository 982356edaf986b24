"""The state of the fake Telegram: who exists, what was said where, and what users do.

User actions (send, tap, delete, block, open a forum topic) go through here and become updates
for the bot; the bot's requests reach the same state through ``message_methods.py`` and
``bot_methods.py``. ``World`` is the top of three layers: ``Membership`` (chats and who is in
them, what the bot may reach) on ``ChatLog`` (messages, files, the update queue). Nothing here
does I/O.
"""

from __future__ import annotations

import itertools
from typing import Any

from . import transcript
from .chats import FakeChat, FakeTopic, FakeUser, deep_link_payload
from .entities import command_entities
from .errors import ScenarioError
from .membership import ABSENT, Membership
from .messages import StoredMessage
from .records import CallbackQueryRecord

#: The users Telegram shows as the senders of messages sent on behalf of a chat.
_ANONYMOUS_ADMIN, _CHANNEL_BOT = 1087968824, 136817688


class World(Membership):
    """Users, chats, messages, files and the update queue of one fake server."""

    def __init__(
        self, bot_id: int, bot_username: str, bot_first_name: str, privacy_mode: bool
    ) -> None:
        super().__init__()
        self.bot = FakeUser(self, bot_id, bot_first_name, username=bot_username, is_bot=True)
        self.privacy_mode = privacy_mode
        self.callbacks: dict[str, CallbackQueryRecord] = {}
        self.settings: dict[str, Any] = {}
        self._user_ids = itertools.count(1001)
        self._callback_ids = itertools.count(1)

    # --- people -----------------------------------------------------------------------

    def add_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        language_code: str | None = "en",
        last_name: str | None = None,
        user_id: int | None = None,
        started: bool = False,
    ) -> FakeUser:
        """A user; ``started`` means they once opened the private chat with the bot."""
        user = FakeUser(
            self,
            user_id if user_id is not None else next(self._user_ids),
            first_name,
            username=username,
            language_code=language_code,
            last_name=last_name,
            started=started,
        )
        self.users[user.id] = user
        return user

    def deep_link_payload(self, url: str) -> str | None:
        return deep_link_payload(url, self.bot.username or "")

    # --- what users do ----------------------------------------------------------------

    def user_sends(
        self, user: FakeUser, chat: FakeChat, text: str, reply_to: StoredMessage | None,
        topic: FakeTopic | None = None,
    ) -> StoredMessage:
        self._check_user_in(user, chat)
        if chat.type == "private":
            if user.blocked:
                raise ScenarioError(f"{user.first_name} blocked the bot; unblock_bot() first")
            user.started = True
        if topic is not None:
            self._check_topic(chat, topic)
        if (topic.closed if topic is not None else chat.general_closed) and chat.members.get(
                user.id) not in ("creator", "administrator"):
            raise ScenarioError("the topic is closed: only admins write there")
        version = self.version(text=text, entities=command_entities(text))
        message = self.store(chat, user, version, reply_to=reply_to, topic=topic)
        if self._bot_sees(message):
            self.updates.push("message", message.to_api())
        self.changed()
        return message

    def sends_as_chat(
        self, user: FakeUser, chat: FakeChat, text: str, as_chat: FakeChat,
        topic: FakeTopic | None = None,
    ) -> StoredMessage:
        """``user`` writes in a group on behalf of a chat: the group itself (an anonymous
        admin: Telegram shows the message as @GroupAnonymousBot's) or a channel of theirs
        (as @Channel_Bot's). Either way the bot never learns who wrote it."""
        self._check_user_in(user, chat)
        if as_chat is chat:
            if chat.members.get(user.id) not in ("creator", "administrator"):
                raise ScenarioError(f"{user.first_name} is no admin: they cannot write anonymously")
            sender = self._stand_in(_ANONYMOUS_ADMIN, "Group", "GroupAnonymousBot")
        elif as_chat.type == "channel":
            sender = self._stand_in(_CHANNEL_BOT, "Channel", "Channel_Bot")
        else:
            raise ScenarioError("one writes as the group itself or as a channel")
        version = self.version(text=text, entities=command_entities(text))
        message = self.store(chat, sender, version, topic=topic)
        message.sender_chat = as_chat
        if self._bot_sees(message):
            self.updates.push("message", message.to_api())
        self.changed()
        return message

    def _stand_in(self, user_id: int, name: str, username: str) -> FakeUser:
        """One of Telegram's own bots a message from a chat is shown as coming from."""
        user = self.users.get(user_id)
        if user is None:
            user = FakeUser(self, user_id, name, username=username, is_bot=True,
                            language_code=None)
            self.users[user_id] = user
        return user

    def _bot_sees(self, message: StoredMessage) -> bool:
        """Privacy mode: in groups the bot gets commands to it and replies to its messages;
        none from a group it is not in."""
        if message.chat.is_group and message.chat.members.get(self.bot.id, "left") in ABSENT:
            return False
        if message.chat.type == "private" or not self.privacy_mode:
            return True
        if message.reply_to is not None and message.reply_to.from_bot:
            return True
        text = message.text or ""
        bot_name = (self.bot.username or "").lower()
        for entity in message.entities:
            if entity["type"] == "bot_command":
                command = text.encode("utf-16-le")[
                    2 * entity["offset"] : 2 * (entity["offset"] + entity["length"])
                ]
                _, _, addressee = command.decode("utf-16-le").partition("@")
                if addressee.lower() in ("", bot_name):
                    return True
        return False

    def user_presses(
        self, user: FakeUser, message: StoredMessage, data: str
    ) -> CallbackQueryRecord:
        self._check_user_in(user, message.chat)
        if message.deleted or not message.from_bot:
            raise ScenarioError(
                f"message {message.message_id} cannot be tapped (deleted or not the bot's)"
            )
        record = CallbackQueryRecord(
            str(7000000000000000000 + next(self._callback_ids)), user, message, data
        )
        self.callbacks[record.id] = record
        self.log(message.chat, transcript.tap(user, message, data))
        # A tap on a message some days old comes with an InaccessibleMessage: its chat and id,
        # and date 0 (what is on it, Telegram no longer says).
        tapped = message.to_api() if not self.too_old(message) else {
            "chat": message.chat.to_api(), "message_id": message.message_id, "date": 0}
        self.updates.push(
            "callback_query",
            {
                "id": record.id,
                "from": user.to_api(),
                "message": tapped,
                "chat_instance": str(abs(message.chat.id) * 7919 + 13),
                "data": data,
            },
        )
        self.changed()
        return record

    def set_blocked(self, user: FakeUser, *, blocked: bool) -> None:
        if user.blocked == blocked:
            return
        user.blocked = blocked
        chat = self.private_chat(user)
        self.log(chat, f"{user.first_name} {'blocked' if blocked else 'unblocked'} the bot")
        self._bot_membership(chat, user, removed=blocked)

    def user_deletes(self, user: FakeUser, message: StoredMessage) -> None:
        """A user deletes a message: their own, or (as a group's admin) anyone's; in a private
        chat either side's. Telegram tells bots nothing of it."""
        chat = message.chat
        self._check_user_in(user, chat)
        may = chat.type == "private" or message.sender is user or chat.members.get(
            user.id) in ("creator", "administrator")
        if message.deleted or not may:
            raise ScenarioError(f"{user.first_name} cannot delete message {message.message_id}")
        message.deleted = True
        self.log(chat, f"{user.first_name} deleted #{message.message_id}")
        self.changed()

    # --- forum topics -----------------------------------------------------------------

    def create_topic(self, chat: FakeChat, name: str, by: FakeUser) -> FakeTopic:
        """A user opens a topic: its id is that of the "topic created" service message."""
        self._check_user_in(user=by, chat=chat)
        if not chat.is_forum:
            raise ScenarioError(f"{chat.name} is not a forum: it has no topics")
        topic = FakeTopic(chat, chat.next_message_id, name)
        chat.topics[topic.thread_id] = topic
        created = {"forum_topic_created": {"name": name, "icon_color": topic.icon_color}}
        self._user_message(by, chat, created, topic)
        return topic

    def rename_topic(self, topic: FakeTopic, name: str, by: FakeUser) -> None:
        """A member renames a topic: a "topic edited" service message in it says its name."""
        self._check_topic(topic.chat, topic)
        topic.name = name
        self._user_message(by, topic.chat, {"forum_topic_edited": {"name": name}}, topic)

    def close_topic(self, topic: FakeTopic, by: FakeUser) -> None:
        """An admin closes a topic: only admins may write there from now on."""
        self._check_topic(topic.chat, topic)
        topic.closed = True
        self._user_message(by, topic.chat, {"forum_topic_closed": {}}, topic)

    def close_general(self, chat: FakeChat, by: FakeUser, *, closed: bool = True) -> None:
        """An admin closes (or reopens) a forum's General topic: only admins write there."""
        if not chat.is_forum:
            raise ScenarioError(f"{chat.name} is not a forum")
        chat.general_closed = closed
        said = "forum_topic_closed" if closed else "forum_topic_reopened"
        self._user_message(by, chat, {said: {}})

    def reopen_topic(self, topic: FakeTopic, by: FakeUser) -> None:
        self._check_topic(topic.chat, topic)
        topic.closed = False
        self._user_message(by, topic.chat, {"forum_topic_reopened": {}}, topic)

    def delete_topic(self, topic: FakeTopic) -> None:
        """An admin deletes a topic with all its messages; Telegram sends bots no update."""
        self._check_topic(topic.chat, topic)
        topic.deleted = True
        for message in self.messages_in(topic.chat):
            if message.topic is topic:
                message.deleted = True
        self.log(topic.chat, f"topic {topic.name!r} was deleted")
        self.changed()

    @staticmethod
    def _check_topic(chat: FakeChat, topic: FakeTopic) -> None:
        if chat.topics.get(topic.thread_id) is not topic or topic.deleted:
            raise ScenarioError(f"topic {topic.name!r} is not (any more) in {chat.name}")
