"""How Bot API requests arrive and answers leave: the four request encodings, JSON answers."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from .errors import ApiError
from .schema import Uploaded


def reply(status: int, body: dict[str, Any]) -> web.Response:
    return web.json_response(body, status=status, dumps=lambda v: json.dumps(v, ensure_ascii=False))


async def read_parameters(request: web.Request) -> tuple[dict[str, Any], dict[str, Uploaded]]:
    """Query string, JSON body, urlencoded or multipart form: Telegram takes all four."""
    params: dict[str, Any] = dict(request.query)
    files: dict[str, Uploaded] = {}
    if not request.body_exists:
        return params, files
    if request.content_type == "application/json":
        try:
            body = await request.json()
        except ValueError as error:
            raise ApiError.bad_request("can't parse JSON body") from error
        if not isinstance(body, dict):
            raise ApiError.bad_request("the JSON body must be an object")
        params.update(body)
        return params, files
    form = await request.post()
    for name, value in form.items():
        if isinstance(value, web.FileField):
            files[name] = Uploaded(value.filename, value.content_type, value.file.read())
        else:
            params[name] = value
    return params, files
