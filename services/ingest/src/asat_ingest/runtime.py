"""The ingest service's state: the one process that owns the index, its builds and its searches."""

from __future__ import annotations

import threading
import time
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from asat_corpus.build_progress import (
    RATE_WINDOW_S,
    build_percent,
    duration_words,
    failure_words,
    phase_rate,
    progress_message,
    seconds_left,
)
from asat_corpus.contracts.search import BuildState, IndexBuild
from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_ingest.build import BuildSummary, IndexStatus, build_index, generation_of, index_status
from asat_ingest.composition import IngestConfig, build_cache, build_embedder, build_term_cache
from asat_ingest.composition import build_index as open_index
from asat_ingest.search import IndexSearcher, SearchHit, check_search_input


class IndexNotReadyError(RuntimeError):
    """The index cannot serve: missing, incomplete, stale or being rebuilt (``building``). Says
    what to run, or how far the build has got."""

    def __init__(self, message: str, building: bool = False) -> None:
        super().__init__(message)
        self.building = building


@dataclass
class BuildJob:
    id: str
    state: BuildState = "queued"
    phase: str = ""
    done: int = 0
    total: int = 0
    started: float = field(default_factory=time.time)
    finished: float | None = None
    summary: BuildSummary | None = None
    error: str | None = None
    # This phase's reports (time.monotonic(), done), the last RATE_WINDOW_S seconds of them.
    samples: list[tuple[float, int]] = field(default_factory=list)

    def record(self, phase: str, done: int, total: int, now: float) -> None:
        """One progress report of the build: a new phase starts its samples afresh."""
        if phase != self.phase:
            self.samples = []
        self.phase, self.done, self.total = phase, done, total
        self.samples.append((now, done))
        while len(self.samples) > 2 and self.samples[1][0] < now - RATE_WINDOW_S:
            self.samples.pop(0)

    def report(self) -> IndexBuild:
        """The build as the wire states it: percentage, rate and time left, or why it failed."""
        active = self.state in ("queued", "running")
        rate = phase_rate(self.samples) if active else None
        left = seconds_left(self.done, self.total, rate)
        percent = build_percent(self.state, self.phase, self.done, self.total)
        if active:
            message = progress_message(percent, self.phase, self.done, self.total, rate, left)
        elif self.state == "failed":
            message = failure_words(self.error)
        else:
            took = (self.finished or self.started) - self.started
            points = self.summary.points if self.summary else 0
            message = f"the index build finished: {points:,} points in {duration_words(took).removeprefix('about ')}"
        return IndexBuild(
            id=self.id,
            state=self.state,
            phase=self.phase,
            done=self.done,
            total=self.total,
            percent=round(percent, 1),
            rate=round(rate, 2) if rate is not None else None,
            seconds_left=round(left, 1) if left is not None else None,
            started=self.started,
            finished=self.finished,
            error=self.error,
            message=message,
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "state": self.state,
            "phase": self.phase,
            "done": self.done,
            "total": self.total,
            "started": self.started,
            "finished": self.finished,
            "summary": self.summary.__dict__ if self.summary else None,
            "error": self.error,
        }


LOG_EVERY_S = 30.0  # a running build says how far it got in the log this often, and at each phase


class IngestRuntime:
    def __init__(
        self, config: IngestConfig, corpus: CorpusBuild | None = None, log: Callable[[str], None] | None = None
    ) -> None:
        """``log`` gets a line at each phase of a build, every ``LOG_EVERY_S`` seconds of it, and
        its end (its error and traceback when it fails); ``python -m asat_ingest serve`` prints them."""
        self.config = config
        self._log = log or (lambda line: None)
        self.corpus = corpus if corpus is not None else load_corpus()
        self.embedder = build_embedder(config)
        self.cache = build_cache(config)
        self.term_cache = build_term_cache(config)
        self.index = open_index(config)
        self.known_acts = frozenset(self.corpus.sources.acts)
        if config.scope.acts is not None:
            unknown = sorted(set(config.scope.acts) - self.known_acts)
            if unknown:
                raise ValueError(f"ASAT_INDEX_ACTS names unknown act(s) {', '.join(unknown)}")
        items = list(self.corpus.index_items(config.scope))
        self.expected_generation = generation_of(items, config.vector_config)
        self._lock = threading.RLock()
        self.jobs: dict[str, BuildJob] = {}
        self._running: BuildJob | None = None
        self._last: BuildJob | None = None
        # Its own instance (the same model and identity), set up for concurrent queries.
        self.searcher = IndexSearcher(self.index, build_embedder(config, for_queries=True), self.cache, self.known_acts)

    def status(self) -> IndexStatus:
        """Read without the lock (the stamp is a small atomically replaced record)."""
        return index_status(self.index.read_stamp(), self.expected_generation, self.embedder.identity)

    @property
    def building(self) -> bool:
        return self._running is not None

    def build_report(self) -> IndexBuild | None:
        """The build running now, else the last one this process ran; ``None`` when it ran none."""
        job = self._running or self._last
        return job.report() if job is not None else None

    def search(self, **kwargs: Any) -> list[SearchHit]:
        # Bad input is refused as such before anything about the index is said.
        check_search_input(kwargs["query"], kwargs["income_year"], kwargs["limit"], kwargs.get("acts"), self.known_acts)
        running = self._running
        if running is not None:
            raise IndexNotReadyError(
                f"{running.report().message}: nothing is searched until the whole index is built (build {running.id})",
                building=True,
            )
        with self._lock:
            status = self.status()
            if not status.ready:
                raise IndexNotReadyError(status.message)
            return self.searcher.search(**kwargs)

    def start_build(self) -> BuildJob:
        with self._lock:
            if self._running is not None:
                raise RuntimeError(f"build {self._running.id} is already running")
            job = BuildJob(id=uuid.uuid4().hex[:12])
            self.jobs[job.id] = job
            self._running = job
            self._last = job
        threading.Thread(target=self._run_build, args=(job,), daemon=True, name=f"build-{job.id}").start()
        return job

    def _run_build(self, job: BuildJob) -> None:
        job.state = "running"
        self._log(f"build {job.id}: started ({self.config.scope.as_dict()}, embedder {self.embedder.identity})")
        logged = time.monotonic()

        def progress(phase: str, done: int, total: int) -> None:
            nonlocal logged
            now = time.monotonic()
            new_phase = phase != job.phase
            job.record(phase, done, total, now)
            if new_phase or now - logged >= LOG_EVERY_S or done >= total:
                logged = now
                self._log(f"build {job.id}: {job.report().message}")

        try:
            with self._lock:
                job.summary = build_index(
                    self.corpus,
                    self.config.scope,
                    self.config.vector_config,
                    self.embedder,
                    self.cache,
                    self.term_cache,
                    self.index,
                    self.config.collection,
                    progress,
                )
            job.state = "succeeded"
        except Exception as exc:  # reported on the job, in /healthz and /v1/index, and in the log
            job.state = "failed"
            job.error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}"
        finally:
            job.finished = time.time()
            self._running = None
        if job.state == "failed":
            self._log(f"build {job.id}: FAILED: {job.error}")
        else:
            self._log(f"build {job.id}: {job.report().message}")

    def close(self) -> None:
        self.index.close()
        self.cache.close()
        self.term_cache.close()
