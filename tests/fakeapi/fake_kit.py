"""What the fake's own tests share: a picture to upload, a keyboard, and a plain HTTP call."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
from PIL import Image
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from fakeapi import FakeTelegramServer


def png(color: str, size: tuple[int, int] = (40, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, "PNG")
    return out.getvalue()


def keyboard(*labels: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(x, callback_data=x.lower()) for x in labels]]
    )


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
