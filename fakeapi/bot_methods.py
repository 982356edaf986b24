"""Bot API methods about the bot itself and about chats: getMe, commands, members (webhooks are
in webhook.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .chats import FakeChat, FakeUser
from .errors import ApiError
from .membership import with_required_flags
from .message_methods import Call, Handler
from .world import World


def get_me(world: World, call: Call) -> dict[str, Any]:
    return world.bot.to_api() | {
        "can_join_groups": True,
        "can_read_all_group_messages": not world.privacy_mode,
        "supports_inline_queries": False,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


def _scope_key(params: Mapping[str, Any]) -> str:
    scope = params.get("scope") or {"type": "default"}
    return json.dumps([scope, params.get("language_code", "")], sort_keys=True)


def set_my_commands(world: World, call: Call) -> bool:
    world.settings.setdefault("commands", {})[_scope_key(call.params)] = call.params["commands"]
    return True


def get_my_commands(world: World, call: Call) -> list[Any]:
    commands: list[Any] = world.settings.get("commands", {}).get(_scope_key(call.params), [])
    return commands


def delete_my_commands(world: World, call: Call) -> bool:
    world.settings.get("commands", {}).pop(_scope_key(call.params), None)
    return True


def _text_setting(setting: str) -> tuple[Handler, Handler]:
    """A setMyX/getMyX pair storing one string per language (description, name...)."""

    def set_text(world: World, call: Call) -> bool:
        language = call.params.get("language_code", "")
        world.settings.setdefault(setting, {})[language] = call.params.get(setting, "")
        return True

    def get_text(world: World, call: Call) -> dict[str, Any]:
        language = call.params.get("language_code", "")
        return {setting: world.settings.get(setting, {}).get(language, "")}

    return set_text, get_text


def accept(world: World, call: Call) -> bool:
    return True


def set_chat_menu_button(world: World, call: Call) -> bool:
    world.settings["menu_button"] = call.params.get("menu_button") or {"type": "default"}
    return True


def get_chat_menu_button(world: World, call: Call) -> dict[str, Any]:
    button: dict[str, Any] = world.settings.get("menu_button", {"type": "commands"})
    return button


def get_chat(world: World, call: Call) -> dict[str, Any]:
    chat = world.chat_for_bot(call.params["chat_id"])
    info = chat.to_api() | {"accent_color_id": 0, "max_reaction_count": 11}
    info["accepted_gift_types"] = with_required_flags("AcceptedGiftTypes", {}, False)
    return info


def _member(world: World, chat: FakeChat, user: FakeUser) -> dict[str, Any]:
    return world.member(chat, user)


def _person(world: World, user_id: Any) -> FakeUser:
    user = world.bot if user_id == world.bot.id else world.users.get(user_id)
    if user is None:
        raise ApiError.bad_request("user not found")
    return user


def get_chat_member(world: World, call: Call) -> dict[str, Any]:
    chat = world.chat_for_bot(call.params["chat_id"])
    return _member(world, chat, _person(world, call.params["user_id"]))


def get_chat_administrators(world: World, call: Call) -> list[dict[str, Any]]:
    chat = world.chat_for_bot(call.params["chat_id"])
    if chat.type == "private":
        raise ApiError.bad_request("there are no administrators in the private chat")
    return [
        _member(world, chat, _person(world, user_id))
        for user_id, status in chat.members.items()
        if status in ("creator", "administrator")
    ]


def get_chat_member_count(world: World, call: Call) -> int:
    chat = world.chat_for_bot(call.params["chat_id"])
    if chat.type == "private":
        return 2
    return sum(status not in ("left", "kicked") for status in chat.members.values())


def leave_chat(world: World, call: Call) -> bool:
    chat = world.chat_for_bot(call.params["chat_id"])
    chat.members[world.bot.id] = "left"
    return True


HANDLERS: dict[str, Handler] = {
    "getMe": get_me,
    "setMyCommands": set_my_commands,
    "getMyCommands": get_my_commands,
    "deleteMyCommands": delete_my_commands,
    "setChatMenuButton": set_chat_menu_button,
    "getChatMenuButton": get_chat_menu_button,
    "getChat": get_chat,
    "getChatMember": get_chat_member,
    "getChatAdministrators": get_chat_administrators,
    "getChatMemberCount": get_chat_member_count,
    "leaveChat": leave_chat,
    "logOut": accept,
    "close": accept,
    "setMyDefaultAdministratorRights": accept,
}
for _setting in ("description", "short_description", "name"):
    _suffix = _setting.title().replace("_", "")
    HANDLERS[f"setMy{_suffix}"], HANDLERS[f"getMy{_suffix}"] = _text_setting(_setting)
