"""``python -m bot``: run the bot (long polling, or a webhook when WEBHOOK_URL is set)."""

from __future__ import annotations

import sys

from .errors import ConfigError


def main() -> int:
    from .config import config_from_env, load_dotenv_file
    from .serving.webserver import http_settings_from_env

    load_dotenv_file()
    try:
        config = config_from_env()
        http = http_settings_from_env()
    except ConfigError as exc:
        print(f"domino-bot: {exc}", file=sys.stderr)
        return 2
    from .logs import configure, token_secrets

    configure(config.log_level, config.log_format, token_secrets(config.token))
    from .app import build_application
    from .launch import run
    from .trim import limit_arenas

    limit_arenas()  # before any thread allocates
    return run(build_application(config, http=http))


if __name__ == "__main__":
    raise SystemExit(main())
