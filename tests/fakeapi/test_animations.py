"""sendAnimation on the fake server: uploads and file_ids, Telegram's refusals, the message's
``animation`` as the Bot API schema has it, and the bytes for tests to read."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import pytest
import telegram
from PIL import Image

from fakeapi import FakeTelegramServer, RateLimits


def gif(frames: int = 3, size: tuple[int, int] = (48, 32), milliseconds: int = 700) -> bytes:
    """An animated GIF of ``frames`` frames, each shown ``milliseconds``."""
    pictures = [Image.new("P", size, index * 40) for index in range(frames)]
    out = io.BytesIO()
    pictures[0].save(out, "GIF", save_all=True, append_images=pictures[1:],
                     duration=milliseconds, loop=0)
    return out.getvalue()


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), "red").save(out, "PNG")
    return out.getvalue()


@pytest.fixture
def group(server: FakeTelegramServer) -> Any:
    alice = server.add_user("Alice", started=True)
    return server.add_group("Domino night", [alice], owner=alice)


async def post(http: aiohttp.ClientSession, server: FakeTelegramServer, method: str,
               form: aiohttp.FormData) -> tuple[int, dict[str, Any]]:
    async with http.post(f"{server.base_url}{server.token}/{method}", data=form) as response:
        return response.status, await response.json()


async def test_an_uploaded_gif_is_kept_and_described_as_telegram_does(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    data = gif(frames=4, milliseconds=750)
    sent = await ptb.send_animation(group.id, data, caption="<b>Hand 1</b>", parse_mode="HTML")
    assert sent.animation is not None
    assert (sent.animation.width, sent.animation.height) == (48, 32)
    assert sent.animation.mime_type == "image/gif"
    assert sent.animation.file_size == len(data)
    assert sent.document is not None  # set beside it, as Telegram does
    stored = server.message(group, sent.message_id)
    assert stored.animation_bytes == data and stored.caption == "Hand 1"
    assert stored.animation is not None and stored.animation.duration == 3  # 4 frames of 0.75 s
    assert server.animations(group) == [stored]
    assert server.transcript(group).splitlines()[-1] == "bot #1: [animation 48x32, 3 s] Hand 1"
    downloaded = await (await ptb.get_file(sent.animation.file_id)).download_as_bytearray()
    assert bytes(downloaded) == data


async def test_an_animation_is_sent_again_by_its_file_id_but_not_as_a_photo(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    first = await ptb.send_animation(group.id, gif())
    assert first.animation is not None
    again = await ptb.send_animation(group.id, first.animation.file_id, caption="again")
    assert again.animation is not None
    assert again.animation.file_unique_id == first.animation.file_unique_id
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)type of file mismatch"):
        await ptb.send_photo(group.id, first.animation.file_id)
    photo = await ptb.send_photo(group.id, png())
    with pytest.raises(telegram.error.BadRequest, match=r"(?i)type of file mismatch"):
        await ptb.send_animation(group.id, photo.photo[-1].file_id)


async def test_what_is_no_gif_or_mp4_is_refused(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    for data in (png(), b"not a picture at all"):
        with pytest.raises(telegram.error.BadRequest, match=r"(?i)wrong file type"):
            await ptb.send_animation(group.id, data)
    assert server.animations(group) == []
    mp4 = b"\x00\x00\x00\x18ftypmp42" + bytes(64)  # an MP4's first box: its size is the sender's
    sent = await ptb.send_animation(group.id, mp4, width=320, height=240, duration=2)
    assert sent.animation is not None and sent.animation.mime_type == "video/mp4"
    stored = server.message(group, sent.message_id).animation
    assert stored is not None and (stored.width, stored.height, stored.duration) == (320, 240, 2)


async def test_more_than_50_megabytes_is_refused(
    server: FakeTelegramServer, http: aiohttp.ClientSession, group: Any
) -> None:
    form = aiohttp.FormData({"chat_id": str(group.id)})
    form.add_field("animation", gif() + bytes(50 * 1024 * 1024), filename="big.gif")
    status, body = await post(http, server, "sendAnimation", form)
    assert status == 400 and "file is too big" in body["description"]
    assert server.animations(group) == []


async def test_its_caption_can_be_edited(
    server: FakeTelegramServer, ptb: telegram.Bot, group: Any
) -> None:
    sent = await ptb.send_animation(group.id, gif(), caption="one")
    await ptb.edit_message_caption(group.id, sent.message_id, caption="two")
    stored = server.message(group, sent.message_id)
    assert stored.caption == "two" and stored.animation_bytes == gif()


async def test_animations_count_against_the_groups_budget() -> None:
    async with FakeTelegramServer(rate_limits=RateLimits(group_per_minute=2)) as server:
        alice = server.add_user("Alice", started=True)
        group = server.add_group("Domino night", [alice], owner=alice)
        bot = telegram.Bot(server.token, base_url=server.base_url)
        async with bot:
            await bot.send_message(group.id, "first")
            await bot.send_animation(group.id, gif())
            with pytest.raises(telegram.error.RetryAfter):
                await bot.send_animation(group.id, gif())
        assert server.limit_report().group_window == 2
        assert server.limit_report().too_many == 1
        server.assert_no_violations()
