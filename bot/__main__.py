"""``python -m bot``: run the bot (long polling, or a webhook when WEBHOOK_URL is set)."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
from collections.abc import Sequence

from .cli import held, hold_setting, program, refused, version, warn_strays
from .errors import ConfigError, StorageError

EPILOG = ("Settings come from the environment and from a .env file in the current folder "
          "(a variable already set wins, unless empty): TELEGRAM_BOT_TOKEN is required. "
          "README.md's Settings table lists every variable, .env.example shows them, and "
          "docs/OPERATIONS.md says how to run, check and back up the bot.")


def arguments(argv: Sequence[str] | None) -> None:
    """--help and --version answer and exit 0; anything else given is a usage error (2)."""
    parser = argparse.ArgumentParser(
        prog=program("bot"),
        description="Run the domino bot: it polls Telegram, or takes a webhook when "
                    "WEBHOOK_URL is set, until Ctrl-C, SIGTERM or SIGHUP.",
        epilog=EPILOG)
    parser.add_argument("--version", action="version", version=version())
    parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the bot; its exit code (see :func:`bot.cli.held` for ``ON_CONFIG_ERROR``)."""
    return held(_run(argv))


def _run(argv: Sequence[str] | None) -> int:
    arguments(argv)
    from .config import config_from_env, load_dotenv_file
    from .serving.webserver import http_settings_from_env

    dotenv = load_dotenv_file()
    try:
        config = config_from_env(dotenv=dotenv)
        http = http_settings_from_env()
        hold_setting(os.environ)
    except ConfigError as exc:
        return refused("domino-bot", exc, dotenv)
    from .logs import configure, secrets_of

    secrets = secrets_of(config.token, http.webhook_secret, config.database_url)
    configure(config.log_level, config.log_format, secrets)
    warn_strays(dotenv)
    from .app import build_application
    from .launch import run
    from .storage.sqlite import held_alone
    from .trim import limit_arenas

    with contextlib.ExitStack() as alone:
        if config.database_url is None:  # PostgreSQL coordinates its processes itself
            try:
                alone.enter_context(held_alone(config.database_path))
            except StorageError as error:
                logging.getLogger("bot").critical("%s", error)
                return 1
        limit_arenas()  # before any thread allocates
        return run(build_application(config, http=http))


if __name__ == "__main__":
    raise SystemExit(main())
