"""Calibrate the gate's relevance threshold on the reranker's own scale.

Runs every case of a gold suite through the real retrieval and rerank stages (the ingest
service must be serving the index, and the verifier running) and prints, for each candidate
threshold, how many answerable cases would pass the relevance rule and how many cases that must
abstain would be stopped by it. The threshold is a trade-off; the chosen one goes into
``ASAT_GATE_MIN_SCORE`` or ``asat_research.composition.DEFAULT_MIN_SCORE``.

    .venv/bin/python scripts/calibrate_gate.py [--suite gold-set/pit_suite.yaml] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from asat_research.audit.memory_store import InMemoryAuditStore
from asat_research.composition import build_service
from asat_research.gold import load_suite


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", default="gold-set/pit_suite.yaml")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    suite = load_suite(args.suite)
    service = build_service(audit=InMemoryAuditStore())
    rows: list[dict[str, Any]] = []
    for number, case in enumerate(suite.cases, start=1):
        top = gap = None
        for event in service.pipeline.run(case.question, case.income_year, case.as_of):
            if event.stage == "rerank":
                top, gap = event.data["top_score"], event.data["gap_score"]
                break
        rows.append({"id": case.id, "expect": case.expect.value, "tags": list(case.tags), "top": top, "gap": gap})
        print(f"\r[calibrate] {number}/{len(suite.cases)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    answerable = [r for r in rows if r["expect"] in ("answer", "reject_premise")]
    abstain = [r for r in rows if r["expect"] == "abstain"]
    table = []
    for step in range(10, 71, 2):
        threshold = step / 100
        passed = sum(1 for r in answerable if r["top"] is not None and r["top"] >= threshold)
        stopped = sum(1 for r in abstain if r["top"] is None or r["top"] < threshold)
        table.append({"threshold": threshold, "answerable_pass": passed, "abstain_stopped": stopped})
    result = {"answerable": len(answerable), "abstain": len(abstain), "table": table, "cases": rows}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"answerable cases: {len(answerable)}; cases that must abstain: {len(abstain)}")
        print(f"{'threshold':>9} {'answerable kept':>16} {'abstain stopped':>16}")
        for row in table:
            print(f"{row['threshold']:>9.2f} {row['answerable_pass']:>16} {row['abstain_stopped']:>16}")
    service.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
