"""The fake Bot API server: Telegram's behaviour, schema validation, and the test helpers.

python-telegram-bot's own ``telegram.Bot`` drives it here to prove its real requests (form data,
multipart uploads, attach:// media) validate cleanly; plain aiohttp requests probe the edges.
"""

from __future__ import annotations

import ast
import asyncio
import io
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import telegram
from PIL import Image
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto

from fakeapi import (
    FakeTelegramServer,
    ProtocolViolationError,
    RateLimits,
    ScenarioError,
    WaitTimeoutError,
    endpoint,
)


def png(color: str, size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


def keyboard(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(x, callback_data=x.lower()) for x in labels]]
    )


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegramServer]:
    async with FakeTelegramServer() as fake:
        yield fake


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def call(
    http: aiohttp.ClientSession,
    server: FakeTelegramServer,
    method: str,
    *,
    form: dict[str, Any] | aiohttp.FormData | None = None,
    **params: Any,
) -> tuple[int, dict[str, Any]]:
    """POST a JSON body (or ``form`` as form data) and return the status and decoded answer."""
    url = f"{server.base_url}{server.token}/{method}"
    kwargs: dict[str, Any] = {"data": form} if form is not None else {"json": params}
    async with http.post(url, **kwargs) as response:
        return response.status, await response.json()


@pytest.fixture
def alice(server: FakeTelegramServer) -> Any:
    return server.add_user("Alice", username="alice", started=True)


@pytest.fixture
def group(server: FakeTelegramServer, alice: Any) -> Any:
    bob = server.add_user("Bob", username="bob")
    return server.add_group("Domino night", [alice, bob], owner=alice)


def test_the_fake_never_imports_telegram() -> None:
    """fakeapi is a protocol fake: it must not lean on the library it is testing."""
    package = Path(__file__).parents[2] / "fakeapi"
    imported = set()
    for source in package.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    assert "aiohttp" in imported and "telegram" not in imported


# --- python-telegram-bot's real requests -------------------------------------------------


async def test_ptb_photo_callback_and_media_edit_validate_cleanly(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any, group: Any
) -> None:
    sent = await ptb.send_photo(
        group.id,
        png("red"),
        caption="<b>Table</b>",
        parse_mode="HTML",
        reply_markup=keyboard("Join"),
    )
    stored = server.message(group, sent.message_id)
    tap = alice.press(stored, "Join")
    updates = await ptb.get_updates(timeout=1)
    query = updates[-1].callback_query
    assert query is not None and query.data == "join" and query.from_user.id == alice.id
    await ptb.answer_callback_query(query.id, text="Seated")
    edited = await ptb.edit_message_media(
        InputMediaPhoto(png("blue"), caption="Bob to play"),
        chat_id=group.id,
        message_id=sent.message_id,
        reply_markup=keyboard("Leave", "Start"),
    )
    assert isinstance(edited, telegram.Message)
    downloaded = await (await ptb.get_file(edited.photo[-1].file_id)).download_as_bytearray()
    server.assert_no_violations()
    assert (tap.answered, tap.answer_text) == (True, "Seated")
    assert stored.edit_count == 1 and stored.caption == "Bob to play"
    assert stored.button_texts == ["Leave", "Start"]
    assert bytes(downloaded) == stored.photo_bytes == png("blue")
    assert stored.versions[0].photo is not None and stored.versions[0].photo.data == png("red")
    assert sent.caption_entities[0].type == "bold"


async def test_ptb_long_poll_is_held_until_an_update_arrives(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any
) -> None:
    poll = asyncio.create_task(ptb.get_updates(timeout=5))
    await asyncio.sleep(0.3)
    assert not poll.done()
    alice.send_private("/hand")
    updates = await asyncio.wait_for(poll, 2)
    assert updates[0].message is not None and updates[0].message.text == "/hand"
    server.assert_no_violations()


