"""The clock and the sleep the connectors use: injected, so tests never wait for a ``Retry-After``."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]
Sleep = Callable[[float], None]


def system_clock() -> datetime:
    """Now, in UTC."""
    return datetime.now(UTC)


def system_sleep(seconds: float) -> None:
    """Wait ``seconds`` (the real sleep; tests pass a recorder instead)."""
    time.sleep(seconds)
