"""The fleet's accounting of private windows: a broken one is told call by call, so a rare
failure of the fleet's test says what made it."""

from __future__ import annotations

from fakeapi.accounting import crowded_private_windows, limit_report
from fakeapi.records import RequestRecord

PERSON, GROUP = 1001, -4000000001


def call(at: float, method: str = "editMessageMedia", chat: int = PERSON, message: int = 7,
         client: str = "127.0.0.1:5000", status: int = 200) -> RequestRecord:
    return RequestRecord(method, {"chat_id": chat, "message_id": message}, at, status, None,
                         chat, client)


def test_a_fourth_call_within_three_seconds_is_told_with_its_neighbours() -> None:
    calls = [call(10.0), call(10.5, client="127.0.0.1:6000"), call(11.0, "sendPhoto"),
             call(12.9, message=8), call(20.0),
             call(10.1, chat=GROUP), call(10.2, chat=GROUP), call(10.3, chat=GROUP),
             call(11.5, "deleteMessage"), call(11.6, status=429)]
    assert limit_report(calls, {GROUP}, 0).private_window == 4
    assert crowded_private_windows(calls, {GROUP}) == [
        "chat 1001: +0.000s editMessageMedia 7 from 127.0.0.1:5000; "
        "+0.500s editMessageMedia 7 from 127.0.0.1:6000; +1.000s sendPhoto 7 from "
        "127.0.0.1:5000; +2.900s editMessageMedia 8 from 127.0.0.1:5000"]


def test_three_in_a_window_are_not_crowded() -> None:
    calls = [call(10.0), call(11.0), call(12.0), call(13.0), call(14.5)]
    assert crowded_private_windows(calls, {GROUP}) == []