async def test_ptb_everyday_methods_validate_cleanly(
    server: FakeTelegramServer, alice: Any, group: Any
) -> None:
    from telegram import BotCommand, BotCommandScopeAllGroupChats, LinkPreviewOptions
    from telegram.ext import Defaults, ExtBot

    bot = ExtBot(
        server.token,
        base_url=server.base_url,
        base_file_url=server.base_file_url,
        defaults=Defaults(parse_mode="HTML"),
    )
    async with bot:
        await bot.set_my_commands(
            [BotCommand("newgame", "Start a game")], scope=BotCommandScopeAllGroupChats()
        )
        commands = await bot.get_my_commands(scope=BotCommandScopeAllGroupChats())
        await bot.set_my_description("Dominoes for groups", language_code="en")
        await bot.send_chat_action(group.id, "upload_photo")
        hand = await bot.send_message(
            alice.id,
            "<i>Your hand</i>",
            link_preview_options=LinkPreviewOptions(is_disabled=True),
            reply_markup=keyboard("Play"),
        )
        reply = await bot.send_message(alice.id, "again", reply_to_message_id=hand.message_id)
        await bot.edit_message_reply_markup(alice.id, hand.message_id, reply_markup=None)
        await bot.pin_chat_message(alice.id, hand.message_id, disable_notification=True)
        await bot.unpin_chat_message(alice.id)
        await bot.delete_message(alice.id, reply.message_id)
        info = await bot.get_chat(group.id)
        await bot.get_webhook_info()
    server.assert_no_violations()
    assert ("editMessageReplyMarkup", "parse_mode") in server.ignored_parameters
    assert [c.command for c in commands] == ["newgame"] and info.title == "Domino night"
    stored = server.message(alice.private_chat, hand.message_id)
    assert stored.text == "Your hand" and stored.buttons == [] and not stored.pinned
    assert server.message(alice.private_chat, reply.message_id).deleted


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_ptb_sees_telegram_errors_as_its_exceptions(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any, group: Any
) -> None:
    carol = server.add_user("Carol")
    with pytest.raises(telegram.error.Forbidden, match="can't initiate conversation"):
        await ptb.send_message(carol.id, "your hand")
    alice.block_bot()
    with pytest.raises(telegram.error.Forbidden, match="bot was blocked by the user"):
        await ptb.send_message(alice.id, "your hand")
    server.fail_next("sendMessage", retry_after=1)
    with pytest.raises(telegram.error.RetryAfter, match="Retry in 1 seconds"):
        await ptb.send_message(group.id, "hello")
    await ptb.send_message(group.id, "hello")
    supergroup = server.migrate_group(group)
    with pytest.raises(telegram.error.ChatMigrated) as migrated:
        await ptb.send_message(group.id, "hello")
    assert migrated.value.new_chat_id == supergroup.id
    server.assert_no_violations()


# --- getUpdates --------------------------------------------------------------------------


async def test_offset_confirms_updates_and_ids_increase_in_order(
    server: FakeTelegramServer, http: aiohttp.ClientSession, alice: Any
) -> None:
    for n in range(5):
        alice.send_private(f"message {n}")
    _, first = await call(http, server, "getUpdates", limit=3)
    ids = [u["update_id"] for u in first["result"]]
    assert ids == sorted(ids) and len(ids) == 3
    _, again = await call(http, server, "getUpdates")
    assert [u["update_id"] for u in again["result"]][:3] == ids  # unconfirmed: served again
    _, rest = await call(http, server, "getUpdates", offset=ids[-1] + 1)
    assert [u["message"]["text"] for u in rest["result"]] == ["message 3", "message 4"]
    _, last = await call(http, server, "getUpdates", offset=-1)
    assert [u["message"]["text"] for u in last["result"]] == ["message 4"]


async def test_allowed_updates_filters_kinds(
    server: FakeTelegramServer, http: aiohttp.ClientSession, alice: Any, group: Any
) -> None:
    status, sent = await call(
        http,
        server,
        "sendMessage",
        chat_id=group.id,
        text="lobby",
        reply_markup=keyboard("Join").to_dict(),
    )
    assert status == 200
    alice.send_private("/help")
    alice.press(server.message(group, sent["result"]["message_id"]), "join")
    _, body = await call(http, server, "getUpdates", allowed_updates=["callback_query"])
    assert [next(k for k in u if k != "update_id") for u in body["result"]] == ["callback_query"]
    server.assert_no_violations()


