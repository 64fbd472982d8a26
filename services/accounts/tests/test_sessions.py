"""Session tokens, their digest, when a session ends, and the CSRF comparison (pure)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from asat_accounts.model import Membership, Role, User, WebSession
from asat_accounts.sessions import (
    SessionPolicy,
    csrf_matches,
    needs_touch,
    new_token,
    plausible_token,
    session_alive,
    token_digest,
)

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
POLICY = SessionPolicy()


def _session(last_seen: datetime, expires: datetime) -> WebSession:
    user = User(1, "jo@example.com.au", T0, None)
    return WebSession(1, user, Membership(1, "P", Role.AGENT), "c" * 43, T0, last_seen, expires)


def test_tokens_are_random_url_safe_and_stored_as_a_digest() -> None:
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100
    assert all(len(t) == 43 and plausible_token(t) for t in tokens)
    token = next(iter(tokens))
    assert len(token_digest(token)) == 64 and token not in token_digest(token)
    assert token_digest(token) == token_digest(token)


def test_implausible_tokens_are_not_looked_up() -> None:
    for bad in (None, "", "a" * 129, "has space", "semi;colon", "ünicode"):
        assert not plausible_token(bad)


def test_a_session_ends_at_its_lifetime_or_after_idling() -> None:
    expires = POLICY.expires_at(T0)
    assert expires == T0 + timedelta(hours=12)
    assert session_alive(_session(T0, expires), T0 + timedelta(hours=1), POLICY)
    assert not session_alive(_session(T0, expires), T0 + timedelta(hours=2), POLICY)  # idle
    late = T0 + timedelta(hours=11, minutes=59)
    assert session_alive(_session(late, expires), late + timedelta(seconds=30), POLICY)
    assert not session_alive(_session(late, expires), expires, POLICY)  # however active


def test_the_last_request_is_written_at_most_once_a_minute() -> None:
    session = _session(T0, T0 + timedelta(hours=12))
    assert not needs_touch(session, T0 + timedelta(seconds=59), POLICY)
    assert needs_touch(session, T0 + timedelta(seconds=60), POLICY)


def test_csrf_tokens_are_compared_exactly() -> None:
    expected = new_token()
    assert csrf_matches(expected, expected)
    for presented in (None, "", expected[:-1], expected + "x", expected.upper(), new_token(), "é" * 43):
        assert not csrf_matches(expected, presented)
