"""The state of the fake Telegram: who exists, what was said where, and what users do.

User actions (send, press, block) go through here and become updates for the bot; the bot's
requests reach the same state through ``methods.py``. Nothing here does I/O.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import itertools
import time
from collections.abc import Callable, Iterable
from typing import Any

from PIL import Image, UnidentifiedImageError

from . import transcript
from .chats import FakeChat, FakeTopic, FakeUser, deep_link_payload
from .entities import command_entities
from .errors import ApiError, ScenarioError
from .messages import MessageVersion, StoredFile, StoredMessage
from .records import CallbackQueryRecord
from .schema import load_schema
from .updates import UpdateQueue

_MAX_PHOTO_BYTES = 10 * 1024 * 1024
_MAX_UPLOAD_BYTES = 50 * 1024 * 1024  # what a bot may upload of any other file
_ABSENT = ("left", "kicked")
#: A bot may delete a message for 48 hours after it was sent.
OLD_MESSAGE_SECONDS = 48 * 3600
#: The users Telegram shows as the senders of messages sent on behalf of a chat.
_ANONYMOUS_ADMIN, _CHANNEL_BOT = 1087968824, 136817688


def with_required_flags(type_name: str, base: dict[str, Any], value: bool) -> dict[str, Any]:
    """Fill the type's required Boolean fields that ``base`` leaves out (schema-driven)."""
    fields = load_schema().types[type_name].fields.values()
    flags = {f.name: value for f in fields if f.required and f.types == ("Boolean",)}
    return flags | base