async def test_long_poll_times_out_empty_and_stop_releases_it(
    server: FakeTelegramServer, http: aiohttp.ClientSession
) -> None:
    started = time.monotonic()
    _, body = await call(http, server, "getUpdates", timeout=1)
    assert body["result"] == [] and time.monotonic() - started >= 0.9
    poll = asyncio.create_task(call(http, server, "getUpdates", timeout=30))
    await asyncio.sleep(0.2)
    started = time.monotonic()
    await server.stop()
    _, body = await asyncio.wait_for(poll, 3)
    assert body["result"] == [] and time.monotonic() - started < 3


async def test_newer_long_poll_ends_the_older_with_conflict(
    server: FakeTelegramServer, http: aiohttp.ClientSession
) -> None:
    older = asyncio.create_task(call(http, server, "getUpdates", timeout=5))
    await asyncio.sleep(0.2)
    newer = asyncio.create_task(call(http, server, "getUpdates", timeout=1))
    status, body = await asyncio.wait_for(older, 2)
    assert status == 409 and body["description"].startswith("Conflict: terminated by other")
    assert (await newer)[0] == 200


async def test_concurrent_requests_and_updates_stay_consistent(
    server: FakeTelegramServer, http: aiohttp.ClientSession, group: Any
) -> None:
    users = [server.add_user(f"User{n}") for n in range(20)]
    for user in users:
        group.members[user.id] = "member"
    answers = await asyncio.gather(
        *(call(http, server, "sendMessage", chat_id=group.id, text=f"n{n}") for n in range(40))
    )
    for user in users:
        user.send(group, "/join")
    assert {status for status, _ in answers} == {200}
    assert sorted(body["result"]["message_id"] for _, body in answers) == list(range(1, 41))
    _, body = await call(http, server, "getUpdates")
    ids = [u["update_id"] for u in body["result"]]
    assert len(ids) == 20 and ids == sorted(set(ids))
    server.assert_no_violations()


# --- validation against the schema --------------------------------------------------------

INVALID_CALLS = [
    ("sendMessage", {"chat_id": 1}, "required field text is missing"),
    ("sendMessage", {"chat_id": 1, "text": "x", "colour": "red"}, "unknown field colour"),
    ("sendMessage", {"chat_id": 1, "text": "x", "disable_notification": "maybe"}, "Boolean"),
    ("sendMessage", {"chat_id": 1, "text": "x" * 4097}, "1-4096 characters"),
    ("sendMessage", {"chat_id": 1, "text": ""}, "1-4096 characters"),
    ("sendMessage", {"chat_id": 1, "text": "a<br>b", "parse_mode": "HTML"}, "can't parse entities"),
    ("sendPhoto", {"chat_id": 1, "photo": "x", "caption": "c" * 1025}, "0-1024 characters"),
    ("answerCallbackQuery", {"callback_query_id": "1", "text": "t" * 201}, "0-200 characters"),
    ("editMessageText", {"text": "x"}, "required field chat_id is missing"),
    (
        "sendMessage",
        {
            "chat_id": 1,
            "text": "x",
            "reply_markup": {"inline_keyboard": [[{"text": "a", "callback_data": "é" * 33}]]},
        },
        "1-64 bytes",
    ),
    (
        "sendMessage",
        {
            "chat_id": 1,
            "text": "x",
            "reply_markup": {"inline_keyboard": [[{"text": "a", "callback_data": ""}]]},
        },
        "1-64 bytes",
    ),
    (
        "sendMessage",
        {"chat_id": 1, "text": "x", "reply_markup": {"inline_keyboard": [[{"text": "a"}]]}},
        "exactly one button action",
    ),
    (
        "sendMessage",
        {
            "chat_id": 1,
            "text": "x",
            "reply_markup": {
                "inline_keyboard": [[{"text": "a", "callback_data": "b", "colour": 1}]]
            },
        },
        "unknown field reply_markup.inline_keyboard[0][0].colour",
    ),
    (
        "sendMessage",
        {
            "chat_id": 1,
            "text": "x",
            "reply_markup": {"inline_keyboard": [[{"text": "b", "callback_data": "b"}] * 10] * 11},
        },
        "at most 100",
    ),
    (
        "editMessageMedia",
        {"chat_id": 1, "message_id": 1, "media": {"type": "photo", "media": "attach://missing"}},
        "which was not uploaded",
    ),
    (
        "editMessageMedia",
        {"chat_id": 1, "message_id": 1, "media": {"type": "sticker", "media": "x"}},
        "not any of",
    ),
]


