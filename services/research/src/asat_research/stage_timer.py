"""Timing the research pipeline's stages: one latency and one event per finished stage.

Every stage of :class:`~asat_research.pipeline.ResearchPipeline` runs inside
:meth:`StageTimer.stage`, which measures it, records its latency under the stage's name (what
the audit row's ``latencies`` and the outcome's ``latencies_ms`` report) and makes the
:class:`StageEvent` the pipeline yields for it. :meth:`StageTimer.timed` wraps the
context manager for a stage that returns a value reporting its own event data, so the pipeline's
``run`` reads as one line per stage. A stage that raises records nothing: the run ends there.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from asat_research.pipeline import ResearchOutcome


@dataclass(frozen=True)
class StageEvent:
    stage: str
    ms: float
    data: dict[str, Any] = field(default_factory=dict)
    outcome: ResearchOutcome | None = None


class Reported(Protocol):
    """A stage's result, which says what the stage's event reports."""

    def event_data(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=Reported)


@dataclass
class TimedStage:
    """One stage being timed; ``ms`` is set when it finishes and ``data`` goes into its event."""

    name: str
    data: dict[str, Any] = field(default_factory=dict)
    ms: float = 0.0

    @property
    def event(self) -> StageEvent:
        return StageEvent(self.name, self.ms, self.data)


class StageTimer:
    """The latencies of one run, in the order its stages finished."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self._clock = clock
        self.latencies_ms: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[TimedStage]:
        """Time the block as stage ``name``; on leaving it the stage's latency is recorded and
        ``stage.event`` is the event to yield."""
        if name in self.latencies_ms:
            raise ValueError(f"stage {name!r} was already timed in this run")
        timed = TimedStage(name)
        started = self._clock()
        yield timed
        timed.ms = (self._clock() - started) * 1000
        self.latencies_ms[name] = timed.ms

    def timed(self, name: str, work: Callable[[], R]) -> Generator[StageEvent, None, R]:
        """Run ``work`` as stage ``name``, yield its event and return its result
        (``result = yield from timer.timed(...)``)."""
        with self.stage(name) as stage:
            result = work()
        stage.data = result.event_data()
        yield stage.event
        return result

    def rounded_ms(self, digits: int) -> dict[str, float]:
        """The stages finished so far, in order, each latency rounded to ``digits`` decimals."""
        return {name: round(ms, digits) for name, ms in self.latencies_ms.items()}

    def total_ms(self) -> float:
        return sum(self.latencies_ms.values())
