"""What the commands share as commands: the name their usage lines give them, and the
package's version."""

from __future__ import annotations

import os
import sys


def program(module: str) -> str:
    """The command as the operator typed it: ``python -m module`` when run so, else the name
    it was started by (``domino-bot-backup``, the launcher pip installs)."""
    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    name = name.removesuffix(".exe")
    if not name or name.endswith(".py") or name in ("-c", "-m"):
        return f"python -m {module}"
    return name


def version() -> str:
    """``domino-bot 0.1.0``: the installed package's version (a checkout that was never
    installed has none to say)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return f"domino-bot {installed('domino-bot')}"
    except PackageNotFoundError:
        return "domino-bot (version unknown: not installed; pip install -e . says it)"


#: ``ON_CONFIG_ERROR=wait``: a bot that cannot start for its settings (exit code 2: a token
#: missing or rejected, a bad value) waits for SIGTERM or Ctrl-C instead of exiting, and then
#: exits 2. Compose's ``restart: unless-stopped`` restarts whatever exits, whatever its code
#: (Docker's restart policies cannot tell exit codes apart), so it started such a bot again
#: and again; waiting, the container stays up and unhealthy (no HTTP server answers its
#: health check), its one line said once. The compose files set it; unset, the bot exits.
HOLD_SETTING = "ON_CONFIG_ERROR"
CONFIG_ERROR = 2  # the exit code of a configuration error, as of a usage error


def held(code: int) -> int:
    """``code``, once the bot may exit with it: at once, unless it is a configuration
    error's and ``ON_CONFIG_ERROR=wait`` asks to wait for a stop (signal) first."""
    if code != CONFIG_ERROR or os.environ.get(HOLD_SETTING, "").strip().lower() != "wait":
        return code
    import logging
    import signal

    stops = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)  # (before the line: none is missed)
    # (unconfigured, logging writes a warning's bare text on stderr, as the error's line)
    logging.getLogger("bot").warning(
        "waiting (%s=wait) rather than exiting, so that the container is not restarted in "
        "a loop: fix the setting, then recreate the container (docker compose up -d)",
        HOLD_SETTING)
    signal.sigwait(stops)
    return code