@pytest.mark.parametrize(("method", "params", "expected"), INVALID_CALLS)
async def test_requests_breaking_the_schema_are_refused_and_recorded(
    server: FakeTelegramServer,
    http: aiohttp.ClientSession,
    method: str,
    params: dict[str, Any],
    expected: str,
) -> None:
    status, body = await call(http, server, method, **params)
    assert status == 400 and expected in body["description"]
    assert len(server.violations) == 1 and expected in str(server.violations[0])
    with pytest.raises(ProtocolViolationError, match=method):
        server.assert_no_violations()


async def test_unknown_method_is_a_violation(
    server: FakeTelegramServer, http: aiohttp.ClientSession
) -> None:
    status, _ = await call(http, server, "sendDominoes", chat_id=1)
    assert status == 404 and "no Bot API method" in str(server.violations[0])


@pytest.mark.parametrize(
    ("answer", "expected"),
    [({"id": 1}, "answer breaks the schema"), (KeyError("boom"), "crashed: KeyError")],
)
async def test_faults_of_the_fake_itself_fail_the_test(
    server: FakeTelegramServer,
    http: aiohttp.ClientSession,
    monkeypatch: pytest.MonkeyPatch,
    answer: Any,
    expected: str,
) -> None:
    def broken(world: Any, request: Any) -> Any:
        if isinstance(answer, Exception):
            raise answer
        return answer

    monkeypatch.setitem(endpoint._HANDLERS, "getMe", broken)
    await call(http, server, "getMe")
    assert expected in str(server.violations[0])


async def test_form_strings_are_coerced_like_telegram_does(
    server: FakeTelegramServer, http: aiohttp.ClientSession, group: Any
) -> None:
    markup = json.dumps({"inline_keyboard": [[{"text": "Join", "callback_data": "join"}]]})
    form = {
        "chat_id": str(group.id),
        "text": "123",
        "disable_notification": "true",
        "reply_markup": markup,
    }
    status, body = await call(http, server, "sendMessage", form=form)
    assert status == 200 and body["result"]["text"] == "123"
    status, body = await call(
        http, server, "sendMessage", form=form | {"reply_markup": "{not json"}
    )
    assert status == 400 and "not valid JSON" in body["description"]


async def test_html_is_measured_after_parsing_and_mentions_resolve(
    server: FakeTelegramServer, http: aiohttp.ClientSession, alice: Any, group: Any
) -> None:
    text = f'<a href="tg://user?id={alice.id}">Alice</a> ' + "<b>x</b>" * 1000
    status, _ = await call(
        http, server, "sendMessage", chat_id=group.id, text=text, parse_mode="HTML"
    )
    assert status == 200
    message = server.last_bot_message(group)
    assert message is not None and message.mentioned_user_ids == [alice.id]
    assert message.text == "Alice " + "x" * 1000


async def test_uploaded_part_nobody_refers_to_is_a_violation(
    server: FakeTelegramServer, http: aiohttp.ClientSession, group: Any
) -> None:
    form = aiohttp.FormData({"chat_id": str(group.id), "photo": "attach://a"})
    form.add_field("a", png("red"), filename="a.png")
    form.add_field("stray", png("red"), filename="b.png")
    status, body = await call(http, server, "sendPhoto", form=form)
    assert status == 400 and "'stray'" in body["description"]


# --- Telegram's refusals ------------------------------------------------------------------


