"""Benchmark: parse and date the whole corpus (legislation and rulings), no cache.

Prints the wall time of each run and the median, plus what was parsed. The issue's target is
under 2 minutes on the 2-core development machine.

    .venv/bin/python scripts/bench_corpus_parse.py [--runs N] [--workers W] [--no-rulings] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from asat_corpus.corpus_build import build_corpus
from asat_corpus.sources import load_sources


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--no-rulings", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sources = load_sources()
    times = []
    build = None
    for run in range(1, args.runs + 1):
        started = time.perf_counter()
        build = build_corpus(sources, include_rulings=not args.no_rulings, workers=args.workers)
        times.append(time.perf_counter() - started)
        print(f"run {run}: {times[-1]:.1f}s", file=sys.stderr, flush=True)
    assert build is not None
    result = {
        "runs_s": [round(t, 2) for t in times],
        "median_s": round(statistics.median(times), 2),
        "compilations": len(build.compilations),
        "sections_parsed": sum(len(r.provisions) for r in build.compilations),
        "provisions": len(build.timelines),
        "versions": sum(len(t.versions) for t in build.timelines.values()),
        "rulings": len(build.rulings),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
