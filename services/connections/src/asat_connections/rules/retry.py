"""What to do after a transient failure: wait and try again, or stop and say when to retry (pure).

Transient: HTTP 429 (rate limited), a 5xx, no reply within the timeout, a connection that failed.
A 429 is waited out for its ``Retry-After`` (seconds or an HTTP date), up to ``max_wait_s`` for
one wait: a longer one (Xero's daily limit answers hours) stops with ``retry_at``. A request that
was not sent (the connection failed) or is idempotent (a GET, an upload that replaces) is retried
after a backoff. A create that may have been carried out (a 5xx or no reply, after the request
went out) is never repeated blindly: it stops as ``ambiguous``, and the caller checks the provider
first (``asat_connections.xero_push``). Attempts are bounded (``max_attempts``): nothing is retried
forever.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 4  # attempts in all for one request, the first included
    max_wait_s: float = 60.0  # the longest single wait honoured
    backoff_s: tuple[float, ...] = (1.0, 2.0, 4.0)  # waits after the 1st, 2nd, 3rd ... failure

    def backoff(self, attempt: int) -> float:
        return self.backoff_s[min(max(attempt, 1), len(self.backoff_s)) - 1] if self.backoff_s else 0.0


@dataclass(frozen=True)
class Outcome:
    """What one attempt gave: an HTTP status, or none (``sent``: whether the request went out)."""

    status: int | None
    retry_after: str | None = None
    sent: bool = True


@dataclass(frozen=True)
class Wait:
    seconds: float
    reason: str


@dataclass(frozen=True)
class Stop:
    reason: str
    retry_at: datetime | None = None
    ambiguous: bool = False  # the request may have been carried out


Decision = Wait | Stop | None  # None: the response is final (not a transient failure)


def retry_after_seconds(value: str | None, now: datetime) -> float | None:
    """``Retry-After`` as seconds from ``now``: a whole number of seconds, or an HTTP date; None
    when absent or unreadable."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return float(int(text))
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, (when - now).total_seconds())


def is_transient(status: int | None) -> bool:
    return status is None or status == 429 or 500 <= status <= 599


def describe(outcome: Outcome) -> str:
    if outcome.status is None:
        return "no reply within the timeout" if outcome.sent else "could not connect"
    if outcome.status == 429:
        return "HTTP 429 (rate limited)"
    return f"HTTP {outcome.status}"


def decide(policy: RetryPolicy, attempt: int, outcome: Outcome, now: datetime, idempotent: bool) -> Decision:
    """After attempt number ``attempt`` (from 1) gave ``outcome``: wait and retry, stop, or None
    (not a transient failure: the caller reads the response)."""
    if not is_transient(outcome.status):
        return None
    what = describe(outcome)
    if outcome.status == 429:
        wait = retry_after_seconds(outcome.retry_after, now)
        wait = policy.backoff(attempt) if wait is None else wait
        retry_at = now + timedelta(seconds=wait)
        if wait > policy.max_wait_s:
            return Stop(
                f"{what}: the provider asks to wait {wait:.0f} s, more than {policy.max_wait_s:.0f} s", retry_at
            )
        if attempt >= policy.max_attempts:
            return Stop(f"{what} after {attempt} attempts", retry_at)
        return Wait(wait, what)
    if outcome.sent and not idempotent:
        return Stop(f"{what}: the request may have been carried out", ambiguous=True)
    if attempt >= policy.max_attempts:
        return Stop(f"{what} after {attempt} attempts")
    server_wait = retry_after_seconds(outcome.retry_after, now) if outcome.status == 503 else None
    wait = policy.backoff(attempt) if server_wait is None else min(server_wait, policy.max_wait_s)
    return Wait(wait, what)
