"""The run as one JSON document (``--out``): config, gate, metrics, per-tag metrics, per-case records.

Everything but ``run`` (start time, seconds, build seconds, audit row ids) and the per-case ``latency_ms`` /
``stage_ms`` is a function of the suite, the configuration and the system's decisions, so two
runs of a deterministic configuration give the same document apart from those.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from asat_research.evaluation.metrics import Counts, GateResult, Metrics, aggregate, by_tag, count, gate
from asat_research.evaluation.records import CitedSource, SystemAnswer
from asat_research.evaluation.runner import CaseResult
from asat_research.evaluation.scoring import Verdict
from asat_research.gold import GoldCase

REPORT_FORMAT = "asat-eval/1"


@dataclass(frozen=True)
class RunConfig:
    mode: str  # "in-process" or "http"
    suite_path: str
    suite_sha256: str
    url: str | None = None
    provider: str | None = None
    model: str | None = None
    reranker: str | None = None
    gate_min_score: float | None = None
    gate_scale: str | None = None
    corpus_generation: str | None = None
    tags: tuple[str, ...] = ()
    limit: int | None = None


@dataclass(frozen=True)
class EvalReport:
    config: RunConfig
    started: str  # ISO timestamp
    seconds: float  # running the cases
    results: tuple[CaseResult, ...]
    build_seconds: float = 0.0  # building the system under test and loading the corpus

    @property
    def metrics(self) -> Metrics:
        return aggregate([r.tally() for r in self.results])

    @property
    def counts(self) -> Counts:
        return count(r.tally() for r in self.results)

    @property
    def gate(self) -> GateResult:
        result = gate(self.metrics)
        counts = self.counts
        if counts.n and counts.error == counts.n:
            return GateResult(False, (*result.reasons, f"every one of the {counts.n} cases ended in error"))
        return result

    def by_tag(self) -> dict[str, tuple[Metrics, Counts]]:
        return by_tag([r.tally() for r in self.results])


def most_common(values: Sequence[str]) -> str | None:
    """The most frequent non-empty value (ties: the first in sorted order), or ``None``."""
    counted = Counter(v for v in values if v)
    if not counted:
        return None
    best = max(counted.values())
    return sorted(v for v, n in counted.items() if n == best)[0]


def observed_config(config: RunConfig, answers: Sequence[SystemAnswer]) -> RunConfig:
    """``config`` with provider, model and corpus generation filled in from the answers where unknown."""
    return RunConfig(
        **{
            **config.__dict__,
            "provider": config.provider or most_common([a.provider for a in answers]),
            "model": config.model or most_common([a.model for a in answers]),
            "corpus_generation": config.corpus_generation or most_common([a.corpus_generation for a in answers]),
        }
    )


def _citation_json(citation: CitedSource) -> dict[str, Any]:
    return {
        "source_id": citation.source_id,
        "kind": citation.kind,
        "act": citation.act,
        "provision": citation.provision,
        "register_ids": list(citation.register_ids),
        "valid_from": citation.valid_from,
        "valid_to": citation.valid_to,
        "quote": citation.quote,
    }


def _gold_json(case: GoldCase) -> dict[str, Any]:
    return {
        "gold": [a.label() for a in case.gold],
        "must_quote_any": list(case.must_quote_any),
        "must_not_cite": [a.label() for a in case.must_not_cite],
        "must_not_quote": list(case.must_not_quote),
    }


def case_json(result: CaseResult) -> dict[str, Any]:
    case, answer, verdict = result.case, result.answer, result.judgement.verdict
    return {
        "id": case.id,
        "tags": list(case.tags),
        "expect": case.expect.value,
        "question": case.question,
        "income_year": case.income_year,
        "as_of": case.as_of.isoformat() if case.as_of else None,
        **_gold_json(case),
        "decision": answer.decision,
        "verdict": verdict.value,
        "accurate": verdict is Verdict.ACCURATE,
        "hallucinated": verdict is Verdict.HALLUCINATED,
        "missing": verdict is Verdict.MISSING,
        "rule": result.judgement.rule,
        "premise_rejected": answer.premise_rejected,
        "citations": [_citation_json(c) for c in answer.citations],
        "reasons": list(answer.reasons),
        "temporal_violations": list(result.temporal_violations),
        "gold_resolved": result.integrity.resolved,
        "gold_counted": result.integrity.total,
        "gold_problems": list(result.integrity.problems),
        "provider": answer.provider,
        "model": answer.model,
        "latency_ms": round(answer.latency_ms, 1),
        "stage_ms": {k: round(v, 1) for k, v in answer.stage_ms.items()},
    }


def counts_json(counts: Counts) -> dict[str, Any]:
    return {
        "n": counts.n,
        "accurate": counts.accurate,
        "hallucinated": counts.hallucinated,
        "missing": counts.missing,
        "error": counts.error,
        "decisions": dict(counts.decisions),
    }


def report_json(report: EvalReport) -> dict[str, Any]:
    tags = report.by_tag()
    verdict = report.gate
    return {
        "format": REPORT_FORMAT,
        "config": {**report.config.__dict__, "tags": list(report.config.tags)},
        "run": {
            "started": report.started,
            "seconds": round(report.seconds, 2),
            "build_seconds": round(report.build_seconds, 2),
            "audit_ids": {r.case.id: r.answer.audit_id for r in report.results if r.answer.audit_id is not None},
        },
        "gate": {"passed": verdict.passed, "reasons": list(verdict.reasons)},
        "metrics": report.metrics.as_dict(),
        "counts": counts_json(report.counts),
        "by_tag": {tag: metrics.as_dict() for tag, (metrics, _) in tags.items()},
        "tag_counts": {tag: counts_json(counts) for tag, (_, counts) in tags.items()},
        "cases": [case_json(r) for r in report.results],
    }
