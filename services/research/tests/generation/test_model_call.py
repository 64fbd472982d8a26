"""One model call bounded by its request (``model_call``) and the deadline it reads (``deadline``):
with a hand-moved clock for the deadline, and real coroutines for the call."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from asat_research.deadline import Deadline
from asat_research.generation.model_call import (
    ModelCallCancelled,
    ModelCallTimedOut,
    bounded_by,
    call_model,
)


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_deadline_counts_down_on_its_clock_and_never_below_zero() -> None:
    clock = _Clock()
    deadline = Deadline.after(5.0, clock)
    assert deadline.remaining() == 5.0 and not deadline.passed()
    clock.now += 4.5
    assert deadline.remaining() == pytest.approx(0.5)
    clock.now += 1.0
    assert deadline.remaining() == 0.0 and deadline.passed()


@pytest.mark.parametrize("seconds", [0.0, -1.0])
def test_a_deadline_must_be_in_the_future(seconds: float) -> None:
    with pytest.raises(ValueError, match="positive number of seconds"):
        Deadline.after(seconds)


def test_a_call_that_answers_returns_its_answer() -> None:
    async def answer() -> str:
        await asyncio.sleep(0.01)
        return "ok"

    with bounded_by(Deadline.after(5.0), threading.Event()):
        assert call_model(answer, who="model") == "ok"


def test_the_sdk_s_own_error_comes_through_unchanged() -> None:
    async def fail() -> str:
        raise TimeoutError("the SDK's own timeout")

    with pytest.raises(TimeoutError, match="the SDK's own timeout"):
        call_model(fail, who="model")


def _forever(started: threading.Event, ended: list[str]) -> object:
    async def wait() -> str:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            ended.append("cancelled")
            raise
        return "never"

    return wait


def test_a_call_past_the_deadline_is_cancelled_and_says_whose_it_was() -> None:
    started, ended = threading.Event(), []
    began = time.monotonic()
    with bounded_by(Deadline.after(0.3), None), pytest.raises(ModelCallTimedOut) as late:
        call_model(_forever(started, ended), who="the provider")  # type: ignore[arg-type]
    assert time.monotonic() - began < 2.0
    assert "the provider did not answer within the request's deadline of 0.3 s" in str(late.value)
    _eventually(lambda: ended == ["cancelled"])


def test_a_cancelled_request_cancels_its_call() -> None:
    started, ended = threading.Event(), []
    cancelled = threading.Event()
    threading.Thread(target=lambda: (started.wait(5), cancelled.set()), daemon=True).start()
    with bounded_by(Deadline.after(60.0), cancelled), pytest.raises(ModelCallCancelled):
        call_model(_forever(started, ended), who="the provider")  # type: ignore[arg-type]
    _eventually(lambda: ended == ["cancelled"])


def test_a_call_after_the_deadline_is_not_started() -> None:
    clock = _Clock()
    deadline = Deadline.after(1.0, clock)
    clock.now += 2.0
    started, ended = threading.Event(), []
    with bounded_by(deadline, None), pytest.raises(ModelCallTimedOut):
        call_model(_forever(started, ended), who="the provider")  # type: ignore[arg-type]
    assert not started.is_set()


def test_outside_a_bounded_block_a_call_has_no_deadline() -> None:
    with bounded_by(Deadline.after(0.01), None):
        pass
    time.sleep(0.05)

    async def answer() -> str:
        return "ok"

    assert call_model(answer, who="model") == "ok"


def _eventually(condition: object, within_s: float = 2.0) -> None:
    ends = time.monotonic() + within_s
    while time.monotonic() < ends:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.01)
    raise AssertionError("the condition did not hold in time")
