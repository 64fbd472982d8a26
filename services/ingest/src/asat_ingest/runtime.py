"""The ingest service's state: the one process that owns the index, its builds and its searches."""

from __future__ import annotations

import threading
import time
import traceback
import uuid
from dataclasses import dataclass, field
from typing import Any

from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_ingest.build import BuildSummary, IndexStatus, build_index, generation_of, index_status
from asat_ingest.composition import IngestConfig, build_cache, build_embedder
from asat_ingest.composition import build_index as open_index
from asat_ingest.search import IndexSearcher, SearchHit, check_search_input


class IndexNotReadyError(RuntimeError):
    """The index cannot serve: missing, incomplete, stale or being rebuilt. Says what to run."""


@dataclass
class BuildJob:
    id: str
    state: str = "queued"  # queued | running | succeeded | failed
    phase: str = ""
    done: int = 0
    total: int = 0
    started: float = field(default_factory=time.time)
    finished: float | None = None
    summary: BuildSummary | None = None
    error: str | None = None

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


class IngestRuntime:
    def __init__(self, config: IngestConfig, corpus: CorpusBuild | None = None) -> None:
        self.config = config
        self.corpus = corpus if corpus is not None else load_corpus()
        self.embedder = build_embedder(config)
        self.cache = build_cache(config)
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
        self.searcher = IndexSearcher(self.index, self.embedder, self.cache, self.known_acts)

    def status(self) -> IndexStatus:
        """Read without the lock (the stamp is a small atomically replaced record)."""
        return index_status(self.index.read_stamp(), self.expected_generation, self.embedder.identity)

    @property
    def building(self) -> bool:
        return self._running is not None

    def search(self, **kwargs: Any) -> list[SearchHit]:
        # Bad input is refused as such before anything about the index is said.
        check_search_input(kwargs["query"], kwargs["income_year"], kwargs["limit"], kwargs.get("acts"), self.known_acts)
        if self._running is not None:
            raise IndexNotReadyError(f"the index is being rebuilt (build {self._running.id}); retry when it finishes")
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
        threading.Thread(target=self._run_build, args=(job,), daemon=True, name=f"build-{job.id}").start()
        return job

    def _run_build(self, job: BuildJob) -> None:
        job.state = "running"

        def progress(phase: str, done: int, total: int) -> None:
            job.phase, job.done, job.total = phase, done, total

        try:
            with self._lock:
                job.summary = build_index(
                    self.corpus,
                    self.config.scope,
                    self.config.vector_config,
                    self.embedder,
                    self.cache,
                    self.index,
                    self.config.collection,
                    progress,
                )
            job.state = "succeeded"
        except Exception as exc:  # reported on the job, never swallowed
            job.state = "failed"
            job.error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=3)}"
        finally:
            job.finished = time.time()
            self._running = None

    def close(self) -> None:
        self.index.close()
        self.cache.close()
