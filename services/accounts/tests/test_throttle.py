"""The sign-in rate limit (pure): 20 wrong passwords within a minute lock an address for a while."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_accounts.model import SignInAttempts
from asat_accounts.throttle import DEFAULT_RULE, ThrottleRule, after_failure, locked_until, lockout_message

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SECOND = timedelta(seconds=1)


def _fail(times: list[datetime], rule: ThrottleRule = DEFAULT_RULE) -> SignInAttempts:
    attempts = SignInAttempts()
    for moment in times:
        attempts = after_failure(attempts, moment, rule)
    return attempts


def test_the_default_rule_is_twenty_a_minute_for_fifteen_minutes() -> None:
    assert (DEFAULT_RULE.max_failures, DEFAULT_RULE.window, DEFAULT_RULE.lockout) == (
        20,
        timedelta(minutes=1),
        timedelta(minutes=15),
    )


def test_twenty_failures_within_a_minute_lock_the_address() -> None:
    nineteen = _fail([T0 + n * 3 * SECOND for n in range(19)])
    assert nineteen.locked_until is None and len(nineteen.failures) == 19
    assert locked_until(nineteen, T0 + 57 * SECOND) is None
    twentieth = after_failure(nineteen, T0 + 57 * SECOND)
    assert twentieth.locked_until == T0 + 57 * SECOND + timedelta(minutes=15)
    assert locked_until(twentieth, T0 + timedelta(minutes=10)) == twentieth.locked_until
    assert locked_until(twentieth, twentieth.locked_until) is None  # the lock ends on time


def test_failures_spread_over_more_than_a_minute_do_not_lock() -> None:
    spread = _fail([T0 + n * 4 * SECOND for n in range(40)])  # one every 4 s: 15 in any minute
    assert spread.locked_until is None
    assert len(spread.failures) == 15


def test_failing_while_locked_counts_nothing_and_the_count_restarts_after() -> None:
    locked = _fail([T0 + n * SECOND for n in range(20)])
    assert locked.locked_until is not None
    assert after_failure(locked, T0 + timedelta(minutes=5)) == locked
    after = after_failure(locked, locked.locked_until + SECOND)
    assert after == SignInAttempts(failures=(locked.locked_until + SECOND,), locked_until=None)


@given(st.lists(st.integers(min_value=0, max_value=600), max_size=80))
@settings(max_examples=200)
def test_locked_exactly_when_some_minute_held_twenty_failures(offsets: list[int]) -> None:
    """Sliding window: the address is locked at the first failure that makes 20 within 60 s
    (counting since the last lock ended), never before."""
    times = [T0 + s * SECOND for s in sorted(offsets)]
    attempts = SignInAttempts()
    counted: list[datetime] = []
    for moment in times:
        before_locked = locked_until(attempts, moment) is not None
        attempts = after_failure(attempts, moment)
        if before_locked:
            continue
        counted = [t for t in counted if moment - t < timedelta(minutes=1)] + [moment]
        if len(counted) >= 20:
            assert attempts.locked_until == moment + timedelta(minutes=15)
            counted = []
        else:
            assert attempts.locked_until is None or attempts.locked_until <= moment
            assert len(attempts.failures) == len(counted)


def test_a_rule_needs_positive_numbers() -> None:
    with pytest.raises(ValueError, match="at least one failure"):
        ThrottleRule(max_failures=0)


def test_the_message_says_how_long_and_not_whose_account() -> None:
    assert lockout_message(T0 + timedelta(minutes=14, seconds=1), T0) == (
        "Too many wrong passwords from this address: sign-in is locked for 15 more minutes. Wait, then try again."
    )
    assert "1 more minute." in lockout_message(T0 + 10 * SECOND, T0)
