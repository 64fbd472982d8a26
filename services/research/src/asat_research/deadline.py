"""A request's deadline: the time by which its model calls must have ended.

Pure: the clock is injected (``time.monotonic`` by default), so a test can move time by hand.
Research gives every question one deadline (``ASAT_RESEARCH_DEADLINE_S``), shorter than the web's
timeout for research, so that a slow provider ends in an audited abstention the user is shown,
never in a web timeout with nothing recorded.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

Clock = Callable[[], float]

# Research's default (ASAT_RESEARCH_DEADLINE_S). With the stages after generation bounded by their
# own timeouts (the verifier's, the audit database's), a question ends well inside the web's
# timeout for research (asat_web.research_client.RESEARCH_TIMEOUT_S): tests/test_deadlines.py.
DEFAULT_DEADLINE_S = 60.0


@dataclass(frozen=True)
class Deadline:
    budget_s: float  # the whole allowance, as configured (for messages)
    ends_at: float  # on ``clock``'s scale
    clock: Clock = field(default=time.monotonic, compare=False, repr=False)

    @classmethod
    def after(cls, seconds: float, clock: Clock = time.monotonic) -> Deadline:
        """The deadline ``seconds`` from now on ``clock``."""
        if seconds <= 0:
            raise ValueError(f"a deadline must be a positive number of seconds, not {seconds!r}")
        return cls(seconds, clock() + seconds, clock)

    def remaining(self) -> float:
        """Seconds left, never below 0."""
        return max(0.0, self.ends_at - self.clock())

    def passed(self) -> bool:
        return self.clock() >= self.ends_at
