"""One model call, bounded by its request: the deadline and the client going away both end it.

Every adapter sends its request through :func:`call_model`. The call runs as a task on one
background event loop (the SDKs' async clients), and the calling thread waits for it in short
slices. When the request's deadline passes, or the request is cancelled (the client closed the
connection), the task is cancelled: the HTTP exchange with the provider is torn down there and
then, so no provider keeps generating, and no thread is left waiting, for an answer no one will
read. The limits come from :func:`bounded_by`, which the pipeline wraps around its generate stage;
outside it (the probe, a benchmark) a call is bounded by the SDK's own timeout only.

Each adapter also builds its SDK client with ``max_retries=MAX_RETRIES``: at most one retry per
model call, and that retry too ends at the deadline.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from asat_research.deadline import Deadline
from asat_research.generation.port import GenerationError

T = TypeVar("T")

MAX_RETRIES = 1  # at most one retry per model call
POLL_S = 0.05  # how often a waiting call looks at its deadline and its cancellation


class ModelCallTimedOut(GenerationError):
    """The model did not answer before the request's deadline; the call was cancelled."""

    def __init__(self, who: str, budget_s: float) -> None:
        super().__init__(
            f"{who} did not answer within the request's deadline of {budget_s:g} s "
            "(ASAT_RESEARCH_DEADLINE_S); the call was cancelled"
        )
        self.who = who
        self.budget_s = budget_s


class ModelCallCancelled(GenerationError):
    """The request was cancelled (its client went away); the model call was cancelled with it."""


@dataclass(frozen=True)
class CallLimits:
    deadline: Deadline | None = None
    cancelled: threading.Event | None = None


_LIMITS: ContextVar[CallLimits | None] = ContextVar("asat_model_call_limits", default=None)
_UNBOUNDED = CallLimits()


@contextmanager
def bounded_by(deadline: Deadline | None, cancelled: threading.Event | None) -> Iterator[None]:
    """Model calls made in this block (on this thread) end at ``deadline`` or when ``cancelled`` is set."""
    token = _LIMITS.set(CallLimits(deadline, cancelled))
    try:
        yield
    finally:
        _LIMITS.reset(token)


class _Loop:
    """The background event loop every model call runs on (started on first use, a daemon thread)."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._guard = threading.Lock()

    def get(self) -> asyncio.AbstractEventLoop:
        with self._guard:
            if self._loop is None or self._loop.is_closed():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="asat-model-calls", daemon=True).start()
                self._loop = loop
            return self._loop


_BACKGROUND = _Loop()


def call_model(start: Callable[[], Coroutine[Any, Any, T]], *, who: str) -> T:
    """Runs ``start()`` (an SDK's async request) to its end, its deadline or its cancellation.

    The SDK's own exceptions come through unchanged (the adapter turns them into
    :class:`GenerationError`); a deadline gives :class:`ModelCallTimedOut` and a cancellation
    :class:`ModelCallCancelled`, each after the request to the provider was cancelled."""
    limits = _LIMITS.get() or _UNBOUNDED
    _check(limits, who)
    future = asyncio.run_coroutine_threadsafe(start(), _BACKGROUND.get())
    while True:
        # Waited on, not ``future.result(timeout)``: a TimeoutError the SDK raises is its own.
        done, _ = concurrent.futures.wait((future,), timeout=POLL_S)
        if done:
            return future.result()
        try:
            _check(limits, who)
        except GenerationError:
            future.cancel()
            raise


def _check(limits: CallLimits, who: str) -> None:
    if limits.cancelled is not None and limits.cancelled.is_set():
        raise ModelCallCancelled(f"the request was cancelled; the call to {who} was cancelled with it")
    if limits.deadline is not None and limits.deadline.passed():
        raise ModelCallTimedOut(who, limits.deadline.budget_s)
