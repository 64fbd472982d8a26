"""The system under test and the corpus it is checked against, built from the environment (I/O).

:class:`EvalTarget` is what a run needs; :func:`http_target` evaluates a running research
service and checks its citations against the corpus loaded here with the same index scope. The
in-process target (the pipeline built as ``serve`` builds it) is
``asat_research.eval_target.in_process_target``, outside this package: evaluation is a client of
the pipeline and imports none of it (``.importlinter``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from asat_corpus.corpus_build import load_corpus
from asat_corpus.index_scope import index_scope_from_env
from asat_corpus.service_token import read_service_token
from asat_research.evaluation.answerers import Answerer, HttpAnswerer
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


def http_target(url: str, timeout_s: float = 120.0, env: Mapping[str, str] | None = None) -> EvalTarget:
    """A running research service at ``url``; the corpus checks use ``load_corpus()`` and the
    index scope of this environment (``ASAT_INDEX_ACTS`` / ``ASAT_INDEX_RULINGS``). The service
    requires its token: ``ASAT_SERVICE_TOKEN`` must be set (``make eval`` passes the stack's)."""
    token = read_service_token(os.environ if env is None else env)  # before the corpus loads: fail fast
    build = load_corpus()
    scope = index_scope_from_env(env)
    answerer = HttpAnswerer(url, timeout_s=timeout_s, service_token=token)
    return EvalTarget(
        answerer=answerer,
        dates=CorpusDates(build),
        resolver=ServedResolver(build, scope),
        mode="http",
        url=url,
        closers=[answerer.close],
    )
