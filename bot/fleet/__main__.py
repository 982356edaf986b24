"""``python -m bot.fleet receiver|worker``: one process of a fleet (see :mod:`bot.fleet`).

- ``receiver``: Telegram's webhook in front of the queue (WEBHOOK_URL, WEBHOOK_SECRET,
  HTTP_HOST, HTTP_PORT, DATABASE_URL; the same URL and secret on every receiver).
- ``worker``: the bot, fed from the queue (DATABASE_URL, FLEET_SHARDS, WORKER_NAME; health
  and metrics on HTTP_PORT when set). It takes no webhook: WEBHOOK_URL is ignored.

A bad setting is one line and exit 2; SIGINT or SIGTERM stops the process (exit 0).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

from ..errors import ConfigError

USAGE = "usage: python -m bot.fleet receiver|worker"
log = logging.getLogger("bot")


def main(argv: list[str] | None = None) -> int:
    from ..config import config_from_env, load_dotenv_file
    from ..serving.webserver import http_settings_from_env
    from .settings import fleet_settings_from_env

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in ("receiver", "worker"):
        print(USAGE, file=sys.stderr)
        return 2
    role = args[0]
    load_dotenv_file()
    env = dict(os.environ)
    try:
        config = config_from_env(env)
        fleet = fleet_settings_from_env(env)
        if role == "receiver":
            if not env.get("WEBHOOK_URL", "").strip() or not env.get("WEBHOOK_SECRET", "").strip():
                raise ConfigError("a receiver needs WEBHOOK_URL and WEBHOOK_SECRET (the same "
                                  "on every receiver)")
            http = http_settings_from_env(env)
        else:
            env.pop("WEBHOOK_URL", None)  # the receivers take the updates
            http = http_settings_from_env(env)
    except ConfigError as exc:
        print(f"domino-bot fleet {role}: {exc}", file=sys.stderr)
        return 2
    from ..logs import configure, token_secrets

    configure(config.log_level, config.log_format, token_secrets(config.token))
    if role == "worker":
        from ..app import build_application
        from ..launch import run
        from ..trim import limit_arenas

        limit_arenas()
        return run(build_application(config, http=http, fleet=fleet))
    from ..launch import new_event_loop
    from .receiver import receiving

    async def serve() -> int:
        stopping = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stopping.set)
        try:
            async with receiving(config, http, fleet):
                log.info("receiver running: Ctrl-C or SIGTERM stops it")
                await stopping.wait()
        except ConfigError as error:
            log.critical("%s", error)
            return 2
        log.info("receiver stopped")
        return 0

    loop = new_event_loop()
    try:
        return loop.run_until_complete(serve())
    finally:
        loop.close()


if __name__ == "__main__":
    raise SystemExit(main())
