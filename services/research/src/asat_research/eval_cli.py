"""``python -m asat_research.eval_cli --suite PATH``: run an ``asat-gold/1`` suite through the system.

By default the pipeline is built in process from the environment (``build_service()``: the real
index and verifier services and audit log); ``--url`` evaluates a running research service.
Prints a summary table (or ``--json``), progress on stderr, and writes ``--out`` JSON and
``--html``. Exit status: 0 when ``referential_integrity_rate`` is exactly 1.0 and
``temporal_violation_count`` is 0; 1 when not (the reasons are printed); 2 for a usage, suite or
configuration error.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from asat_research.evaluation.html_report import render_html
from asat_research.evaluation.report import EvalReport, RunConfig, observed_config, report_json
from asat_research.evaluation.runner import CaseResult, run_cases, select_cases
from asat_research.evaluation.summary import summary_text
from asat_research.evaluation.targets import EvalTarget, http_target
from asat_research.gold import GoldSuiteError, load_suite

TargetFactory = Callable[[argparse.Namespace], EvalTarget]

EXIT_OK, EXIT_GATE, EXIT_USAGE = 0, 1, 2


def _positive(value: str) -> int:
    number = int(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 (got {value})")
    return number


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m asat_research.eval_cli",
        description="Run an asat-gold/1 suite through the research system and score it (gold-set-schema.md).",
    )
    p.add_argument("--suite", required=True, type=Path, help="the suite file (asat-gold/1 YAML)")
    p.add_argument("--limit", type=_positive, help="run only the first N selected cases")
    p.add_argument("--tags", default="", help="comma-separated tags: run only cases carrying any of them")
    p.add_argument("--out", type=Path, help="write the full JSON report here")
    p.add_argument("--html", type=Path, help="write a self-contained HTML report here")
    p.add_argument("--json", action="store_true", help="print the JSON report instead of the summary table")
    p.add_argument("--url", help="evaluate a running research service (e.g. http://127.0.0.1:8730) over HTTP")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per request with --url (default 120)")
    return p


def default_target(args: argparse.Namespace) -> EvalTarget:
    if args.url:
        return http_target(args.url, timeout_s=args.timeout)
    # Imported here: only an in-process run loads the pipeline (and its models).
    from asat_research.eval_target import in_process_target

    return in_process_target()


def _progress(stream: TextIO) -> Callable[[int, int, CaseResult], None]:
    def show(index: int, total: int, result: CaseResult) -> None:
        answer = result.answer
        flag = " TEMPORAL VIOLATION" if result.temporal_violations else ""
        stream.write(
            f"[{index:>{len(str(total))}}/{total}] {result.case.id:<14} {answer.decision:<30} "
            f"{result.judgement.verdict.value:<12} {answer.latency_ms:>8.0f} ms{flag}\n"
        )
        stream.flush()

    return show


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def main(argv: Sequence[str] | None = None, target_factory: TargetFactory | None = None) -> int:
    args = parser().parse_args(argv)
    err = sys.stderr
    try:
        suite = load_suite(args.suite)
        suite_bytes = args.suite.read_bytes()
    except GoldSuiteError as exc:
        print(f"error: {exc}", file=err)
        return EXIT_USAGE
    tags = tuple(t.strip() for t in args.tags.split(",") if t.strip())
    cases = select_cases(suite, tags, args.limit)
    if not cases:
        known = sorted({t for c in suite.cases for t in c.tags})
        print(
            f"error: no case in {args.suite} carries any of the tags {', '.join(tags)}; tags used: {', '.join(known)}",
            file=err,
        )
        return EXIT_USAGE
    print("building the system under test (loads the corpus; about a minute from a cold cache)", file=err)
    building = time.perf_counter()
    try:
        target = (target_factory or default_target)(args)
    except Exception as exc:  # configuration errors of the system under test, reported and refused
        print(f"error: cannot build the system under test: {exc}", file=err)
        return EXIT_USAGE
    for warning in target.warnings:
        print(f"warning: {warning}", file=err)
    started, clock = datetime.now(UTC), time.perf_counter()
    try:
        print(f"running {len(cases)} of {len(suite.cases)} cases from {args.suite}", file=err)
        results = run_cases(cases, target.answerer, target.dates, target.resolver, _progress(err))
    finally:
        target.close()
    config = RunConfig(
        mode=target.mode,
        suite_path=str(args.suite),
        suite_sha256=hashlib.sha256(suite_bytes).hexdigest(),
        url=target.url,
        reranker=target.reranker,
        gate_min_score=target.gate_min_score,
        gate_scale=target.gate_scale,
        corpus_generation=target.corpus_generation,
        tags=tags,
        limit=args.limit,
    )
    report = EvalReport(
        config=observed_config(config, [r.answer for r in results]),
        started=started.isoformat(timespec="seconds"),
        seconds=time.perf_counter() - clock,
        build_seconds=clock - building,
        results=tuple(results),
    )
    document = report_json(report)
    rendered = json.dumps(document, indent=2, ensure_ascii=False)
    try:
        if args.out:
            _write(args.out, rendered + "\n")
        if args.html:
            _write(args.html, render_html(document))
    except OSError as exc:
        print(f"error: cannot write the report: {exc}", file=err)
        return EXIT_USAGE
    print(rendered if args.json else summary_text(document))
    verdict = report.gate
    if not verdict.passed:
        for reason in verdict.reasons:
            print(f"gate failed: {reason}", file=err)
        return EXIT_GATE
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
