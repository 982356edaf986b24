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