async def test_edits_that_change_nothing_are_refused(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    text = await ptb.send_message(group.id, "lobby", reply_markup=keyboard("Join"))
    photo = await ptb.send_photo(
        group.id, png("red"), caption="table", reply_markup=keyboard("Hand")
    )
    same = [
        ptb.edit_message_text("lobby", group.id, text.message_id, reply_markup=keyboard("Join")),
        ptb.edit_message_reply_markup(group.id, text.message_id, reply_markup=keyboard("Join")),
        ptb.edit_message_caption(
            group.id, photo.message_id, caption="table", reply_markup=keyboard("Hand")
        ),
        ptb.edit_message_media(
            InputMediaPhoto(png("red"), caption="table"),
            group.id,
            photo.message_id,
            reply_markup=keyboard("Hand"),
        ),
    ]
    for edit in same:
        with pytest.raises(telegram.error.BadRequest, match="Message is not modified"):
            await edit
    await ptb.edit_message_text("lobby", group.id, text.message_id)  # drops the keyboard
    assert server.message(group, text.message_id).buttons == []
    assert len([e for e in server.errors if "not modified" in (e.description or "")]) == 4
    server.assert_no_violations()


async def test_rate_limits_answer_429_and_are_counted(http: aiohttp.ClientSession) -> None:
    async with FakeTelegramServer(rate_limits=RateLimits(group_per_minute=3)) as server:
        group = server.add_group("Fast", [server.add_user("Dan")])
        statuses = [
            (await call(http, server, "sendMessage", chat_id=group.id, text="x"))[0]
            for _ in range(4)
        ]
        assert statuses == [200, 200, 200, 429]
        _, body = await call(http, server, "sendMessage", chat_id=group.id, text="x")
        assert body["parameters"]["retry_after"] >= 1
        assert server.max_requests_in_window(group, 60) == 3


async def test_answering_a_query_twice_is_refused(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any, group: Any
) -> None:
    sent = await ptb.send_message(group.id, "lobby", reply_markup=keyboard("Join"))
    tap = alice.press_raw(server.message(group, sent.message_id), "forged:1")
    await ptb.answer_callback_query(tap.id)
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)query is too old"):
        await ptb.answer_callback_query(tap.id)
    assert tap.data == "forged:1"


# --- simulated users ----------------------------------------------------------------------


async def test_privacy_mode_delivers_only_commands_for_this_bot(
    server: FakeTelegramServer, alice: Any, group: Any
) -> None:
    alice.send(group, "good luck all")
    alice.send(group, "/newgame@other_bot")
    alice.send(group, "/newgame@domino_test_bot pair")
    alice.send(group, "/rules gaple")
    delivered = [u["message"]["text"] for u in server.updates]
    assert delivered == ["/newgame@domino_test_bot pair", "/rules gaple"]
    entity = server.updates[0]["message"]["entities"][0]
    assert entity == {"type": "bot_command", "offset": 0, "length": 24}


