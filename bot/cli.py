"""What the commands share as commands: the name their usage lines give them, the package's
version, and how a tool's work stops on SIGTERM or Ctrl-C leaving nothing behind."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Collection, Coroutine, Iterator, Mapping
from dataclasses import dataclass
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")


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
    number = package_version()
    if number is None:
        return "domino-bot (version unknown: not installed; pip install -e . says it)"
    return f"domino-bot {number}"


def package_version() -> str | None:
    """The installed package's version (``0.1.0``); None for a checkout never installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("domino-bot")
    except PackageNotFoundError:
        return None


#: ``ON_CONFIG_ERROR=wait``: a bot that cannot start for its settings (exit code 2: a token
#: missing or rejected, a bad value) waits for SIGTERM or Ctrl-C instead of exiting, and then
#: exits 2. Compose's ``restart: unless-stopped`` restarts whatever exits, whatever its code
#: (Docker's restart policies cannot tell exit codes apart), so it started such a bot again
#: and again; waiting, the container stays up and unhealthy (no HTTP server answers its
#: health check), its one line said once. The compose files set it; unset, the bot exits.
HOLD_SETTING = "ON_CONFIG_ERROR"
HOLD_CHOICES = ("exit", "wait")
CONFIG_ERROR = 2  # the exit code of a configuration error, as of a usage error
#: What stops a bot or a fleet process gracefully: Ctrl-C, a supervisor's SIGTERM, and
#: SIGHUP (a closed terminal; logrotate's usual ``postrotate kill -HUP``: the logs go to
#: stderr, so there is nothing to reopen), each with the same "stopping" and "stopped".
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def hold_setting(env: Mapping[str, str]) -> str:
    """``ON_CONFIG_ERROR``'s value, exit (the default) or wait; :class:`ConfigError` for
    any other (operator QA: ``wiat`` exited without a word)."""
    from .errors import ConfigError

    value = _hold(env)
    if value not in HOLD_CHOICES:
        raise ConfigError(f"{HOLD_SETTING} must be {' or '.join(HOLD_CHOICES)}, not {value!r}")
    return value


def _hold(env: Mapping[str, str]) -> str:
    return env.get(HOLD_SETTING, "").strip().lower() or HOLD_CHOICES[0]


def held(code: int) -> int:
    """``code``, once the bot may exit with it: at once, unless it is a configuration
    error's and ``ON_CONFIG_ERROR=wait`` asks to wait for a stop (signal) first."""
    if code != CONFIG_ERROR or _hold(os.environ) != "wait":  # (checked: hold_setting)
        return code
    import logging

    stops = set(STOP_SIGNALS)
    signal.pthread_sigmask(signal.SIG_BLOCK, stops)  # (before the line: none is missed)
    # (unconfigured, logging writes a warning's bare text on stderr, as the error's line)
    logging.getLogger("bot").warning(
        "waiting (%s=wait) rather than exiting, so that the container is not restarted in "
        "a loop: fix the setting, then recreate the container (docker compose up -d)",
        HOLD_SETTING)
    signal.sigwait(stops)
    return code


def refused(command: str, error: Exception, dotenv: Collection[str]) -> int:
    """Say why the settings keep ``command`` (``domino-bot``) from starting, after the
    names that are no setting (:func:`warn_strays`; one the error names as a typo is not
    said twice): a plain ``command: error`` line, or with ``LOG_FORMAT=json`` (read fine) JSON
    lines as every other fatal line. The exit code."""
    import logging

    from .config import log_format_of
    from .logs import SHORTEST_SECRET, LogFormat, configure, token_secrets

    env = dict(os.environ)
    form = log_format_of(env)
    if form is LogFormat.JSON:  # (no setting's value is said, but a token is hidden anyway)
        token = env.get("TELEGRAM_BOT_TOKEN", "").strip()
        configure("INFO", form, [s for s in token_secrets(token) if len(s) >= SHORTEST_SECRET])
    warn_strays(dotenv, said=str(error), plain=None if form is LogFormat.JSON else command)
    if form is LogFormat.JSON:
        logging.getLogger("bot").critical("%s", error)
    else:
        print(f"{command}: {error}", file=sys.stderr)
    return CONFIG_ERROR


