"""The system under test and the corpus it is checked against, built from the environment (I/O).

:func:`in_process_target` builds the research pipeline with ``build_service()`` (the real HTTP
index and verifier services, real audit rows); :func:`http_target` evaluates a running research
service and checks its citations against the corpus loaded here with the same index scope.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from asat_corpus.corpus_build import load_corpus
from asat_corpus.index_scope import index_scope_from_env
from asat_research.evaluation.answerers import Answerer, HttpAnswerer, PipelineAnswerer
from asat_research.evaluation.corpus_checks import CorpusDates, ServedResolver
from asat_research.evaluation.temporal_check import VersionDates
from asat_research.gold import AuthorityResolver


@dataclass
class EvalTarget:
    answerer: Answerer
    dates: VersionDates
    resolver: AuthorityResolver
    mode: str
    url: str | None = None
    reranker: str | None = None
    gate_min_score: float | None = None
    gate_scale: str | None = None
    corpus_generation: str | None = None
    warnings: list[str] = field(default_factory=list)
    closers: list[Callable[[], None]] = field(default_factory=list)

    def close(self) -> None:
        for close in self.closers:
            close()


def in_process_target(env: Mapping[str, str] | None = None) -> EvalTarget:
    """The pipeline as ``python -m asat_research serve`` builds it; raises ``ResearchConfigError`` /
    ``AuditStartupError`` when the environment cannot build it."""
    from asat_research.composition import build_service

    service = build_service(env)
    pipeline = service.pipeline
    view = pipeline.ports.corpus
    warnings = []
    for name, check in service.health.items():
        try:
            healthy = bool(check())
        except Exception as exc:  # a health probe must not stop the run; the cases will show the error
            healthy, name = False, f"{name} ({exc})"
        if not healthy:
            warnings.append(f"{name} is not healthy: cases that need it will end in `error`")
    return EvalTarget(
        answerer=PipelineAnswerer(pipeline),
        dates=CorpusDates(view.corpus),
        resolver=ServedResolver(view.corpus, view.scope),
        mode="in-process",
        reranker=pipeline.ports.reranker.name,
        gate_min_score=pipeline.settings.gate.min_score,
        gate_scale=pipeline.settings.gate.scale,
        corpus_generation=view.generation,
        warnings=warnings,
        closers=[service.close],
    )


def http_target(url: str, timeout_s: float = 120.0, env: Mapping[str, str] | None = None) -> EvalTarget:
    """A running research service at ``url``; the corpus checks use ``load_corpus()`` and the
    index scope of this environment (``ASAT_INDEX_ACTS`` / ``ASAT_INDEX_RULINGS``)."""
    build = load_corpus()
    scope = index_scope_from_env(env)
    answerer = HttpAnswerer(url, timeout_s=timeout_s)
    return EvalTarget(
        answerer=answerer,
        dates=CorpusDates(build),
        resolver=ServedResolver(build, scope),
        mode="http",
        url=url,
        closers=[answerer.close],
    )
