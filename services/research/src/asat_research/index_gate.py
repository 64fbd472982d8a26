"""Whether research may answer from the index now: never from a partial one.

``readiness`` (pure) reads the index service's report against the corpus generation research
reads: ``ready``; ``building`` (a build runs: a question is refused with 503 ``index_building``,
``Retry-After`` and the build's percentage and time left); ``failed`` (the last build failed and
the index cannot serve: 503 ``index_build_failed`` with its error); or ``unavailable`` (ingest down,
the index missing or stale: the pipeline's own 503 says which, as before). :class:`IndexGate` asks
the index service at most once per ``ttl_s`` seconds (every question and health check reads it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from asat_corpus.build_progress import retry_after_s
from asat_corpus.contracts.search import IndexReadiness
from asat_research.retrieval import IndexReport, RetrievalUnavailable

DEFAULT_TTL_S = 2.0
REBUILD_HINT = "the ingest service's log says why; restarting it (`make up`) builds the index again"


def readiness(report: IndexReport | None, problem: str, expected_generation: str) -> IndexReadiness:
    """Research's word for the index from ``report`` (``None``: ingest could not say; ``problem``
    says why) and the corpus generation research reads."""
    if report is None:
        return IndexReadiness(state="unavailable", message=problem, build=None)
    build = report.build
    if report.state == "building" or (build is not None and build.state in ("queued", "running")):
        return IndexReadiness(state="building", message=build.message if build else report.message, build=build)
    if report.state != "ready":
        if build is not None and build.state == "failed":
            return IndexReadiness(state="failed", message=f"{build.message}: {REBUILD_HINT}", build=build)
        return IndexReadiness(state="unavailable", message=report.message, build=build)
    if report.corpus_generation != expected_generation:
        stamped = (report.corpus_generation or "none")[:12]
        return IndexReadiness(
            state="unavailable",
            message=f"the index is of corpus generation {stamped} but research reads {expected_generation[:12]}: "
            "restart both on the same corpus and scope (`make down && make up`)",
            build=build,
        )
    return IndexReadiness(state="ready", message=report.message, build=build)


def refusal(ready: IndexReadiness) -> tuple[str, str, int | None] | None:
    """How a question is refused while the index cannot answer it: ``(error code, message,
    Retry-After seconds or None)``; ``None`` when it is not refused here (ready, or unavailable:
    then the pipeline's own dependency error answers, naming what is down)."""
    if ready.state == "building":
        left = ready.build.seconds_left if ready.build is not None else None
        message = (
            f"{ready.message}: questions are answered only from the whole index, never a partial one; "
            "ask again when the build is done"
        )
        return "index_building", message, retry_after_s(left)
    if ready.state == "failed":
        return "index_build_failed", f"no question can be answered: {ready.message}", None
    return None


class IndexGate:
    """The index's readiness, asked of ``source`` (the retriever's ``index_report``) at most once
    per ``ttl_s`` seconds on ``clock``."""

    def __init__(
        self,
        source: Callable[[], IndexReport],
        expected_generation: str,
        clock: Callable[[], float] = time.monotonic,
        ttl_s: float = DEFAULT_TTL_S,
    ) -> None:
        self._source = source
        self._expected = expected_generation
        self._clock = clock
        self._ttl_s = ttl_s
        self._lock = threading.Lock()
        self._read: tuple[float, IndexReadiness] | None = None

    def now(self) -> IndexReadiness:
        with self._lock:
            at = self._clock()
            if self._read is not None and at - self._read[0] < self._ttl_s:
                return self._read[1]
            try:
                found = readiness(self._source(), "", self._expected)
            except RetrievalUnavailable as exc:
                found = readiness(None, str(exc), self._expected)
            self._read = (at, found)
            return found

    def ready(self) -> bool:
        return self.now().state == "ready"
