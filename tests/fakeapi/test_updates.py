"""getUpdates as Telegram serves it: increasing ids and offsets, allowed_updates, long polls
that time out, end with a conflict or with the server, and requests arriving together."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import aiohttp
from fake_kit import call, keyboard

from fakeapi import FakeTelegramServer


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
