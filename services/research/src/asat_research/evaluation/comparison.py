"""Two runs case by case (pure over two ``--out`` JSON documents).

- **fixed**: not accurate in A (missing, hallucinated, error), accurate in B;
- **broken**: accurate in A, not in B;
- **unchanged**: same verdict, decision and cited sources;
- **changed**: anything else (e.g. missing -> hallucinated, or other citations with the same verdict);
- **only-a** / **only-b**: the case is in one run only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from asat_research.evaluation.metrics import METRIC_NAMES

KINDS = ("fixed", "broken", "changed", "unchanged", "only-a", "only-b")
UNTAGGED = "(untagged)"


@dataclass(frozen=True)
class Side:
    verdict: str
    decision: str
    cited: tuple[str, ...]  # source ids in first-cited order

    def text(self) -> str:
        return f"{self.verdict} [{self.decision}] {', '.join(self.cited) or '-'}"


@dataclass(frozen=True)
class CaseChange:
    id: str
    tags: tuple[str, ...]
    kind: str
    a: Side | None
    b: Side | None


@dataclass(frozen=True)
class MetricDelta:
    name: str
    a: float | int | None
    b: float | int | None

    @property
    def delta(self) -> float | int | None:
        return None if self.a is None or self.b is None else self.b - self.a


@dataclass(frozen=True)
class Comparison:
    changes: tuple[CaseChange, ...]
    metrics: tuple[MetricDelta, ...]

    def counts(self) -> dict[str, int]:
        return {kind: sum(c.kind == kind for c in self.changes) for kind in KINDS}

    def by_tag(self) -> dict[str, list[CaseChange]]:
        tags = sorted({t for c in self.changes for t in c.tags})
        grouped = {tag: [c for c in self.changes if tag in c.tags] for tag in tags}
        untagged = [c for c in self.changes if not c.tags]
        if untagged:
            grouped[UNTAGGED] = untagged
        return grouped


class ReportFormatError(ValueError):
    """The document is not an eval report (``python -m asat_research.eval_cli --out``)."""


def _side(case: Mapping[str, Any]) -> Side:
    cited = tuple(dict.fromkeys(str(c["source_id"]) for c in case.get("citations", ())))
    return Side(str(case["verdict"]), str(case["decision"]), cited)


def _cases(report: Mapping[str, Any], name: str) -> dict[str, Mapping[str, Any]]:
    cases = report.get("cases")
    if not isinstance(cases, list) or not isinstance(report.get("metrics"), dict):
        raise ReportFormatError(
            f"{name} is not an eval report: it needs `metrics` and `cases` (write one with eval_cli --out)"
        )
    try:
        return {str(c["id"]): c for c in cases}
    except (KeyError, TypeError) as exc:
        raise ReportFormatError(f"{name}: a case has no `id` ({exc})") from exc


def _kind(a: Side | None, b: Side | None) -> str:
    if a is None:
        return "only-b"
    if b is None:
        return "only-a"
    if a.verdict != "accurate" and b.verdict == "accurate":
        return "fixed"
    if a.verdict == "accurate" and b.verdict != "accurate":
        return "broken"
    return "unchanged" if a == b else "changed"


def compare(a: Mapping[str, Any], b: Mapping[str, Any], names: Sequence[str] = ("A", "B")) -> Comparison:
    cases_a, cases_b = _cases(a, names[0]), _cases(b, names[1])
    changes = []
    for case_id in list(cases_a) + [i for i in cases_b if i not in cases_a]:
        raw_a, raw_b = cases_a.get(case_id), cases_b.get(case_id)
        try:
            side_a = _side(raw_a) if raw_a is not None else None
            side_b = _side(raw_b) if raw_b is not None else None
        except (KeyError, TypeError) as exc:
            raise ReportFormatError(f"case {case_id}: missing field {exc}") from exc
        tags = tuple((raw_b or raw_a or {}).get("tags", ()))
        changes.append(CaseChange(case_id, tags, _kind(side_a, side_b), side_a, side_b))
    metrics = tuple(MetricDelta(n, a["metrics"].get(n), b["metrics"].get(n)) for n in METRIC_NAMES)
    return Comparison(tuple(changes), metrics)


def _number(value: float | int | None, signed: bool = False) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:+.3f}" if signed else f"{value:.3f}"
    return f"{value:+d}" if signed else str(value)


def comparison_text(comparison: Comparison, show_unchanged: bool = False) -> str:
    lines = ["metric                          A        B        delta"]
    for m in comparison.metrics:
        lines.append(f"{m.name:<30}  {_number(m.a):>7}  {_number(m.b):>7}  {_number(m.delta, signed=True):>7}")
    lines += ["", "cases: " + ", ".join(f"{k} {v}" for k, v in comparison.counts().items())]
    for tag, changes in comparison.by_tag().items():
        tally = ", ".join(
            f"{k} {sum(c.kind == k for c in changes)}" for k in KINDS if any(c.kind == k for c in changes)
        )
        lines += ["", f"[{tag}] {tally}"]
        for change in changes:
            if change.kind == "unchanged" and not show_unchanged:
                continue
            left = change.a.text() if change.a else "(not in A)"
            right = change.b.text() if change.b else "(not in B)"
            lines.append(f"  {change.kind:<9} {change.id}\n      A: {left}\n      B: {right}")
    return "\n".join(lines)


def comparison_json(comparison: Comparison) -> dict[str, Any]:
    def side(s: Side | None) -> dict[str, Any] | None:
        return None if s is None else {"verdict": s.verdict, "decision": s.decision, "cited": list(s.cited)}

    return {
        "metrics": {m.name: {"a": m.a, "b": m.b, "delta": m.delta} for m in comparison.metrics},
        "counts": comparison.counts(),
        "by_tag": {
            tag: [{"id": c.id, "kind": c.kind, "a": side(c.a), "b": side(c.b)} for c in changes]
            for tag, changes in comparison.by_tag().items()
        },
        "cases": [
            {"id": c.id, "tags": list(c.tags), "kind": c.kind, "a": side(c.a), "b": side(c.b)}
            for c in comparison.changes
        ],
    }
