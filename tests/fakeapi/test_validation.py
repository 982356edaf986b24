"""Every call checked against the Bot API schema (plain aiohttp requests probe the edges): one
that breaks it is refused and recorded as a violation, as are an unknown method and a fault of
the fake itself; form strings are coerced and HTML measured as Telegram does."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from fake_kit import call, png

from fakeapi import FakeTelegramServer, ProtocolViolationError, endpoint


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegramServer]:
    """A fake server not checked for violations at the end: they are what these tests make,
    and each checks its own."""
    async with FakeTelegramServer() as fake:
        yield fake


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
