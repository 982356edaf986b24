"""What an operator can watch from outside: the bot's Prometheus metrics, named ``domino_``,
and the process's own under Prometheus' conventional ``process_`` names (resident memory, CPU
seconds, start time, open files: prometheus-client's collector, which reads ``/proc`` and
exports nothing where there is none).

They live in a registry of their own (not prometheus-client's global one), so each test, and
each bot in one process, starts from zero. The bot records through the methods of
:class:`Metrics`; ``/metrics`` (:mod:`bot.serving.webserver`) exposes
:meth:`Metrics.exposition`. Labels are few and bounded (a method name, an outcome, an update
kind, a game), never a chat or a user.
"""

from __future__ import annotations

import time
from enum import StrEnum
from http import HTTPStatus

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)

from ..cli import package_version

# No ``*_created`` series beside each counter and histogram (the time each was made, which
# Prometheus does not use and which doubled the series): a setting of prometheus-client's,
# for the whole process, as PROMETHEUS_DISABLE_CREATED_SERIES=True would set it.
disable_created_metrics()  # type: ignore[no-untyped-call]

#: Seconds, from a fast answer to a slow table edit under a flood wait.
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
#: Seconds one picture takes to draw (tens of milliseconds usually).
DRAWING_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class ApiOutcome(StrEnum):
    """How one Bot API call ended, as the ``outcome`` label says it."""

    OK = "ok"
    RETRY_AFTER = "retry_after"  # 429: Telegram asked the bot to wait
    REFUSED = "refused"  # any other error answer (400, 403, ...)
    NETWORK = "network"  # no answer: connection failed or timed out


class StorageCause(StrEnum):
    """Why the database failed an update's handling, as the ``cause`` label says it."""

    DISK_FULL = "disk_full"  # the disk (or a PostgreSQL server's) full: free some space
    DAMAGED = "damaged"  # the file, or the server's data or an index, damaged
    READ_ONLY = "read_only"  # the file or its folder not writable
    UNAVAILABLE = "unavailable"  # PostgreSQL away (past the storage's own retries)
    OTHER = "other"


