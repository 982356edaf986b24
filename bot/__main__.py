"""``python -m bot``: run the bot with long polling."""

from __future__ import annotations

import logging
import sys

from .errors import ConfigError


def main() -> int:
    from .config import load_dotenv_file, settings_from_env

    load_dotenv_file()
    try:
        settings = settings_from_env()
    except ConfigError as exc:
        print(f"domino-bot: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from .app import allowed_updates, build_application

    application = build_application(settings)
    application.run_polling(allowed_updates=allowed_updates())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
