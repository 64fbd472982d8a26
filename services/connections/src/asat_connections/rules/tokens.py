"""When an access token expires and when it is due for a refresh (pure: ``now`` is an argument)."""

from __future__ import annotations

from datetime import datetime, timedelta

# Refresh this long before the access token expires, on use (a call about to be made) ...
USE_MARGIN = timedelta(seconds=60)
# ... and in the background (the web's periodic task), so a push rarely waits for a refresh.
BACKGROUND_MARGIN = timedelta(minutes=10)
MAX_EXPIRES_IN_S = 60 * 60 * 24  # a provider's expires_in beyond a day is taken as a day


def expires_at(now: datetime, expires_in: object) -> datetime:
    """When a token issued at ``now`` with ``expires_in`` seconds expires; a missing or odd value
    counts as already expired (so the next use refreshes it)."""
    if isinstance(expires_in, bool) or not isinstance(expires_in, int | float) or expires_in <= 0:
        return now
    return now + timedelta(seconds=min(float(expires_in), MAX_EXPIRES_IN_S))


def refresh_due(expiry: datetime | None, now: datetime, margin: timedelta = USE_MARGIN) -> bool:
    """Whether a token expiring at ``expiry`` should be refreshed at ``now`` (None: unknown, yes)."""
    return expiry is None or expiry - margin <= now
