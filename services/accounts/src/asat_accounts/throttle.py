"""Sign-in rate limiting by client address (pure): too many wrong passwords lock the address out.

``ThrottleRule`` (default: 20 failures within one minute lock the address for 15 minutes). The
failures of the last window are kept as times (a sliding window, so 20 failures straddling a
minute boundary count as 20, not as two halves). While an address is locked, every sign-in from
it is refused before any password is checked, right or wrong, and nothing more is counted; when
the lock ends, the count starts again from nothing. A successful sign-in does not clear the
count (an attacker who knows one account's password cannot use it to reset the counter).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from asat_accounts.model import SignInAttempts


@dataclass(frozen=True)
class ThrottleRule:
    max_failures: int = 20
    window: timedelta = timedelta(minutes=1)
    lockout: timedelta = timedelta(minutes=15)

    def __post_init__(self) -> None:
        if self.max_failures < 1 or self.window <= timedelta(0) or self.lockout <= timedelta(0):
            raise ValueError("a throttle rule needs at least one failure, a positive window and a positive lockout")


DEFAULT_RULE = ThrottleRule()


def locked_until(attempts: SignInAttempts, now: datetime) -> datetime | None:
    """When the address's lockout ends, if it is locked at ``now``; else None."""
    if attempts.locked_until is not None and now < attempts.locked_until:
        return attempts.locked_until
    return None


def after_failure(attempts: SignInAttempts, now: datetime, rule: ThrottleRule = DEFAULT_RULE) -> SignInAttempts:
    """The address's attempts after one more wrong password at ``now``.

    Failures older than the window are dropped; the ``max_failures``-th within the window locks
    the address for ``lockout`` (and the count starts again). Failing while locked changes nothing.
    """
    if locked_until(attempts, now) is not None:
        return attempts
    recent = tuple(t for t in attempts.failures if now - rule.window < t <= now)
    failures = (*recent, now)
    if len(failures) >= rule.max_failures:
        return SignInAttempts(failures=(), locked_until=now + rule.lockout)
    return SignInAttempts(failures=failures, locked_until=None)


def lockout_message(until: datetime, now: datetime) -> str:
    """What the sign-in page says to a locked-out address (never whether the email exists)."""
    minutes = max(1, -(-int((until - now).total_seconds()) // 60))
    return (
        f"Too many wrong passwords from this address: sign-in is locked for {minutes} more "
        f"minute{'s' if minutes != 1 else ''}. Wait, then try again."
    )