async def test_deep_link_starts_the_private_chat(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    carol = server.add_user("Carol")
    sent = await ptb.send_message(group.id, "lobby", reply_markup=keyboard("Join"))
    group.members[carol.id] = "member"
    tap = carol.press(server.message(group, sent.message_id), "Join")
    await ptb.answer_callback_query(tap.id, url="https://t.me/domino_test_bot?start=join-42")
    assert tap.start_payload == "join-42" and tap.url is not None
    carol.open_url(tap.url)
    start = server.updates[-1]["message"]
    assert start["text"] == "/start join-42" and start["chat"]["type"] == "private"
    await ptb.send_message(carol.id, "your hand")
    assert server.transcript(carol.private_chat).splitlines() == [
        "Carol: /start join-42",
        "bot #2: your hand",
    ]


async def test_pressing_a_missing_button_fails_loudly(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any, group: Any
) -> None:
    link = InlineKeyboardMarkup(
        [[InlineKeyboardButton("Open", url="https://t.me/domino_test_bot")]]
    )
    sent = await ptb.send_message(group.id, "lobby", reply_markup=link)
    message = server.message(group, sent.message_id)
    with pytest.raises(ScenarioError, match="no button 'Join'"):
        alice.press(message, "Join")
    with pytest.raises(ScenarioError, match="no callback_data"):
        alice.press(message, "Open")
    outsider = server.add_user("Eve")
    with pytest.raises(ScenarioError, match="not a member"):
        outsider.press_raw(message, "x")


async def test_migration_and_blocking_produce_valid_updates(
    server: FakeTelegramServer, alice: Any, group: Any
) -> None:
    new = server.migrate_group(group)
    alice.block_bot()
    alice.send(new, "/newgame")
    kinds = [
        (u.get("message") or {}).keys() & {"migrate_to_chat_id", "migrate_from_chat_id"}
        for u in server.updates
    ]
    assert kinds[:2] == [{"migrate_to_chat_id"}, {"migrate_from_chat_id"}]
    assert server.updates[2]["my_chat_member"]["new_chat_member"]["status"] == "kicked"
    for update in server.updates:
        assert server.schema.validate_object("Update", update) == []


async def test_chat_members_and_admins(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any, group: Any
) -> None:
    owner = await ptb.get_chat_member(group.id, alice.id)
    assert owner.status == "creator"
    admins = await ptb.get_chat_administrators(group.id)
    assert [a.user.id for a in admins] == [alice.id]
    stranger = server.add_user("Zed")
    assert (await ptb.get_chat_member(group.id, stranger.id)).status == "left"
    assert (await ptb.get_me()).username == "domino_test_bot"
    server.assert_no_violations()


# --- conveniences for tests ---------------------------------------------------------------


async def test_wait_for_returns_the_value_or_explains_the_timeout(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    async def later() -> None:
        await asyncio.sleep(0.2)
        await ptb.send_message(group.id, "table ready")

    task = asyncio.create_task(later())
    message = await server.wait_for(lambda: server.last_bot_message(group), timeout=3)
    assert message.text == "table ready"
    await task
    with pytest.raises(WaitTimeoutError, match="bot #1: table ready"):
        await server.wait_for(lambda: False, timeout=0.2, message="never")
    await server.wait_idle(quiet=0.1, timeout=2)


async def test_wait_for_fails_at_once_on_a_violation(
    server: FakeTelegramServer, http: aiohttp.ClientSession
) -> None:
    async def bad_request() -> None:
        await asyncio.sleep(0.1)
        await call(http, server, "sendMessage", chat_id=1)

    task = asyncio.create_task(bad_request())
    started = time.monotonic()
    with pytest.raises(ProtocolViolationError):
        await server.wait_for(lambda: False, timeout=5)
    assert time.monotonic() - started < 2
    await task


async def test_wait_for_ends_when_cancelled_as_the_server_changes(
    server: FakeTelegramServer,
) -> None:
    """A waiter cancelled while the change that woke it is still on its way to it stops: it
    must not return to its loop and wait on (Python 3.11's ``asyncio.wait_for`` returns the
    inner wait's result then and drops the cancellation; ``benchmarks.fleet``'s tables played
    on after being cancelled, and the run never ended)."""
    for turns in range(5):  # the cancellation lands 0, 1, ... loop turns after the change
        waiting = asyncio.create_task(server.wait_for(lambda: False, timeout=2))
        await asyncio.sleep(0.01)  # waiting for a change
        server._notify()  # a request arrived (the test pokes the fake's own signal)
        for _ in range(turns):
            await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting


async def test_photos_lists_every_picture_shown(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    sent = await ptb.send_photo(group.id, png("red"))
    await ptb.edit_message_media(InputMediaPhoto(png("green")), group.id, sent.message_id)
    await ptb.send_photo(group.id, png("blue", (60, 20)), caption="hand over")
    assert [p.data for p in server.photos(group)] == [
        png("red"),
        png("green"),
        png("blue", (60, 20)),
    ]
    assert server.transcript(group).splitlines()[-1] == "bot #2: [photo 60x20] hand over"


# --- a whole python-telegram-bot Application, polling ------------------------------------


async def test_ptb_application_polls_and_answers_through_the_fake(
    server: FakeTelegramServer, alice: Any, group: Any
) -> None:
    from telegram.ext import (
        AIORateLimiter,
        ApplicationBuilder,
        CallbackQueryHandler,
        CommandHandler,
        ContextTypes,
    )

    async def newgame(update: telegram.Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        await context.bot.send_photo(
            update.effective_chat.id, png("white"), caption="Lobby", reply_markup=keyboard("Join")
        )

    async def join(update: telegram.Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.message is not None
        await query.answer("Welcome")
        await query.edit_message_caption("Lobby: Alice", reply_markup=keyboard("Leave"))

    application = (
        ApplicationBuilder()
        .token(server.token)
        .base_url(server.base_url)
        .base_file_url(server.base_file_url)
        .rate_limiter(AIORateLimiter())
        .build()
    )
    application.add_handler(CommandHandler("newgame", newgame))
    application.add_handler(CallbackQueryHandler(join))
    async with application:
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=2)
        await application.start()
        alice.send(group, "/newgame@domino_test_bot")
        lobby = await server.wait_for(lambda: server.last_bot_message(group), timeout=5)
        tap = alice.press(lobby, "Join")
        await server.wait_for(lambda: lobby.caption == "Lobby: Alice", timeout=5)
        await server.wait_idle(quiet=0.2, timeout=5)
        await application.updater.stop()
        await application.stop()
    assert tap.answer_text == "Welcome" and lobby.button_texts == ["Leave"]
    assert {r.method for r in server.requests} >= {"getMe", "deleteWebhook", "getUpdates"}
    server.assert_no_violations()


async def test_what_admins_and_time_do_to_a_group_is_told_as_telegram_tells_it(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any,
) -> None:
    """Restricting the bot, adding it back, writing anonymously, deleting a message, a forum's
    General closed, a message grown old: valid updates, and Telegram's refusals."""
    bob = server.add_user("Bob", username="bob", started=True)
    group = server.add_group("Super", [alice, bob], owner=alice, supergroup=True)
    sent = await ptb.send_message(group.id, "hello")
    server.restrict_bot(group, may_send=False)
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)not enough rights to send text"):
        await ptb.send_message(group.id, "again")
    await ptb.edit_message_text("edited", group.id, sent.message_id)  # edits still go
    assert (await ptb.get_chat_member(group.id, server.bot.id)).status == "restricted"
    server.restrict_bot(group, may_send=True)
    server.kick_bot(group)
    alice.send(group, "/help")  # the bot is not in the group: no update
    server.add_bot(group)
    channel = server.add_channel("News")
    server.send_as_chat(alice, group, "/newgame")
    server.send_as_chat(bob, group, "/newgame", as_chat=channel)
    message = server.message(group, sent.message_id)
    server.age(message, days=3)
    bob.press_raw(message, "x")
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)can.t be deleted for everyone"):
        await ptb.delete_message(group.id, sent.message_id)
    server.delete_message(message, by=alice)
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)message to edit not found"):
        await ptb.edit_message_text("gone", group.id, sent.message_id)
    forum = server.add_group("Forum", [alice], owner=alice, forum=True)
    server.close_general(forum, alice)
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)topic_closed"):
        await ptb.send_message(forum.id, "in General")
    kinds = [next(k for k in u if k != "update_id") for u in server.updates]
    assert kinds == ["my_chat_member"] * 4 + ["message"] * 2 + ["callback_query", "message"]
    members = [u["my_chat_member"]["new_chat_member"]["status"] for u in server.updates[:4]]
    assert members == ["restricted", "member", "kicked", "member"]
    assert [u["message"]["from"]["username"] for u in server.updates[4:6]] == [
        "GroupAnonymousBot", "Channel_Bot"]
    assert server.updates[6]["callback_query"]["message"]["date"] == 0  # inaccessible
    for update in server.updates:
        assert server.schema.validate_object("Update", update) == []