class Metrics:
    """The bot's metric objects and one recording method for each thing it counts."""

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        reg = self.registry
        ProcessCollector(registry=reg)  # process_resident_memory_bytes, ..._cpu_seconds_total
        Gauge("domino_build_info", "1, labelled with the bot's version (unknown: a checkout "
              "never installed).", ["version"], registry=reg
              ).labels(version=package_version() or "unknown").set(1)
        self.updates = Counter(
            "domino_updates_handled", "Updates the bot handled, by kind.", ["kind"], registry=reg
        )
        self.taps = Counter("domino_taps_handled", "Button taps the bot answered.", registry=reg)
        self.taps_failed = Counter(
            "domino_taps_failed",
            "Button taps answered with an apology: their handling failed (the database's "
            "failure, a bug); not in domino_taps_handled.", registry=reg)
        self.storage_failures = Counter(
            "domino_storage_failures",
            "Updates (taps, commands) the database failed, by cause: a full disk shows here.",
            ["cause"], registry=reg)
        for cause in StorageCause:  # (each series from zero: an alert sees the first one)
            self.storage_failures.labels(cause=cause.value)
        self.moves = Counter(
            "domino_moves_played", "Moves committed to a game, by game.", ["game"], registry=reg
        )
        self.api_calls = Counter(
            "domino_bot_api_calls",
            "Bot API calls, by method and outcome.",
            ["method", "outcome"],
            registry=reg,
        )
        self.api_last_ok = Gauge(
            "domino_bot_api_last_ok_timestamp_seconds",
            "Unix time of the last Bot API call Telegram answered.",
            registry=reg,
        )
        self.flood_waits = Counter(
            "domino_flood_waits", "429 answers (retry after) from Telegram.", registry=reg
        )
        self.flood_wait_seconds = Counter(
            "domino_flood_wait_seconds", "Seconds spent waiting out 429 answers.", registry=reg
        )
        self.outbox_depth = Gauge(
            "domino_outbox_depth", "Telegram calls waiting to be sent.", registry=reg
        )
        self.outbox_age = Gauge(
            "domino_outbox_oldest_age_seconds",
            "How long the oldest waiting Telegram call has waited.",
            registry=reg,
        )
        self.open_games = Gauge("domino_open_games", "Games being played.", registry=reg)
        self.open_lobbies = Gauge("domino_open_lobbies", "Lobbies waiting to start.", registry=reg)
        self.drawing = Histogram(
            "domino_picture_draw_seconds",
            "Time to draw one picture, by kind (its count is the pictures drawn).",
            ["kind"],
            buckets=DRAWING_BUCKETS,
            registry=reg,
        )
        self.tap_to_answer = Histogram(
            "domino_tap_to_answer_seconds",
            "From a tap arriving to its callback query being answered.",
            buckets=LATENCY_BUCKETS,
            registry=reg,
        )
        self.tap_to_table_edit = Histogram(
            "domino_tap_to_table_edit_seconds",
            "From a tap that plays a move to the group's table showing it.",
            buckets=LATENCY_BUCKETS,
            registry=reg,
        )
        self.webhook_requests = Counter(
            "domino_webhook_requests",
            "Telegram's webhook POSTs, by the answer given (200 taken, 400 not an update, "
            "403 wrong secret token, 404 another path than the webhook's: a proxy forwarding "
            "to the wrong one, 503 not stored: Telegram sends it again).",
            ["status"],
            registry=reg,
        )
        self._webhook_answers: dict[int, int] = {}  # the same, for the bot's own checks
        self.webhook_pending = Gauge(
            "domino_webhook_pending_updates",
            "Updates Telegram holds for the webhook, not delivered yet (getWebhookInfo's "
            "pending_update_count, read every minute in webhook mode).",
            registry=reg,
        )
        self.updates_stored = Counter(
            "domino_fleet_updates_stored",
            "Updates a fleet's receiver stored in the queue (new), or found there already "
            "(duplicate: Telegram sent it again).",
            ["outcome"],
            registry=reg,
        )
        self._last_ok: float | None = None  # time.monotonic() of the last answered call

    # --- recording ----------------------------------------------------------------------

    def update_handled(self, kind: str) -> None:
        """One update handled; ``kind`` is its Update field (message, callback_query...)."""
        self.updates.labels(kind=kind).inc()

    def tap_handled(self, answered_after: float, failed: bool = False) -> None:
        """One tap answered, ``answered_after`` seconds after it arrived; ``failed``: with
        an apology (counted apart, its time not observed)."""
        if failed:
            self.taps_failed.inc()
            return
        self.taps.inc()
        self.tap_to_answer.observe(answered_after)

    def storage_failed(self, cause: StorageCause) -> None:
        """The database failed an update's handling (told in one line)."""
        self.storage_failures.labels(cause=cause.value).inc()

    def table_edited(self, after_tap: float) -> None:
        """The group's table shows a move ``after_tap`` seconds after the tap that played it."""
        self.tap_to_table_edit.observe(after_tap)

    def move_played(self, game: str) -> None:
        self.moves.labels(game=game).inc()

    def api_call(self, method: str, outcome: ApiOutcome) -> None:
        """One Bot API call ended; any answer from Telegram (even an error) shows it is up."""
        self.api_calls.labels(method=method, outcome=outcome.value).inc()
        if outcome is not ApiOutcome.NETWORK:
            self._last_ok = time.monotonic()
            self.api_last_ok.set(time.time())
        if outcome is ApiOutcome.RETRY_AFTER:
            self.flood_waits.inc()

    def webhook_answered(self, status: int) -> None:
        """One webhook POST answered ``status`` (404: posted to another path than its own)."""
        self.webhook_requests.labels(status=str(status)).inc()
        self._webhook_answers[status] = self._webhook_answers.get(status, 0) + 1

    def webhook_served(self) -> None:
        """A webhook is served: its strays' series (404) from zero, for an alert's first."""
        self.webhook_requests.labels(status=str(int(HTTPStatus.NOT_FOUND)))

    def webhook_backlog(self, pending: int) -> None:
        """Telegram holds ``pending`` updates for the webhook (its getWebhookInfo)."""
        self.webhook_pending.set(pending)

    def update_stored(self, new: bool) -> None:
        """A receiver stored an update (``new``), or found it stored already."""
        self.updates_stored.labels(outcome="new" if new else "duplicate").inc()

    def flood_waited(self, seconds: float) -> None:
        """The bot spent ``seconds`` waiting out a 429 before sending again."""
        self.flood_wait_seconds.inc(seconds)

    def outbox(self, depth: int, oldest_age: float) -> None:
        self.outbox_depth.set(depth)
        self.outbox_age.set(oldest_age)

    def open_tables(self, games: int, lobbies: int) -> None:
        self.open_games.set(games)
        self.open_lobbies.set(lobbies)

    def picture_drawn(self, kind: str, seconds: float) -> None:
        """One picture (``kind``: table, hand...) took ``seconds`` to draw."""
        self.drawing.labels(kind=kind).observe(seconds)

    # --- reading ------------------------------------------------------------------------

    def telegram_answered_within(self, seconds: float) -> bool:
        """Whether Telegram answered any call in the last ``seconds`` (a readiness check)."""
        return self._last_ok is not None and time.monotonic() - self._last_ok <= seconds

    def webhook_answers(self, status: int) -> int:
        """How many webhook POSTs were answered ``status`` so far."""
        return self._webhook_answers.get(status, 0)

    def exposition(self) -> tuple[bytes, str]:
        """The metrics in Prometheus' text format, and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
