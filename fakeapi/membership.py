"""Who is in which chat, and what the bot may reach there: groups, private chats and channels,
their members' statuses, the bot's own membership (added, removed, restricted) and the refusals
Telegram answers the bot's requests with for a chat, a topic or a right it lacks.

The middle layer of the world, on ``ChatLog``; ``World`` adds the users and what they do.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable
from typing import Any

from .chatlog import ChatLog
from .chats import FakeChat, FakeTopic, FakeUser
from .errors import ApiError, ScenarioError
from .schema import load_schema

#: The statuses of someone no longer in a group.
ABSENT = ("left", "kicked")


def with_required_flags(type_name: str, base: dict[str, Any], value: bool) -> dict[str, Any]:
    """Fill the type's required Boolean fields that ``base`` leaves out (schema-driven)."""
    fields = load_schema().types[type_name].fields.values()
    flags = {f.name: value for f in fields if f.required and f.types == ("Boolean",)}
    return flags | base


class Membership(ChatLog):
    """The chats of one fake server and who is in each."""

    #: The bot's own user (``World`` makes it: a user acts through the world).
    bot: FakeUser

    def __init__(self) -> None:
        super().__init__()
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self._group_ids = itertools.count(1)

    # --- chats ------------------------------------------------------------------------

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

    def add_channel(self, title: str) -> FakeChat:
        """A channel (the bot is not in it): a user may write in groups on its behalf."""
        chat = FakeChat(-1002000000000 - next(self._group_ids), "channel", title=title)
        self.chats[chat.id] = chat
        return chat

    def _check_user_in(self, user: FakeUser, chat: FakeChat) -> None:
        if chat.migrated_to is not None:
            raise ScenarioError(f"chat {chat.id} became supergroup {chat.migrated_to.id}")
        if chat.type == "private" and chat.user is not user:
            raise ScenarioError(f"{user.first_name} is not in {chat.name}'s private chat")
        if chat.is_group and chat.members.get(user.id, "left") in ABSENT:
            raise ScenarioError(f"{user.first_name} is not a member of {chat.name}")

    # --- the bot's membership ---------------------------------------------------------

    def add_bot(self, chat: FakeChat, by: FakeUser | None = None) -> None:
        """Someone adds the bot (back) to a group: Telegram tells it with my_chat_member."""
        old = chat.members.get(self.bot.id, "left")
        chat.members[self.bot.id] = "member"
        actor = by or self._an_admin(chat)
        self.log(chat, f"{actor.first_name} added the bot")
        self._bot_membership(chat, actor, removed=False, was=old)

    def restrict_bot(self, chat: FakeChat, *, may_send: bool, may_send_media: bool = True,
                     by: FakeUser | None = None) -> None:
        """A supergroup's admin takes from the bot the right to send messages, or media alone
        (``may_send_media``), or gives them back: Telegram tells it with my_chat_member, and
        refuses what it may not send meanwhile."""
        if chat.type != "supergroup":
            raise ScenarioError("only a supergroup restricts one member")
        old = self.member(chat, self.bot)
        free = may_send and may_send_media
        chat.members[self.bot.id] = "member" if free else "restricted"
        chat.bot_texts_only = may_send and not may_send_media
        actor = by or self._an_admin(chat)
        self.log(chat, f"{actor.first_name} {'lets' if free else 'forbids'} the bot send "
                       f"{'media' if may_send else 'messages'}")
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
        if status == "restricted":  # (a restricted one here may send nothing, or texts alone)
            texts = user is self.bot and chat.bot_texts_only
            return with_required_flags("ChatMemberRestricted", base, False) | {
                "is_member": True, "until_date": 0, "can_send_messages": texts}
        if status == "kicked":
            return base | {"until_date": 0}
        return base

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

    # --- what the bot may reach -------------------------------------------------------

    def chat_for_bot(self, chat_id: Any) -> FakeChat:
        """The chat a request names, or the error Telegram answers for it."""
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None and chat_id in self.users:
            chat = self.private_chat(self.users[chat_id])
        if chat is None or (chat.deleted and chat.type != "group"):
            raise ApiError.bad_request("chat not found")
        if chat.deleted:  # (a basic group's own words)
            raise ApiError.forbidden("the group chat was deleted")
        if chat.migrated_to is not None:
            raise ApiError.bad_request(
                "group chat was upgraded to a supergroup chat",
                migrate_to_chat_id=chat.migrated_to.id,
            )
        if chat.user is not None:
            if chat.user.unknown:
                raise ApiError.bad_request("chat not found")
            if chat.user.blocked:
                raise ApiError.forbidden("bot was blocked by the user")
            if not chat.user.started:
                raise ApiError.forbidden("bot can't initiate conversation with a user")
        elif chat.members.get(self.bot.id) == "kicked":
            raise ApiError.forbidden(f"bot was kicked from the {chat.type} chat")
        elif chat.members.get(self.bot.id, "left") == "left":
            raise ApiError.forbidden(f"bot is not a member of the {chat.type} chat")
        return chat

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

    def bot_is_admin(self, chat: FakeChat) -> bool:
        return chat.type == "private" or chat.members.get(self.bot.id) in (
            "administrator",
            "creator",
        )

    def check_may_send(self, chat: FakeChat, what: str) -> None:
        """A restricted bot's sends are refused (its edits are not), but its text messages
        where it may send those alone."""
        if chat.members.get(self.bot.id) == "restricted" and not (
                chat.bot_texts_only and what == "text messages"):
            raise ApiError.bad_request(f"not enough rights to send {what} to the chat")

    def check_may_edit_media(self, chat: FakeChat, what: str) -> None:
        """A bot that may send texts alone may not put new media in its messages either."""
        if chat.members.get(self.bot.id) == "restricted" and chat.bot_texts_only:
            raise ApiError.bad_request(f"not enough rights to send {what} to the chat")
