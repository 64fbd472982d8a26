"""The run as a plain-text summary for the terminal (pure over the ``--out`` JSON document)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from asat_research.evaluation.metrics import METRIC_NAMES

SHORT = {
    "crag_truthfulness": "crag",
    "hallucination_rate": "halluc",
    "abstention_rate_on_answerable": "abst_ans",
    "false_premise_rejection_rate": "fp_rej",
    "correct_abstention_rate": "abst_ok",
    "temporal_violation_count": "tv",
    "referential_integrity_rate": "ref_int",
}


def metric_text(value: object) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=True)]
    lines = [
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths, strict=True))
        )
        for line in (header, *rows)
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(line.rstrip() for line in lines)


def summary_text(report: Mapping[str, Any]) -> str:
    config, metrics, counts = report["config"], report["metrics"], report["counts"]
    out = [
        f"suite {config['suite_path']} ({counts['n']} cases, sha256 {str(config['suite_sha256'])[:12]})",
        f"system: {config['mode']}{' ' + config['url'] if config.get('url') else ''}; provider {config.get('provider')}, "
        f"model {config.get('model')}, reranker {config.get('reranker')}, gate min_score {config.get('gate_min_score')}, "
        f"corpus generation {str(config.get('corpus_generation'))[:12]}",
        "",
        table(["metric", "value"], [[name, metric_text(metrics[name])] for name in METRIC_NAMES]),
        "",
        "verdicts: " + ", ".join(f"{k} {counts[k]}" for k in ("accurate", "hallucinated", "missing", "error")),
        "decisions: " + ", ".join(f"{k} {v}" for k, v in counts["decisions"].items()),
        "",
    ]
    header = ["tag", "n", "acc", "hal", "mis", "err", *(SHORT[name] for name in METRIC_NAMES)]
    rows = [
        [
            tag,
            *(str(report["tag_counts"][tag][k]) for k in ("n", "accurate", "hallucinated", "missing", "error")),
            *(metric_text(values[name]) for name in METRIC_NAMES),
        ]
        for tag, values in report["by_tag"].items()
    ]
    if rows:
        out += [table(header, rows), ""]
    errors = list(dict.fromkeys(c["rule"] for c in report["cases"] if c["verdict"] == "error"))
    if errors:
        out += ["errors (distinct):", *(f"  {e}" for e in errors[:5])]
        out += [f"  ... and {len(errors) - 5} more"] if len(errors) > 5 else []
        out.append("")
    gate = report["gate"]
    run = report["run"]
    out.append(f"cases took {run['seconds']} s (building the system {run.get('build_seconds', 0)} s)")
    out.append("gate: PASSED" if gate["passed"] else "gate: FAILED\n  " + "\n  ".join(gate["reasons"]))
    return "\n".join(out)
