"""One timer for every stage: latencies in order, one event each, nothing for a stage that fails."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from asat_research.stage_timer import StageEvent, StageTimer


def _clock(*readings: float) -> Iterator[float]:
    return iter(readings)


def _timer(*readings: float) -> StageTimer:
    ticks = _clock(*readings)
    return StageTimer(clock=lambda: next(ticks))


@dataclass(frozen=True)
class _Found:
    hits: int

    def event_data(self) -> dict[str, Any]:
        return {"hits": self.hits}


def test_a_stage_records_its_latency_and_makes_its_event() -> None:
    timer = _timer(1.0, 1.25)
    with timer.stage("retrieve") as stage:
        stage.data = {"hits": 3}
    assert stage.event == StageEvent("retrieve", 250.0, {"hits": 3})
    assert timer.latencies_ms == {"retrieve": 250.0}


def test_timed_yields_the_event_and_returns_the_stage_value() -> None:
    timer = _timer(0.0, 0.001, 0.002, 0.0055)

    def run() -> Iterator[StageEvent]:
        found = yield from timer.timed("retrieve", lambda: _Found(2))
        assert found == _Found(2)
        again = yield from timer.timed("rerank", lambda: _Found(found.hits + 1))
        yield StageEvent("done", timer.total_ms(), {"last": again.hits})

    events = list(run())
    assert [(e.stage, e.data) for e in events] == [
        ("retrieve", {"hits": 2}),
        ("rerank", {"hits": 3}),
        ("done", {"last": 3}),
    ]
    assert timer.rounded_ms(3) == {"retrieve": 1.0, "rerank": 3.5}
    assert events[-1].ms == pytest.approx(4.5)


def test_a_stage_that_raises_records_nothing_and_a_stage_runs_once() -> None:
    timer = _timer(0.0, 1.0, 2.0)
    with pytest.raises(RuntimeError), timer.stage("verify"):
        raise RuntimeError("down")
    assert timer.latencies_ms == {}
    with timer.stage("gate"):
        pass
    with pytest.raises(ValueError, match="already timed"), timer.stage("gate"):
        pass
