"""The evaluation's one in-process target: the research pipeline as ``python -m asat_research serve`` builds it.

Evaluation (``asat_research.evaluation``) is a client of the pipeline. It asks a running research
service over HTTP (``asat_research.evaluation.targets.http_target``) or the pipeline built here,
and an import contract (``.importlinter``, "Evaluation is a client of the pipeline") forbids it
from importing any other part of ``asat_research``. This module is where the two meet: it builds
the service with ``build_service()`` (the real index and verifier services, real audit rows),
asks each case through the pipeline, and turns the pipeline's refusals (a dependency down, a date
it cannot take) into ``error`` answers, as the HTTP answerer does with a 503 or a 400.
``python -m asat_research.eval_cli`` uses it when no ``--url`` is given.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import date
from typing import Protocol

from asat_research.composition import build_service
from asat_research.evaluation.corpus_checks import CorpusDates, ServedResolver
from asat_research.evaluation.records import OutcomeLike, SystemAnswer, answer_from_outcome, error_answer
from asat_research.evaluation.targets import EvalTarget
from asat_research.gold import GoldCase
from asat_research.pipeline import DependencyUnavailable
from asat_research.temporal import TemporalError


class PipelineLike(Protocol):
    def answer(self, question: str, income_year: int | None = None, as_of: date | None = None) -> OutcomeLike: ...


def _elapsed_ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


class PipelineAnswerer:
    """Runs each case through a :class:`~asat_research.pipeline.ResearchPipeline` (or a fake)."""

    def __init__(self, pipeline: PipelineLike) -> None:
        self.pipeline = pipeline

    def answer(self, case: GoldCase) -> SystemAnswer:
        started = time.perf_counter()
        try:
            outcome = self.pipeline.answer(case.question, income_year=case.income_year, as_of=case.as_of)
        except DependencyUnavailable as exc:
            return error_answer(f"dependency_unavailable: {exc}", _elapsed_ms(started))
        except TemporalError as exc:
            return error_answer(f"invalid_request: {exc}", _elapsed_ms(started))
        return answer_from_outcome(outcome, _elapsed_ms(started))


def in_process_target(env: Mapping[str, str] | None = None) -> EvalTarget:
    """The pipeline as ``python -m asat_research serve`` builds it; raises ``ResearchConfigError`` /
    ``AuditStartupError`` when the environment cannot build it."""
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
