"""Web sessions: the cookie's token, what the store keeps of it, and when a session ends (pure).

The cookie carries a random 256-bit token (``new_token``). The store keeps only its SHA-256
(``token_digest``), so a copy of the database, or a log of its queries, holds no cookie that
works. A session ends at ``expires_at`` (``SessionPolicy.lifetime`` after sign-in) or after
``SessionPolicy.idle`` without a request, whichever comes first; the last request's time is
written at most once per ``SessionPolicy.touch_every`` (``needs_touch``), not on every request.
Each session has its own CSRF token (``new_token`` again), which forms and scripts send back
and ``csrf_matches`` compares in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from asat_accounts.model import WebSession

TOKEN_BYTES = 32
MAX_TOKEN_CHARS = 128


@dataclass(frozen=True)
class SessionPolicy:
    lifetime: timedelta = timedelta(hours=12)  # from sign-in, however active
    idle: timedelta = timedelta(hours=2)  # without a request
    touch_every: timedelta = timedelta(minutes=1)  # how often the last request's time is written

    def expires_at(self, signed_in_at: datetime) -> datetime:
        return signed_in_at + self.lifetime


def new_token() -> str:
    """A random token (43 URL-safe characters, 256 bits) for a session cookie or a CSRF token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    """The SHA-256 of ``token`` as 64 lowercase hex characters: what the store keeps and looks up."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def plausible_token(token: str | None) -> bool:
    """Whether ``token`` has the shape of one of ours (worth a look-up at all)."""
    return (
        token is not None
        and 0 < len(token) <= MAX_TOKEN_CHARS
        and all(c.isascii() and (c.isalnum() or c in "-_") for c in token)
    )


def session_alive(session: WebSession, now: datetime, policy: SessionPolicy) -> bool:
    """Whether ``session`` may still be used at ``now``: before its end and not idle too long."""
    return now < session.expires_at and now - session.last_seen_at < policy.idle


def needs_touch(session: WebSession, now: datetime, policy: SessionPolicy) -> bool:
    """Whether to write ``now`` as the session's last request (at most once per ``touch_every``)."""
    return now - session.last_seen_at >= policy.touch_every


def csrf_matches(expected: str, presented: str | None) -> bool:
    """Whether ``presented`` is the session's CSRF token, compared in constant time."""
    if presented is None or not presented or len(presented) > MAX_TOKEN_CHARS:
        return False
    return hmac.compare_digest(expected.encode("utf-8"), presented.encode("utf-8", "replace"))