class World:
    """Users, chats, messages, files and the update queue of one fake server."""

    def __init__(
        self, bot_id: int, bot_username: str, bot_first_name: str, privacy_mode: bool
    ) -> None:
        self.bot = FakeUser(self, bot_id, bot_first_name, username=bot_username, is_bot=True)
        self.privacy_mode = privacy_mode
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.messages: dict[tuple[int, int], StoredMessage] = {}
        # Each chat's messages in order, so one chat's are found without a scan of every
        # chat's (a fleet's test runs dozens of tables at once); ``messages`` stays the truth.
        self._by_chat: dict[int, list[StoredMessage]] = {}
        self.files: dict[str, StoredFile] = {}
        self.callbacks: dict[str, CallbackQueryRecord] = {}
        self.updates = UpdateQueue()
        self.events: list[tuple[int, str]] = []
        self.settings: dict[str, Any] = {}
        self.on_change: Callable[[], None] = lambda: None
        self._seq = itertools.count(1)
        self._user_ids = itertools.count(1001)
        self._group_ids = itertools.count(1)
        self._file_ids = itertools.count(1)
        self._callback_ids = itertools.count(1)

    # --- people and chats -------------------------------------------------------------

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

    def add_group(
        self,
        title: str,
        members: Iterable[FakeUser] = (),
        *,
        admins: Iterable[FakeUser] = (),
        owner: FakeUser | None = None,
        supergroup: bool = False,
        bot_is_admin: bool = False,
        forum: bool = False,
    ) -> FakeChat:
        """A group (or supergroup) the bot is a member of; admins and the owner join too.
        A ``forum`` is a supergroup with topics (at first only General)."""
        number = next(self._group_ids)
        supergroup = supergroup or forum
        chat_id = -1001000000000 - number if supergroup else -4000000000 - number
        # In a forum, id 1 is the General topic's: the first message gets id 2.
        chat = FakeChat(chat_id, "supergroup" if supergroup else "group", title=title,
                        is_forum=forum, next_message_id=2 if forum else 1)
        chat.members = {user.id: "member" for user in members}
        chat.members |= {user.id: "administrator" for user in admins}
        if owner is not None:
            chat.members[owner.id] = "creator"
        chat.members[self.bot.id] = "administrator" if bot_is_admin else "member"
        self.chats[chat.id] = chat
        return chat

    def private_chat(self, user: FakeUser) -> FakeChat:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = FakeChat(user.id, "private", user=user)
            self.chats[user.id] = chat
        return chat

    def migrate_group(self, group: FakeChat, by: FakeUser | None = None) -> FakeChat:
        """Upgrade a group to a supergroup; old messages stay behind in the old chat."""
        if group.type != "group" or group.migrated_to is not None:
            raise ScenarioError(f"chat {group.id} is not a basic group that can be upgraded")
        actor = by or next(
            (self.users[uid] for uid, status in group.members.items() if uid in self.users), None
        )
        if actor is None:
            raise ScenarioError("the group needs a member to upgrade it")
        number = next(self._group_ids)
        new = FakeChat(-1001000000000 - number, "supergroup", title=group.title)
        new.members = dict(group.members)
        new.migrated_from = group
        self.chats[new.id] = new
        self._user_message(actor, group, {"migrate_to_chat_id": new.id})
        group.migrated_to = new
        self._user_message(actor, new, {"migrate_from_chat_id": group.id})
        return new

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

    def add_channel(self, title: str) -> FakeChat:
        """A channel (the bot is not in it): a user may write in groups on its behalf."""
        chat = FakeChat(-1002000000000 - next(self._group_ids), "channel", title=title)
        self.chats[chat.id] = chat
        return chat

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

    @staticmethod
    def too_old(message: StoredMessage) -> bool:
        """Whether a message is past the 48 hours in which a bot may delete it (and its taps
        come with an InaccessibleMessage)."""
        return time.time() - message.versions[0].date >= OLD_MESSAGE_SECONDS

    def age(self, message: StoredMessage, seconds: float) -> None:
        """Make a message ``seconds`` older, as if sent that much earlier."""
        first = message.versions[0]
        message.versions[0] = dataclasses.replace(first, date=int(first.date - seconds))

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

    def add_bot(self, chat: FakeChat, by: FakeUser | None = None) -> None:
        """Someone adds the bot (back) to a group: Telegram tells it with my_chat_member."""
        old = chat.members.get(self.bot.id, "left")
        chat.members[self.bot.id] = "member"
        actor = by or self._an_admin(chat)
        self.log(chat, f"{actor.first_name} added the bot")
        self._bot_membership(chat, actor, removed=False, was=old)

    def restrict_bot(self, chat: FakeChat, *, may_send: bool, by: FakeUser | None = None
                     ) -> None:
        """A supergroup's admin takes from the bot the right to send messages (or gives it
        back): Telegram tells it with my_chat_member, and refuses its sends meanwhile."""
        if chat.type != "supergroup":
            raise ScenarioError("only a supergroup restricts one member")
        old = self.member(chat, self.bot)
        chat.members[self.bot.id] = "member" if may_send else "restricted"
        actor = by or self._an_admin(chat)
        self.log(chat, f"{actor.first_name} {'lets' if may_send else 'forbids'} the bot "
                       "send messages")
        self.updates.push("my_chat_member", {
            "chat": chat.to_api(), "from": actor.to_api(), "date": int(time.time()),
            "old_chat_member": old, "new_chat_member": self.member(chat, self.bot)})
        self.changed()

    def member(self, chat: FakeChat, user: FakeUser) -> dict[str, Any]:
        """``user``'s ChatMember in ``chat``, as getChatMember and my_chat_member give it."""
        status = chat.members.get(user.id, "left")
        if chat.type == "private":
            status = "member"
        base: dict[str, Any] = {"status": status, "user": user.to_api()}
        if status == "creator":
            return base | {"is_anonymous": False}
        if status == "administrator":
            rights = with_required_flags("ChatMemberAdministrator", base, True)
            return rights | {"can_be_edited": False, "is_anonymous": False,
                             "can_pin_messages": True}
        if status == "restricted":  # (a restricted one here may send nothing)
            return with_required_flags("ChatMemberRestricted", base, False) | {
                "is_member": True, "until_date": 0}
        if status == "kicked":
            return base | {"until_date": 0}
        return base

    def check_may_send(self, chat: FakeChat, what: str) -> None:
        """A restricted bot's sends are refused (its edits are not)."""
        if chat.members.get(self.bot.id) == "restricted":
            raise ApiError.bad_request(f"not enough rights to send {what} to the chat")

    def _an_admin(self, chat: FakeChat) -> FakeUser:
        return next((self.users[uid] for uid, status in chat.members.items()
                     if status in ("creator", "administrator") and uid in self.users), self.bot)

    def remove_bot(self, chat: FakeChat, by: FakeUser | None = None) -> None:
        """Someone removes the bot from a group: Telegram tells the bot with my_chat_member."""
        chat.members[self.bot.id] = "kicked"
        actor = by or self._an_admin(chat)
        self.log(chat, f"{actor.first_name} removed the bot")
        self._bot_membership(chat, actor, removed=True)

    def _bot_membership(self, chat: FakeChat, actor: FakeUser, *, removed: bool,
                        was: str = "kicked") -> None:
        bot = self.bot.to_api()
        member = {"status": "member", "user": bot}
        banned = {"status": "kicked", "user": bot, "until_date": 0} if was == "kicked" \
            else {"status": "left", "user": bot}
        self.updates.push(
            "my_chat_member",
            {
                "chat": chat.to_api(),
                "from": actor.to_api(),
                "date": int(time.time()),
                "old_chat_member": member if removed else banned,
                "new_chat_member": banned if removed else member,
            },
        )
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

    def topic_for_bot(self, chat: FakeChat, thread_id: Any) -> FakeTopic | None:
        """The topic a request's ``message_thread_id`` names, or Telegram's refusal. No
        thread id means the General topic (or a chat without topics); General has none."""
        if thread_id is None:
            if chat.general_closed and not self.bot_is_admin(chat):
                raise ApiError.bad_request("TOPIC_CLOSED")
            return None
        topic = chat.topics.get(thread_id) if isinstance(thread_id, int) else None
        if topic is None or topic.deleted:
            raise ApiError.bad_request("message thread not found")
        if topic.closed and not self.bot_is_admin(chat):
            # Closed topics take messages only from admins who may manage topics.
            raise ApiError.bad_request("TOPIC_CLOSED")
        return topic

    def _check_user_in(self, user: FakeUser, chat: FakeChat) -> None:
        if chat.migrated_to is not None:
            raise ScenarioError(f"chat {chat.id} became supergroup {chat.migrated_to.id}")
        if chat.type == "private" and chat.user is not user:
            raise ScenarioError(f"{user.first_name} is not in {chat.name}'s private chat")
        if chat.is_group and chat.members.get(user.id, "left") in _ABSENT:
            raise ScenarioError(f"{user.first_name} is not a member of {chat.name}")

    def _user_message(
        self, user: FakeUser, chat: FakeChat, service: dict[str, Any],
        topic: FakeTopic | None = None,
    ) -> None:
        message = self.store(chat, user, self.version(), service=service, topic=topic)
        self.updates.push("message", message.to_api())
        self.changed()

    def _bot_sees(self, message: StoredMessage) -> bool:
        """Privacy mode: in groups the bot gets commands to it and replies to its messages;
        none from a group it is not in."""
        if message.chat.is_group and message.chat.members.get(self.bot.id, "left") in _ABSENT:
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

    # --- messages and files -----------------------------------------------------------

    def version(self, **content: Any) -> MessageVersion:
        return MessageVersion(seq=next(self._seq), date=int(time.time()), **content)

    def store(
        self,
        chat: FakeChat,
        sender: FakeUser,
        version: MessageVersion,
        *,
        service: dict[str, Any] | None = None,
        reply_to: StoredMessage | None = None,
        topic: FakeTopic | None = None,
    ) -> StoredMessage:
        if topic is not None and reply_to is None and topic.thread_id != chat.next_message_id:
            # In a topic, a message that answers nothing replies to the topic's first message.
            reply_to = self.messages.get((chat.id, topic.thread_id))
        message = StoredMessage(
            chat, chat.next_message_id, sender, [version], service, reply_to, topic=topic
        )
        chat.next_message_id += 1
        self.messages[(chat.id, message.message_id)] = message
        self._by_chat.setdefault(chat.id, []).append(message)
        self.log(chat, transcript.sent(message))
        return message

    def edit(self, message: StoredMessage, version: MessageVersion) -> None:
        message.versions.append(version)
        self.log(message.chat, transcript.edited(message))

    def log(self, chat: FakeChat, line: str) -> None:
        self.events.append((chat.id, line))

    def changed(self) -> None:
        self.on_change()

    def recent_messages(self, chat: FakeChat, count: int) -> list[StoredMessage]:
        """The chat's last ``count`` messages, oldest first, without a pass over all of them
        (simulated people look only at the bottom of a chat, dozens of tables at once)."""
        kept = self.messages
        listed = self._by_chat.get(chat.id, [])
        found: list[StoredMessage] = []
        for message in reversed(listed):
            if len(found) == count:
                break
            if kept.get((chat.id, message.message_id)) is message:
                found.append(message)
        return found[::-1]

    def messages_in(self, chat: FakeChat) -> list[StoredMessage]:
        """The chat's messages, oldest first (those still in ``messages``: a benchmark may
        prune it, and the index forgets them here too)."""
        kept = self.messages
        listed = self._by_chat.get(chat.id, [])
        found = [m for m in listed if kept.get((chat.id, m.message_id)) is m]
        if len(found) != len(listed):
            self._by_chat[chat.id] = list(found)
        return found

    def store_photo(self, data: bytes) -> StoredFile:
        """Keep an uploaded photo; refuse what Telegram refuses (not an image, too big)."""
        if len(data) > _MAX_PHOTO_BYTES:
            raise ApiError.bad_request("file is too big")
        try:
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                extension = (image.format or "jpg").lower()
        except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as error:
            raise ApiError.bad_request("IMAGE_PROCESS_FAILED") from error
        if width + height > 10000 or max(width, height) > 20 * min(width, height):
            raise ApiError.bad_request("PHOTO_INVALID_DIMENSIONS")
        number = next(self._file_ids)
        unique = hashlib.sha256(data).hexdigest()[:16]
        stored = StoredFile(
            f"AgACAgFake{number:06d}{unique}",
            f"AQAD{unique}",
            data,
            f"photos/file_{number}.{extension}",
            width,
            height,
        )
        self.files[stored.file_id] = stored
        return stored

    def store_animation(self, data: bytes, width: int = 0, height: int = 0,
                        duration: int = 0) -> StoredFile:
        """Keep an uploaded animation: a GIF (its size and length read from it) or an MP4
        (its size and length as the sender gives them); refuse anything else, and more than
        50 MB. (Telegram would send another kind of file as a document: the fake refuses it,
        so that a bot sending the wrong bytes finds out.)"""
        if len(data) > _MAX_UPLOAD_BYTES:
            raise ApiError.bad_request("file is too big")
        if data[4:8] == b"ftyp":
            extension, mime = "mp4", "video/mp4"
        else:
            try:
                with Image.open(io.BytesIO(data)) as image:
                    if image.format != "GIF":
                        raise ApiError.bad_request(
                            f"wrong file type: an animation is a GIF or an MP4, not {image.format}")
                    width, height = image.size
                    frames = getattr(image, "n_frames", 1)
                    milliseconds = 0
                    for index in range(frames):
                        image.seek(index)
                        milliseconds += int(image.info.get("duration", 0))
            except (UnidentifiedImageError, OSError, ValueError,
                    Image.DecompressionBombError) as error:
                raise ApiError.bad_request(
                    "wrong file type: an animation is a GIF or an MP4") from error
            duration = round(milliseconds / 1000)
            extension, mime = "gif", "image/gif"
        number = next(self._file_ids)
        unique = hashlib.sha256(data).hexdigest()[:16]
        stored = StoredFile(
            f"CgACAgFake{number:06d}{unique}", f"AgAD{unique}", data,
            f"animations/file_{number}.{extension}", width, height,
            kind="animation", duration=duration, mime_type=mime,
        )
        self.files[stored.file_id] = stored
        return stored

    def file_of_kind(self, file_id: str, kind: str) -> StoredFile:
        """A file sent again by its file_id, as ``kind``: one of another kind is refused."""
        stored = self.file(file_id)
        if stored.kind != kind:
            raise ApiError.bad_request("type of file mismatch")
        return stored

    def file(self, file_id: str) -> StoredFile:
        stored = self.files.get(file_id)
        if stored is None:
            raise ApiError.bad_request("wrong file identifier/HTTP URL specified")
        return stored

    # --- what the bot may reach --------------------------------------------------------

    def chat_for_bot(self, chat_id: Any) -> FakeChat:
        """The chat a request names, or the error Telegram answers for it."""
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None and chat_id in self.users:
            chat = self.private_chat(self.users[chat_id])
        if chat is None:
            raise ApiError.bad_request("chat not found")
        if chat.migrated_to is not None:
            raise ApiError.bad_request(
                "group chat was upgraded to a supergroup chat",
                migrate_to_chat_id=chat.migrated_to.id,
            )
        if chat.user is not None:
            if chat.user.blocked:
                raise ApiError.forbidden("bot was blocked by the user")
            if not chat.user.started:
                raise ApiError.forbidden("bot can't initiate conversation with a user")
        elif chat.members.get(self.bot.id) == "kicked":
            raise ApiError.forbidden(f"bot was kicked from the {chat.type} chat")
        elif chat.members.get(self.bot.id, "left") == "left":
            raise ApiError.forbidden(f"bot is not a member of the {chat.type} chat")
        return chat

    def message_for_bot(self, chat: FakeChat, message_id: Any, purpose: str) -> StoredMessage:
        message = self.messages.get((chat.id, message_id)) if isinstance(message_id, int) else None
        if message is None or message.deleted:
            raise ApiError.bad_request(f"message to {purpose} not found")
        return message

    def bot_is_admin(self, chat: FakeChat) -> bool:
        return chat.type == "private" or chat.members.get(self.bot.id) in (
            "administrator",
            "creator",
        )
