"""A request whose client goes away cancels its work: the API's side of request cancellation.

The pipeline runs on a worker thread (it is synchronous); the event loop watches the connection.
When the client disconnects, the ``threading.Event`` handed to the work is set, and the model call
in flight sees it within ``asat_research.generation.model_call.POLL_S`` and is cancelled (its HTTP
exchange with the provider torn down). The worker thread is abandoned by the loop at once: it ends
on its own moments later, with :class:`~asat_research.pipeline.RequestCancelled`.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request

T = TypeVar("T")

WATCH_S = 0.1  # how often the connection is looked at while the work runs


async def until_client_gone(
    http: Request, work: Callable[[threading.Event], T], limiter: anyio.CapacityLimiter | None = None
) -> T:
    """``work(cancelled)`` on a worker thread; ``cancelled`` is set if the client disconnects
    first. Returns what the work returns (or raises what it raises)."""
    cancelled = threading.Event()
    return await _watching(http, cancelled, lambda: work(cancelled), limiter)


async def _watching(
    http: Request, cancelled: threading.Event, work: Callable[[], T], limiter: anyio.CapacityLimiter | None
) -> T:
    async def watch() -> None:
        while not cancelled.is_set():
            if await http.is_disconnected():
                cancelled.set()
                return
            await anyio.sleep(WATCH_S)

    # The work's own exception is raised from outside the task group (not wrapped in a group).
    ended: list[tuple[T | None, Exception | None]] = []
    async with anyio.create_task_group() as group:
        group.start_soon(watch)
        try:
            ended.append((await anyio.to_thread.run_sync(work, abandon_on_cancel=True, limiter=limiter), None))
        except Exception as exc:
            ended.append((None, exc))
        finally:
            group.cancel_scope.cancel()
    value, error = ended[0]
    if error is not None:
        raise error
    return value  # type: ignore[return-value]  # the work's T (None only where the work returned it)


_END = object()


async def stream_until_client_gone(
    http: Request, produce: Callable[[threading.Event], Iterator[str]], limiter: anyio.CapacityLimiter | None = None
) -> AsyncIterator[str]:
    """The items of ``produce(cancelled)``, each taken on a worker thread while the connection is
    watched. ``cancelled`` is set when the client disconnects, or when the server stops the stream
    (it noticed first); the thread producing the next item is then abandoned."""
    cancelled = threading.Event()
    items = produce(cancelled)

    def take() -> object:
        return next(items, _END)

    try:
        while not cancelled.is_set():
            item = await _watching(http, cancelled, take, limiter)
            if item is _END:
                return
            assert isinstance(item, str)
            yield item
    finally:
        cancelled.set()
