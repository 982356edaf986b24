"""What the whole bot did, however many processes serve it: how often each tap was answered,
and the worst pace of its sends and edits against Telegram's limits. A fleet's processes all
talk to the one fake server, so these figures are the fleet's, not one process's."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .ratelimit import counts_toward_limits, max_in_window, worst_windows
from .records import CallbackQueryRecord, RequestRecord

TOO_OLD = "query is too old"


@dataclass(frozen=True)
class TapAnswers:
    """Each tap's answers that reached the fake: accepted ones, and answers to a tap already
    answered (Telegram refuses those as "query is too old", so the bot tried twice)."""

    answers: dict[str, int]  # callback query id -> answers the fake received for it

    @property
    def taps(self) -> int:
        return len(self.answers)

    @property
    def unanswered(self) -> tuple[str, ...]:
        return tuple(tap for tap, count in self.answers.items() if count == 0)

    @property
    def twice(self) -> tuple[str, ...]:
        """Taps answered more than once."""
        return tuple(tap for tap, count in self.answers.items() if count > 1)


def tap_answers(
    callbacks: Iterable[CallbackQueryRecord], requests: Iterable[RequestRecord]
) -> TapAnswers:
    answers = {record.id: 0 for record in callbacks}
    for request in requests:
        if request.method != "answerCallbackQuery":
            continue
        tap = request.params.get("callback_query_id")
        refused_as_old = request.status == 400 and TOO_OLD in (request.description or "")
        if tap in answers and (request.ok or refused_as_old):
            answers[tap] += 1
    return TapAnswers(answers)


@dataclass(frozen=True)
class LimitReport:
    """The worst rolling windows of sends and edits answered OK over a whole run, and the 429s
    the fake answered (its enforced limits and any flood wait a test injected)."""

    group_window: int  # most in any ``group_period`` in one group
    overall_window: int  # most in any second over every chat
    private_window: int  # most in any ``private_period`` in one private chat
    too_many: int  # calls answered 429
    early_calls: int  # calls made while their chat's flood wait lasted

    def broken(self, group: int = 20, overall: int = 30, private: int = 3) -> list[str]:
        """Which of Telegram's limits the bot went over (empty: all kept)."""
        problems = []
        if self.group_window > group:
            problems.append(f"{self.group_window} sends/edits in one group's window (> {group})")
        if self.overall_window > overall:
            problems.append(f"{self.overall_window} sends/edits in one second (> {overall})")
        if self.private_window > private:
            problems.append(
                f"{self.private_window} sends/edits in one private chat's window (> {private})")
        if self.early_calls:
            problems.append(f"{self.early_calls} calls during their chat's flood wait")
        return problems


def limit_report(
    requests: Iterable[RequestRecord], groups: set[int], early_calls: int,
    group_period: float = 60.0, private_period: float = 3.0,
) -> LimitReport:
    done = list(requests)
    calls = [(r.at, r.chat_id) for r in done if r.ok and counts_toward_limits(r.method)]
    worst = worst_windows(calls, groups, group_period, 1.0)
    private: dict[int, list[float]] = {}
    for at, chat_id in calls:
        if chat_id is not None and chat_id not in groups:
            private.setdefault(chat_id, []).append(at)
    private_worst = max((max_in_window(sorted(times), private_period)
                         for times in private.values()), default=0)
    return LimitReport(worst.group, worst.overall, private_worst,
                       sum(r.status == 429 for r in done), early_calls)


def crowded_private_windows(requests: Iterable[RequestRecord], groups: set[int],
                            period: float = 3.0, most: int = 3) -> list[str]:
    """Each private chat's run of more than ``most`` counted calls within ``period``, told
    call by call (seconds from the first, method, message, the caller's connection): what a
    broken private window was made of, for the failure's message."""
    calls: dict[int, list[RequestRecord]] = {}
    for record in requests:
        if (record.ok and counts_toward_limits(record.method) and record.chat_id is not None
                and record.chat_id not in groups):
            calls.setdefault(record.chat_id, []).append(record)
    found = []
    for chat_id, made in calls.items():
        made.sort(key=lambda record: record.at)
        for first, record in enumerate(made):
            window = [r for r in made[first:] if r.at - record.at < period]
            if len(window) > most:
                found.append(f"chat {chat_id}: " + "; ".join(
                    f"+{r.at - record.at:.3f}s {r.method} {r.params.get('message_id', '')} "
                    f"from {r.client}" for r in window))
                break
    return found
