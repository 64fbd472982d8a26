"""Choose the gate's thresholds by cross-validation on a suite and report the out-of-fold metrics.

Runs every case in process once with the gate's thresholds switched off (the relevance floor,
the corroboration bar and the gap-marker margin), keeps each case's scores and judged answer,
then replays the gate (``asat_research.evaluation.gate_cv``): thresholds chosen on four folds
are applied to the fifth (a temporal pair stays in one fold). The reported metrics are the
out-of-fold ones; the thresholds to ship are chosen on the whole suite the same way. The
reranker is the one the environment selects (``ASAT_RERANKER``); the index and verifier
services must be running (``make up``).

    .venv/bin/python scripts/calibrate_gate_cv.py [--suite gold-set/pit_suite.yaml] [--write] [--json]

``--write`` stores the result in ``gold-set/calibration/<reranker>-cv.json``; a test keeps the
defaults in ``asat_research.composition`` equal to the thresholds stored there.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from asat_audit.memory_store import InMemoryAuditStore
from asat_corpus.contracts.decisions import is_answered
from asat_research.composition import build_service
from asat_research.evaluation.corpus_checks import CorpusDates, ServedResolver
from asat_research.evaluation.gate_cv import CaseEvidence, cross_validate, error_classes, tallies
from asat_research.evaluation.metrics import count
from asat_research.evaluation.records import answer_from_outcome
from asat_research.evaluation.runner import evaluate_case
from asat_research.evaluation.scoring import Verdict, cites
from asat_research.gate import GateConfig
from asat_research.gold import Expect, GoldCase, load_suite
from asat_research.pipeline import ResearchOutcome

OUT_DIR = Path("gold-set/calibration")


def _error_class(case: GoldCase, outcome: ResearchOutcome, verdict: Verdict) -> str | None:
    if verdict is not Verdict.HALLUCINATED:
        return None
    if case.expect is Expect.ABSTAIN:
        return "answered a must-abstain case"
    answer = answer_from_outcome(outcome, 0.0)
    if any(cites(c, g) for c in answer.citations for g in case.gold):
        return "right section, wrong subsection (or a trap quoted, or premise not flagged)"
    return "wrong section"


def gate_off_summary(evidence: list[CaseEvidence], top: int = 20) -> dict[str, Any]:
    """With the thresholds off: the verdicts, the classes of error, and how often the answers the
    reranker scored highest are right against the rest (does its score separate them?)."""
    answered = sorted((e for e in evidence if is_answered(e.base_decision)), key=lambda e: -(e.top_score or 0.0))

    def share_accurate(cases: list[CaseEvidence]) -> float | None:
        return round(sum(e.verdict is Verdict.ACCURATE for e in cases) / len(cases), 3) if cases else None

    classes = Counter(e.error_class for e in evidence if e.verdict is Verdict.HALLUCINATED)
    return {
        "accurate": sum(e.verdict is Verdict.ACCURATE for e in evidence),
        "hallucinated": sum(e.verdict is Verdict.HALLUCINATED for e in evidence),
        "answered": len(answered),
        "error_classes": dict(sorted((str(k), v) for k, v in classes.items())),
        "abstained_answerable_by_decision": dict(
            sorted(
                Counter(
                    e.base_decision for e in evidence if e.verdict is Verdict.MISSING and e.expect is not Expect.ABSTAIN
                ).items()
            )
        ),
        f"accurate_share_of_top_{top}_answers": share_accurate(answered[:top]),
        "accurate_share_of_other_answers": share_accurate(answered[top:]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", default="gold-set/pit_suite.yaml")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    suite = load_suite(Path(args.suite))
    service = build_service(audit=InMemoryAuditStore())
    pipeline = service.pipeline
    off = GateConfig(min_score=-1e9, corroboration_score=None, gap_margin=-1e9, scale=pipeline.settings.gate.scale)
    pipeline.settings = replace(pipeline.settings, gate=off)
    view = pipeline.ports.corpus
    dates, resolver = CorpusDates(view.corpus), ServedResolver(view.corpus, view.scope)
    evidence: list[CaseEvidence] = []
    started = time.perf_counter()
    for n, case in enumerate(suite.cases, start=1):
        rerank: dict[str, Any] = {}
        outcome: ResearchOutcome | None = None
        for event in pipeline.run(case.question, income_year=case.income_year, as_of=case.as_of):
            if event.stage == "rerank":
                rerank = event.data
            if event.outcome is not None:
                outcome = event.outcome
        assert outcome is not None
        result = evaluate_case(case, answer_from_outcome(outcome, 0.0), dates, resolver)
        evidence.append(
            CaseEvidence(
                case_id=case.id,
                expect=case.expect,
                tags=case.tags,
                base_decision=outcome.decision,
                verdict=result.judgement.verdict,
                error_class=_error_class(case, outcome, result.judgement.verdict),
                top_score=rerank.get("top_score"),
                gap_score=rerank.get("gap_score"),
                gap_kind=str(rerank.get("gap_kind") or "gap"),
                temporal_violations=len(result.temporal_violations),
                gold_total=result.integrity.total,
                gold_resolved=result.integrity.resolved,
                premise_rule=outcome.premise_rule,
                premise_in_top_section=outcome.premise_in_top_section,
            )
        )
        sys.stderr.write(f"\r[calibrate] {n}/{len(suite.cases)}")
    sys.stderr.write("\n")
    cv = cross_validate(evidence)
    final_tallies = tallies(evidence, [cv.final] * len(evidence))
    counts = count(cv.out_of_fold_tallies)
    report: dict[str, Any] = {
        "suite": args.suite,
        "reranker": pipeline.ports.reranker.name,
        "scale": pipeline.settings.gate.scale,
        "corpus_generation": view.generation,
        "cases": len(evidence),
        "seconds": round(time.perf_counter() - started, 1),
        "folds": [t.as_dict() for t in cv.per_fold],
        "final": cv.final.as_dict(),
        "out_of_fold": cv.out_of_fold.as_dict(),
        "out_of_fold_decisions": counts.decisions,
        "out_of_fold_verdicts": {
            "accurate": counts.accurate,
            "hallucinated": counts.hallucinated,
            "missing": counts.missing,
        },
        "out_of_fold_error_classes": error_classes(evidence, cv.out_of_fold_tallies),
        "in_sample": cv.in_sample.as_dict(),
        "in_sample_error_classes": error_classes(evidence, final_tallies),
        "case_evidence": [
            {
                "id": e.case_id,
                "expect": e.expect.value,
                "base_decision": e.base_decision,
                "verdict_gate_off": e.verdict.value,
                "error_class": e.error_class,
                "top_score": e.top_score,
                "gap_score": e.gap_score,
            }
            for e in evidence
        ],
        "gate_off": gate_off_summary(evidence),
    }
    if args.write:
        OUT_DIR.mkdir(parents=True, exist_ok=True)
        path = OUT_DIR / f"{report['reranker']}-cv.json"
        path.write_text(json.dumps(report, indent=2) + "\n")
        sys.stderr.write(f"wrote {path}\n")
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"reranker {report['reranker']}: thresholds per fold {report['folds']}; final {report['final']}")
        for name, value in report["out_of_fold"].items():
            print(f"  out-of-fold {name:<32} {value}")
        print(f"  out-of-fold error classes {report['out_of_fold_error_classes']}")
        print(f"  gate off: {report['gate_off']}")
    service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
