"""Measure the reranker's scores on the project's suite and propose the gate's thresholds.

For every answerable case (``answer``/``reject_premise``) the real retrieval and rerank stages
run for the case's date (the ingest service must be serving the index; ``build_service`` reads
the same environment as the research service). Each retrieved section is labelled
gold-matching or not; for cases that must abstain, the best score is kept. The script prints
the median, p05 and p95 of each group and proposes:

- the **floor** (``min_score``): the midpoint between the median best score of cases that must
  abstain and the median gold-matching score;
- the **corroboration bar** (``corroboration_score``): the median gold-matching score; a best
  passage below it must be corroborated by a second independent source.

``--write`` stores the measurements in ``gold-set/calibration/<reranker>.json``; a test asserts
that each reranker's constants in ``asat_research.composition`` sit inside its measured window.
The reranker is the one the environment selects (``ASAT_RERANKER``, default ``hybrid``).

    .venv/bin/python scripts/calibrate_rerank_thresholds.py [--suite gold-set/pit_suite.yaml] [--write] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from asat_audit.memory_store import InMemoryAuditStore
from asat_research.composition import build_service
from asat_research.gold import RulingRef, load_suite

OUT_DIR = Path("gold-set/calibration")


def _stats(values: list[float]) -> dict[str, float | int]:
    ordered = sorted(values)
    if not ordered:
        return {"n": 0}

    def pick(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))], 4)

    return {"n": len(ordered), "p05": pick(0.05), "median": round(statistics.median(ordered), 4), "p95": pick(0.95)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", default="gold-set/pit_suite.yaml")
    parser.add_argument("--write", action="store_true", help=f"store the measurements in {OUT_DIR}/<reranker>.json")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    suite = load_suite(args.suite)
    service = build_service(audit=InMemoryAuditStore())
    pipeline = service.pipeline
    gold_scores: list[float] = []
    other_scores: list[float] = []
    abstain_best: list[float] = []
    for number, case in enumerate(suite.cases, start=1):
        ranking = pipeline.rank(case.question, case.income_year, case.as_of)
        if case.expect.value == "abstain":
            abstain_best.append(ranking.top_score if ranking.top_score is not None else 0.0)
        else:
            wanted = {a.ruling if isinstance(a, RulingRef) else f"{a.act}:{a.provision}@" for a in case.gold}
            for parent in ranking.parents:
                is_gold = any(parent.source_id == w or parent.source_id.startswith(w) for w in wanted)
                (gold_scores if is_gold else other_scores).append(parent.score)
        print(f"\r[calibrate] {number}/{len(suite.cases)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    gold, other, abstain = _stats(gold_scores), _stats(other_scores), _stats(abstain_best)
    floor = round((float(abstain["median"]) + float(gold["median"])) / 2, 3) if gold["n"] and abstain["n"] else None
    result: dict[str, Any] = {
        "suite": args.suite,
        "reranker": pipeline.ports.reranker.name,
        "scale": pipeline.ports.reranker.scale,
        "corpus_generation": pipeline.ports.corpus.generation,
        "gold_matching": gold,
        "other_retrieved": other,
        "abstain_best": abstain,
        "proposed": {"min_score": floor, "corroboration_score": gold.get("median")},
        "window": {"low": abstain.get("median"), "high": gold.get("median")},
    }
    if args.write:
        OUT_DIR.mkdir(parents=True, exist_ok=True)
        (OUT_DIR / f"{pipeline.ports.reranker.name}.json").write_text(
            json.dumps(result, indent=2) + "\n", encoding="utf-8"
        )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for name in ("gold_matching", "other_retrieved", "abstain_best"):
            print(f"{name:>16}: {result[name]}")
        print(f"proposed floor (min_score): {floor}; corroboration bar: {gold.get('median')}")
    service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
