"""Relevance benchmark: the trained ranker against MiniLM cosine, BM25 and today's hybrid.

1. **Test slice** of the training data (questions about sections never trained on): the ranker
   is fitted on the train slice (early-stopped and calibrated on dev) from the cached candidate
   lists, and every ranker orders the same candidates. NDCG@10, recall@1/5/10 and MRR at the
   section level, overall and per source.
2. **The suite's answerable cases**: the real retrieval for each case's date, reranked by each
   reranker (and by the cascade with the cross-encoder, not shipped, where its weights are on
   this machine); recall@1/5/10 of a gold section and MRR, overall and per tag.

Needs the index service running (``make up``). Prints a table, or ``--json``.

    .venv/bin/python scripts/bench_relevance.py [--ingest-url URL] [--suite gold-set/pit_suite.yaml] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from asat_audit.memory_store import InMemoryAuditStore
from asat_research.composition import build_service
from asat_research.gold import Expect, GoldCase, ProvisionRef, RulingRef, load_suite
from asat_research.parent_merge import ParentContext
from asat_research.pipeline import ResearchPipeline
from asat_research.relevance.blend import Blend
from asat_research.relevance.domain_reranker import DEFAULT_MODEL_DIR, Cascade, DomainReranker
from asat_research.relevance.onnx_cross_encoder import OnnxCrossEncoder
from asat_research.relevance.ranking_metrics import ranking_quality
from asat_research.relevance.train_cli import CandidatesUnavailable, measure, prepare, split_lists
from asat_research.rerank import EmbeddingCosineReranker, HybridReranker, Reranker


def _matches(parent: ParentContext, gold: Sequence[ProvisionRef | RulingRef]) -> bool:
    act, number = parent.payload.get("act"), parent.payload.get("provision")
    for g in gold:
        if isinstance(g, RulingRef) and parent.source_id == g.ruling:
            return True
        if isinstance(g, ProvisionRef) and act == g.act and number == g.provision:
            return True
    return False


def suite_quality(
    pipeline: ResearchPipeline, cases: Sequence[GoldCase], rerankers: dict[str, tuple[Reranker, int]]
) -> dict[str, Any]:
    """Recall and MRR of a gold section after each reranker, on the real retrieval for each case's date."""
    out: dict[str, Any] = {}
    for name, (reranker, limit) in rerankers.items():
        pipeline.ports = replace(pipeline.ports, reranker=reranker)
        pipeline.settings = replace(pipeline.settings, retrieve_limit=limit)
        rankings: list[list[int]] = []
        tags: dict[str, list[list[int]]] = {}
        for case in cases:
            ranking = pipeline.rank(case.question, case.income_year, case.as_of)
            # One entry per section: versions and markers of a provision count once.
            seen: set[str] = set()
            relevance: list[int] = []
            for parent in ranking.parents:
                key = f"{parent.payload.get('act')}:{parent.payload.get('provision')}"
                key = parent.source_id if key == "None:None" else key
                if key in seen:
                    continue
                seen.add(key)
                relevance.append(int(_matches(parent, case.gold)))
            rankings.append(relevance)
            for tag in case.tags:
                tags.setdefault(tag, []).append(relevance)
        overall = ranking_quality(rankings, [1] * len(rankings)).as_dict()
        by_tag = {t: ranking_quality(r, [1] * len(r)).as_dict() for t, r in sorted(tags.items())}
        out[name] = {"overall": overall, "by_tag": by_tag}
    return out


def measured_cascade(domain: DomainReranker) -> DomainReranker | None:
    """The domain ranker with the cascade measured by ``scripts/fit_cascade.py`` (its blend is kept
    in the ranker's card), where the cross-encoder's weights are on this machine."""
    card = json.loads((DEFAULT_MODEL_DIR / "card.json").read_text())
    blend = card.get("cascade", {}).get("blend")
    encoder_dir = DEFAULT_MODEL_DIR.parent / "cross-encoder"
    if not blend or not (encoder_dir / "model.onnx").is_file():
        return None
    length = int(json.loads((encoder_dir / "card.json").read_text())["hyper_parameters"]["max_length"])
    encoder = OnnxCrossEncoder(encoder_dir, max_length=length)
    cascade = Cascade(encoder, Blend(blend["w_ltr"], blend["w_ce"], blend["bias"]), int(blend["top_k"]))
    return DomainReranker(domain.model, domain.stats, cascade)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ingest-url", default=os.environ.get("ASAT_INGEST_URL", "http://127.0.0.1:8720"))
    parser.add_argument("--suite", default="gold-set/pit_suite.yaml")
    parser.add_argument("--cache-dir", type=Path, default=Path("var/relevance"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        prepared = prepare(args.ingest_url, args.cache_dir)
    except CandidatesUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    measured = measure(split_lists(prepared.lists), prepared.stats)
    test_slice = {
        "queries": len(split_lists(prepared.lists)["test"]),
        "rankers": measured.test_quality,
        "by_source": measured.by_source,
    }
    cases = [c for c in load_suite(Path(args.suite)).cases if c.expect is not Expect.ABSTAIN]
    service = build_service(audit=InMemoryAuditStore())
    domain = service.pipeline.ports.reranker
    rerankers: dict[str, tuple[Reranker, int]] = {
        "hybrid, 30 candidates (before)": (HybridReranker(), 30),
        "MiniLM cosine, 100 candidates": (EmbeddingCosineReranker(), 100),
        "hybrid, 100 candidates": (HybridReranker(), 100),
        f"{domain.name}, 100 candidates": (domain, 100),
    }
    if isinstance(domain, DomainReranker) and (cascade := measured_cascade(domain)) is not None:
        rerankers["cascade (not shipped), 100 candidates"] = (cascade, 100)
    try:
        suite = suite_quality(service.pipeline, cases, rerankers)
    finally:
        service.close()
    report = {"test_slice": test_slice, "suite_answerable": {"cases": len(cases), "rerankers": suite}}
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"Test slice: {test_slice['queries']} questions about sections never trained on")
    print(f"  {'ranker':<40} {'NDCG@10':>8} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6}")
    for name, q in measured.test_quality.items():
        print(f"  {name:<40} {q['ndcg@10']:>8} {q['recall@1']:>6} {q['recall@5']:>6} {q['recall@10']:>6} {q['mrr']:>6}")
    print(f"Suite: {len(cases)} answerable cases, gold section after rerank")
    for name, result in suite.items():
        q = result["overall"]
        print(f"  {name:<40} R@1 {q['recall@1']}  R@5 {q['recall@5']}  R@10 {q['recall@10']}  MRR {q['mrr']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