def warn_strays(dotenv: Collection[str], said: str = "", plain: str | None = None) -> None:
    """One warning for each name in ``.env`` (its names ``dotenv``) or the environment that
    is no setting (:func:`bot.settingnames.strays`), but those ``said`` names as a typo:
    logged, or printed after ``plain`` (the command) before logging is set up."""
    import logging

    from .settingnames import strays

    for stray in strays(os.environ, dotenv):
        if stray.hint() in said:
            continue
        if plain is None:
            logging.getLogger("bot").warning("%s", stray.warning())
        else:
            print(f"{plain}: {stray.warning()}", file=sys.stderr)


class Stopped(BaseException):
    """SIGTERM (a supervisor's stop, ``kill``), or Ctrl-C where the tool asks for it, while a
    tool works (:func:`stopped_by_signals`): raised where the work is, so that what it made
    is removed as after any failure. A BaseException, as KeyboardInterrupt is: nothing may
    take it for a failure to report and go on."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@dataclass
class _Stops:
    """The stop asked of the work in :func:`stopped_by_signals`, and how to deliver it."""

    signum: int | None = None  # the stop asked (the first: later ones are not delivered)
    task: asyncio.Task[Any] | None = None  # the coroutine run by run_stopping, to cancel
    deferred: int = 0  # inside stops_deferred (or run_stopping): not raised where it lands
    settled: bool = False  # past_stopping: the work ends as if no stop came


_stops = _Stops()


@contextlib.contextmanager
def stopped_by_signals(*signums: int) -> Iterator[None]:
    """``signums`` (default SIGTERM and SIGHUP) raise :class:`Stopped` in the work (Python's
    default for them ends the process at once, leaving what the work made behind; SIGINT, left
    out, raises KeyboardInterrupt as by default). In plain code it comes where the work is, once
    the C call at hand (a step of SQLite's) returns; a coroutine run by :func:`run_stopping` is
    cancelled, and Stopped raised when it has unwound (its ``finally`` blocks, a transaction's
    rollback, ran). A second signal is not delivered: the first one's clean-up runs to its end.
    Restored afterwards."""
    def stop(signum: int, frame: FrameType | None) -> None:
        if _stops.signum is not None or _stops.settled:
            return
        _stops.signum = signum
        task = _stops.task
        if task is not None and not task.done():
            task.get_loop().call_soon_threadsafe(task.cancel)
        if not _stops.deferred:
            raise Stopped(signum)

    global _stops
    _stops = _Stops()
    chosen = signums or (signal.SIGTERM, signal.SIGHUP)  # (a closed terminal: as SIGTERM)
    before = {signum: signal.signal(signum, stop) for signum in chosen}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        _stops = _Stops()


@contextlib.contextmanager
def stops_deferred() -> Iterator[None]:
    """A stop asked in the block is raised at its end, not where it lands: around an event
    loop whose work must not be cut anywhere (an exception raised inside the loop's own code
    may be taken for a callback's failure and lost; aiosqlite's thread outlives a connect
    cut half way)."""
    _stops.deferred += 1
    try:
        yield
    finally:
        _stops.deferred -= 1
    if _stops.signum is not None and not _stops.deferred and not _stops.settled:
        raise Stopped(_stops.signum)


def run_stopping(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)``, stopped as :func:`stopped_by_signals` stops plain code: a stop
    cancels ``main``, which unwinds (a transaction rolls back, connections close), then
    raises :class:`Stopped`."""
    async def stoppable() -> T:
        _stops.task = asyncio.current_task()
        try:
            if _stops.signum is not None:  # asked as the loop started
                main.close()
                raise Stopped(_stops.signum)
            return await main
        except asyncio.CancelledError:
            if _stops.signum is None:
                raise
            raise Stopped(_stops.signum) from None
        finally:
            _stops.task = None

    with stops_deferred():  # (what lands as the loop starts or ends: raised after it)
        return asyncio.run(stoppable())


def past_stopping() -> None:
    """The work is at its commit: a stop asked from now on (in :func:`stopped_by_signals`)
    is not delivered, and the work ends as it would have (cut in its commit, it could not
    say whether anything changed). One asked already (its cancel not landed yet) is raised
    here, before the commit."""
    if _stops.signum is not None:
        raise Stopped(_stops.signum)
    _stops.settled = True
