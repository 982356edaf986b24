"""``python -m bot.fleet receiver|worker``: one process of a fleet (see :mod:`bot.fleet`).

- ``receiver``: Telegram's webhook in front of the queue (WEBHOOK_URL, WEBHOOK_SECRET,
  HTTP_HOST, HTTP_PORT, DATABASE_URL; the same URL and secret on every receiver: one with
  another secret than the fleet's is refused, unless ``--rotate-webhook-secret`` makes its
  secret the fleet's new one, :mod:`bot.fleet.secretprint`).
- ``worker``: the bot, fed from the queue (DATABASE_URL, FLEET_SHARDS, WORKER_NAME; health
  and metrics on HTTP_PORT when set). It takes no webhook: WEBHOOK_URL is ignored.

``--help`` says this (exit 0); a role it does not know is a usage error, and a bad setting
one line, both exit 2; a database that will not have the process is one line, exit 1; SIGINT,
SIGTERM or SIGHUP stops the process (exit 0).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from collections.abc import Sequence

from ..cli import STOP_SIGNALS, held, hold_setting, program, refused, version, warn_strays
from ..errors import ConfigError, StorageError
from .settings import ROTATE_FLAG

log = logging.getLogger("bot")
EPILOG = ("Settings come from the environment and from a .env file in the current folder: "
          "the bot's (TELEGRAM_BOT_TOKEN, ...) and the fleet's (DATABASE_URL, FLEET_SHARDS, "
          "WORKER_NAME); README.md's fleet section lists them, docs/OPERATIONS.md says how to "
          "run and watch a fleet.")


def role_of(argv: Sequence[str] | None) -> tuple[str, bool]:
    """The role asked for, and whether to rotate the fleet's webhook secret (a receiver's
    flag); --help and --version answer and exit 0, a wrong word exits 2."""
    parser = argparse.ArgumentParser(
        prog=program("bot.fleet"), epilog=EPILOG,
        description="Run one process of a fleet: the bot on PostgreSQL, over many processes.")
    parser.add_argument("role", choices=("receiver", "worker"),
                        help="receiver: takes Telegram's webhook into the queue (WEBHOOK_URL, "
                             "WEBHOOK_SECRET, HTTP_PORT); worker: plays the queued updates")
    parser.add_argument(ROTATE_FLAG, action="store_true",
                        help="receiver only: make this WEBHOOK_SECRET the fleet's new one "
                             "(every other receiver must then be restarted with it)")
    parser.add_argument("--version", action="version", version=version())
    args = parser.parse_args(argv)
    if args.rotate_webhook_secret and args.role != "receiver":
        parser.error(f"{ROTATE_FLAG} is a receiver's")
    return str(args.role), bool(args.rotate_webhook_secret)


def main(argv: Sequence[str] | None = None) -> int:
    """Run a receiver or a worker; its exit code (see :func:`bot.cli.held`)."""
    return held(_run(argv))


def _run(argv: Sequence[str] | None) -> int:
    role, rotate_secret = role_of(argv)
    from ..config import config_from_env, load_dotenv_file
    from ..serving.webserver import http_settings_from_env
    from ..settingnames import typo_of
    from .settings import fleet_settings_from_env

    dotenv = load_dotenv_file()
    env = dict(os.environ)
    try:
        config = config_from_env(env, dotenv)
        fleet = fleet_settings_from_env(env, dotenv)
        if role == "receiver":
            for name in ("WEBHOOK_URL", "WEBHOOK_SECRET"):
                if not env.get(name, "").strip():
                    raise ConfigError("a receiver needs WEBHOOK_URL and WEBHOOK_SECRET, the "
                                      "same on every receiver" + typo_of(name, env, dotenv))
            http = http_settings_from_env(env)
        else:
            env.pop("WEBHOOK_URL", None)  # the receivers take the updates
            http = http_settings_from_env(env)
        hold_setting(env)
    except ConfigError as exc:
        return refused(f"domino-bot fleet {role}", exc, dotenv)
    from ..logs import configure, secrets_of

    secrets = secrets_of(config.token, http.webhook_secret, config.database_url)
    configure(config.log_level, config.log_format, secrets)
    warn_strays(dotenv)
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
        for sig in STOP_SIGNALS:
            loop.add_signal_handler(sig, stopping.set)
        try:
            async with receiving(config, http, fleet, stopping=stopping,
                                 rotate_secret=rotate_secret):
                log.info("receiver running: Ctrl-C or SIGTERM stops it")
                await stopping.wait()
        except ConfigError as error:
            log.critical("%s", error)
            return 2
        except StorageError as error:  # the database will not have it: as a worker's start
            log.critical("%s", error)
            return 1
        log.info("receiver stopped")
        return 0

    loop = new_event_loop()
    try:
        return loop.run_until_complete(serve())
    finally:
        loop.close()


if __name__ == "__main__":
    raise SystemExit(main())
