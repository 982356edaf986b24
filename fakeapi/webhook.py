"""Webhook delivery as Telegram does it: setWebhook, deleteWebhook and getWebhookInfo, and the
updates POSTed to the bot's URL one at a time, in order, each retried with back-off until the
bot answers 2xx (Telegram keeps an update it could not deliver).

Two relaxations let tests run a plain receiver: a URL on a loopback host may be http and use any
port (Telegram wants HTTPS on 80, 88, 443 or 8443, and the fake says so for any other host);
and updates go one at a time whatever ``max_connections`` says, so their order is the queue's.
A method call in the webhook's answer body (Telegram allows one) is ignored.

A fleet sits behind a load balancer: the registered URL is the balancer's, and the test names
the receivers behind it (:meth:`Webhook.balance`). The fake then plays the balancer too: each
update goes to the next receiver in turn (round-robin), and a receiver that refuses, fails or
does not answer 2xx in time is skipped for the next one at once, as a balancer's health checks
and Telegram's retries together do; only when every receiver has failed the same update does
the back-off start.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import aiohttp

from .errors import ApiError
from .schema import Uploaded
from .updates import UpdateQueue

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
METHODS = frozenset({"setWebhook", "deleteWebhook", "getWebhookInfo"})
_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}")
_PORTS = frozenset({80, 88, 443, 8443})
_LOOPBACK_NAMES = frozenset({"localhost"})


@dataclass(frozen=True)
class WebhookTiming:
    """How long one POST may take, and the back-off between failed attempts (doubling)."""

    timeout: float = 10.0
    first_retry: float = 0.05
    max_retry: float = 2.0


@dataclass(frozen=True)
class WebhookTarget:
    """What setWebhook registered."""

    url: str
    secret_token: str | None
    max_connections: int
    has_custom_certificate: bool
    ip_address: str | None


@dataclass(frozen=True)
class DeliveryAttempt:
    """One POST of one update: ``status`` is None when no HTTP answer came (``error`` says
    why, worded as getWebhookInfo's last_error_message)."""

    update_id: int
    url: str
    status: int | None
    error: str | None
    at: float

    @property
    def delivered(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def _is_loopback(host: str) -> bool:
    if host in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _checked_url(url: str) -> str:
    """Telegram's "bad webhook" checks, relaxed for loopback receivers (see the module)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ApiError.bad_request("bad webhook: Failed to resolve host: Name or service not known")
    if _is_loopback(parts.hostname):
        return url
    if parts.scheme != "https":
        raise ApiError.bad_request("bad webhook: An HTTPS URL must be provided for webhook")
    if (parts.port or 443) not in _PORTS:
        raise ApiError.bad_request(
            "bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443"
        )
    return url


class Webhook:
    """The bot's webhook: its registration, the delivery task, and every attempt made."""

    def __init__(
        self,
        updates: UpdateQueue,
        notify: Callable[[], None],
        timing: WebhookTiming,
        crashed: Callable[[str], None],
    ) -> None:
        self._updates = updates
        self._notify = notify
        self._crashed = crashed  # a bug in the delivery must fail the test, not stall it
        self.timing = timing
        self.target: WebhookTarget | None = None
        self.attempts: list[DeliveryAttempt] = []
        self.last_error_date: int | None = None
        self.last_error_message: str | None = None
        self._task: asyncio.Task[None] | None = None
        #: the receivers behind the registered URL (a load balancer); empty: the URL itself
        self.receivers: tuple[str, ...] = ()
        self._turn = 0  # the receiver the next POST goes to

    def balance(self, urls: Sequence[str]) -> None:
        """Deliver to ``urls`` in turn from now on, whatever URL setWebhook registered (the
        registered one is the load balancer's; these are the real receivers behind it)."""
        self.receivers = tuple(urls)
        self._turn = 0

    def _receiver(self, target: WebhookTarget) -> str:
        """The URL the next POST goes to (and move the round-robin on)."""
        if not self.receivers:
            return target.url
        url = self.receivers[self._turn % len(self.receivers)]
        self._turn += 1
        return url

    @property
    def deliveries(self) -> list[DeliveryAttempt]:
        """The attempts that delivered an update, in order."""
        return [a for a in self.attempts if a.delivered]

    async def answer(
        self, method: str, params: Mapping[str, Any], files: Mapping[str, Uploaded]
    ) -> Any:
        if method == "getWebhookInfo":
            return self.info()
        if method == "setWebhook" and params.get("url"):
            await self._set(params, files)
            return True
        await self._stop()
        self.target = None
        self._updates.webhook_set = False
        self._forget_errors()
        if params.get("drop_pending_updates"):
            self._updates.drop_pending()
        return True

    async def _set(self, params: Mapping[str, Any], files: Mapping[str, Uploaded]) -> None:
        secret = params.get("secret_token")
        if secret is not None and not _SECRET.fullmatch(secret):
            raise ApiError.bad_request("secret token contains unallowed characters")
        max_connections = params.get("max_connections", 40)
        if not 1 <= max_connections <= 100:
            raise ApiError.bad_request("max_connections must be between 1 and 100")
        url = _checked_url(params["url"])
        await self._stop()
        allowed = params.get("allowed_updates")
        if allowed is not None:
            self._updates.allowed = frozenset(allowed) or None
        self.target = WebhookTarget(
            url, secret, max_connections, "certificate" in files, params.get("ip_address")
        )
        self._forget_errors()
        if params.get("drop_pending_updates"):
            self._updates.drop_pending()
        self._updates.start_webhook()
        self._task = asyncio.get_running_loop().create_task(self._deliver(self.target))
        self._task.add_done_callback(self._check_crash)

    def info(self) -> dict[str, Any]:
        """A WebhookInfo; with no webhook, only the url (empty) and the pending count."""
        info: dict[str, Any] = {
            "url": self.target.url if self.target else "",
            "has_custom_certificate": bool(self.target and self.target.has_custom_certificate),
            "pending_update_count": len(self._updates.pending),
        }
        if self.target is None:
            return info
        info["max_connections"] = self.target.max_connections
        if self.target.ip_address:
            info["ip_address"] = self.target.ip_address
        if self._updates.allowed is not None:
            info["allowed_updates"] = sorted(self._updates.allowed)
        if self.last_error_date is not None and self.last_error_message is not None:
            info["last_error_date"] = self.last_error_date
            info["last_error_message"] = self.last_error_message
        return info

    async def close(self) -> None:
        await self._stop()

    def _forget_errors(self) -> None:
        self.last_error_date = None
        self.last_error_message = None

    async def _stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            # A crash was already reported as a violation (_check_crash).
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _check_crash(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            self._crashed(f"the fake's webhook delivery crashed: {task.exception()!r}")
            self._notify()

    async def _deliver(self, target: WebhookTarget) -> None:
        """Deliver the queue's updates to ``target`` in order, for as long as it is set."""
        headers = {SECRET_HEADER: target.secret_token} if target.secret_token else {}
        timeout = aiohttp.ClientTimeout(total=self.timing.timeout)
        delay = self.timing.first_retry
        failed: set[str] = set()  # the receivers that failed the update at the head
        async with aiohttp.ClientSession(timeout=timeout, headers=headers) as session:
            while (update := await self._updates.next_wanted()) is not None:
                attempt = await self._post(session, self._receiver(target), update)
                self.attempts.append(attempt)
                if attempt.delivered:
                    self._updates.confirm_delivered(attempt.update_id)
                    delay = self.timing.first_retry
                    failed.clear()
                    self._notify()
                    continue
                self.last_error_date = int(time.time())
                self.last_error_message = attempt.error
                self._notify()
                failed.add(attempt.url)
                if len(failed) < len(self.receivers):
                    continue  # the balancer tries another receiver at once
                failed.clear()
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.timing.max_retry)

    async def _post(
        self, session: aiohttp.ClientSession, url: str, update: dict[str, Any]
    ) -> DeliveryAttempt:
        """One POST; the error texts are those Telegram's getWebhookInfo shows."""
        update_id: int = update["update_id"]
        at = time.monotonic()
        try:
            async with session.post(url, json=update, allow_redirects=False) as response:
                await response.read()
                status = response.status
        except TimeoutError:
            return DeliveryAttempt(update_id, url, None, "Read timeout expired", at)
        except aiohttp.ClientConnectorError:
            return DeliveryAttempt(update_id, url, None, "Connection refused", at)
        except aiohttp.ClientError as error:
            return DeliveryAttempt(update_id, url, None, f"Connection failed: {error}", at)
        if 200 <= status < 300:
            return DeliveryAttempt(update_id, url, status, None, at)
        reason = f"{status} {response.reason}" if response.reason else str(status)
        return DeliveryAttempt(
            update_id, url, status, f"Wrong response from the webhook: {reason}", at
        )
