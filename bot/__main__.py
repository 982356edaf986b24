"""``python -m bot``: run the bot with long polling."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

from .errors import ConfigError


def main() -> int:
    from .config import config_from_env, load_dotenv_file

    load_dotenv_file()
    try:
        config = config_from_env()
    except ConfigError as exc:
        print(f"domino-bot: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    from .app import allowed_updates, begin_stop, build_application
    from .trim import limit_arenas

    limit_arenas()  # before any thread allocates

    application = build_application(config)
    # Our own signal handlers: stopping starts at the signal, before PTB waits for the
    # running handlers and jobs, so nothing waits out a flood wait or a failing Telegram.
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    stopping: list[bool] = []

    def on_signal() -> None:
        if stopping:
            return  # already stopping, within seconds
        stopping.append(True)
        begin_stop(application)
        raise SystemExit

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, on_signal)
    application.run_polling(allowed_updates=allowed_updates(), stop_signals=None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
