"""The bot's metrics: each recording shows in the Prometheus exposition, in a registry of its
own."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.cli import package_version
from bot.handlers.failures import cause_of
from bot.serving.metrics import ApiOutcome, Metrics, StorageCause


def samples(metrics: Metrics) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of the exposition, keyed by name and sorted labels."""
    body, content_type = metrics.exposition()
    assert content_type.startswith("text/plain; version=")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(body.decode())
        for sample in family.samples
    }


def test_each_recording_shows_in_the_exposition() -> None:
    metrics = Metrics()
    metrics.update_handled("message")
    metrics.update_handled("callback_query")
    metrics.update_handled("callback_query")
    metrics.tap_handled(0.2)
    metrics.table_edited(1.5)
    metrics.move_played("gaple")
    metrics.api_call("sendPhoto", ApiOutcome.OK)
    metrics.api_call("editMessageMedia", ApiOutcome.RETRY_AFTER)
    metrics.flood_waited(3.5)
    metrics.outbox(4, 2.25)
    metrics.open_tables(games=2, lobbies=1)
    metrics.picture_drawn("table", 0.04)
    seen = samples(metrics)
    assert seen[("domino_updates_handled_total", (("kind", "callback_query"),))] == 2
    assert seen[("domino_updates_handled_total", (("kind", "message"),))] == 1
    assert seen[("domino_taps_handled_total", ())] == 1
    assert seen[("domino_moves_played_total", (("game", "gaple"),))] == 1
    assert seen[("domino_bot_api_calls_total", (("method", "sendPhoto"), ("outcome", "ok")))] == 1
    assert seen[("domino_flood_waits_total", ())] == 1
    assert seen[("domino_flood_wait_seconds_total", ())] == 3.5
    assert seen[("domino_outbox_depth", ())] == 4
    assert seen[("domino_outbox_oldest_age_seconds", ())] == 2.25
    assert (seen[("domino_open_games", ())], seen[("domino_open_lobbies", ())]) == (2, 1)
    assert seen[("domino_picture_draw_seconds_count", (("kind", "table"),))] == 1
    assert seen[("domino_picture_draw_seconds_sum", (("kind", "table"),))] == pytest.approx(0.04)
    assert seen[("domino_tap_to_answer_seconds_bucket", (("le", "0.25"),))] == 1
    assert seen[("domino_tap_to_answer_seconds_bucket", (("le", "0.1"),))] == 0
    assert seen[("domino_tap_to_table_edit_seconds_sum", ())] == 1.5
    # the bot's own named domino_, the process's as Prometheus names them everywhere
    assert all(name.startswith(("domino_", "process_")) for name, _ in seen)
    assert {"process_resident_memory_bytes", "process_cpu_seconds_total",
            "process_start_time_seconds"} <= {name for name, _ in seen}
    # No prometheus-client "_created" series (a creation time beside each counter/histogram).
    assert not [name for name, _ in seen if name.endswith("_created")]
    assert b"_created" not in metrics.exposition()[0]


def test_the_webhook_backlog_and_the_build_show_in_the_exposition() -> None:
    metrics = Metrics()
    metrics.webhook_backlog(7)
    metrics.webhook_answered(404)
    seen = samples(metrics)
    assert seen[("domino_webhook_pending_updates", ())] == 7
    assert seen[("domino_webhook_requests_total", (("status", "404"),))] == 1
    assert metrics.webhook_answers(404) == 1 and metrics.webhook_answers(403) == 0
    [(labels, value)] = [(labels, value) for (name, labels), value in seen.items()
                         if name == "domino_build_info"]
    assert value == 1 and labels == (("version", package_version() or "unknown"),)


def test_registries_are_separate() -> None:
    first, second = Metrics(), Metrics()
    first.move_played("kolbasa")
    assert ("domino_moves_played_total", (("game", "kolbasa"),)) in samples(first)
    assert ("domino_moves_played_total", (("game", "kolbasa"),)) not in samples(second)


def test_telegram_answered_recently_counts_error_answers_but_not_network_failures() -> None:
    metrics = Metrics()
    assert not metrics.telegram_answered_within(60)
    metrics.api_call("getMe", ApiOutcome.NETWORK)
    assert not metrics.telegram_answered_within(60)
    assert samples(metrics)[("domino_bot_api_last_ok_timestamp_seconds", ())] == 0
    metrics.api_call("sendMessage", ApiOutcome.REFUSED)
    assert metrics.telegram_answered_within(60)
    assert not metrics.telegram_answered_within(-1)
    assert samples(metrics)[("domino_bot_api_last_ok_timestamp_seconds", ())] > 0


@pytest.mark.parametrize(("line", "cause"), [
    ("cannot use the database /srv/d.sqlite3: database or disk is full (free some disk space)",
     StorageCause.DISK_FULL),
    ("disk I/O error (its -shm file cannot grow: free some disk space)", StorageCause.DISK_FULL),
    ("could not extend file (free some disk space on the PostgreSQL server)",
     StorageCause.DISK_FULL),
    ("database disk image is malformed (the file is damaged or not SQLite: restore a backup)",
     StorageCause.DAMAGED),
    ("attempt to write a readonly database (the database file or its folder is not writable)",
     StorageCause.READ_ONLY),
    ("schema 12 is newer than this bot's", StorageCause.OTHER),
])
def test_a_storage_failures_line_names_its_cause(line: str, cause: StorageCause) -> None:
    assert cause_of(line) is cause