async def test_a_bot_may_be_kept_to_texts_and_a_group_deleted_without_a_word(
    server: FakeTelegramServer, ptb: telegram.Bot, alice: Any,
) -> None:
    """An admin forbids the bot media alone: its texts go, its photos and new pictures are
    refused, and its member update says so; a deleted group refuses every call, a basic
    group with 403 "the group chat was deleted", a supergroup with "chat not found"."""
    group = server.add_group("Super", [alice], owner=alice, supergroup=True)
    picture = await ptb.send_photo(group.id, png("red"))
    server.restrict_bot(group, may_send=True, may_send_media=False)
    await ptb.send_message(group.id, "words go")
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)not enough rights to send photos"):
        await ptb.send_photo(group.id, png("red"))
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)not enough rights to send photos"):
        await ptb.edit_message_media(telegram.InputMediaPhoto(png("blue")), group.id,
                                     picture.message_id)
    member = server.updates[-1]["my_chat_member"]["new_chat_member"]
    assert member["status"] == "restricted" and member["can_send_messages"] is True
    assert member["can_send_photos"] is False
    assert server.schema.validate_object("Update", server.updates[-1]) == []
    server.restrict_bot(group, may_send=True)
    await ptb.send_photo(group.id, png("red"))
    basic = server.add_group("Basic", [alice], owner=alice)
    for chat, refusal in ((group, telegram.error.BadRequest), (basic, telegram.error.Forbidden)):
        server.delete_group(chat)
        with pytest.raises(refusal, match=r"(?i)chat not found|group chat was deleted"):
            await ptb.send_message(chat.id, "anyone?")
