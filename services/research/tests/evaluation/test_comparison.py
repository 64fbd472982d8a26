"""eval_compare: fixed, broken, changed and unchanged cases, by tag, and metric deltas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from asat_research.eval_compare import main
from asat_research.evaluation.comparison import ReportFormatError, compare, comparison_text


def case(case_id: str, verdict: str, decision: str, cited: list[str], tags: list[str]) -> dict[str, Any]:
    return {
        "id": case_id,
        "tags": tags,
        "verdict": verdict,
        "decision": decision,
        "citations": [{"source_id": s} for s in cited],
    }


def report(crag: float, *cases: dict[str, Any]) -> dict[str, Any]:
    metrics = {"crag_truthfulness": crag, "temporal_violation_count": 0, "referential_integrity_rate": None}
    return {"metrics": metrics, "cases": list(cases)}


V = "itaa1997:328-110@C2015C00285"
A = report(
    0.25,
    case("T1", "missing", "abstain_low_relevance", [], ["temporal"]),
    case("T2", "accurate", "answer", [V], ["temporal", "sb"]),
    case("T3", "accurate", "answer", [V], ["sb"]),
    case("T4", "missing", "abstain_low_relevance", [], []),
    case("T5", "hallucinated", "answer", ["x"], ["sb"]),
)
B = report(
    0.5,
    case("T1", "accurate", "answer", [V], ["temporal"]),
    case("T2", "hallucinated", "answer", ["y"], ["temporal", "sb"]),
    case("T3", "accurate", "answer", [V], ["sb"]),
    case("T4", "hallucinated", "answer", ["z"], []),
    case("T6", "missing", "abstain_text_not_held", [], ["sb"]),
)


def test_each_case_is_classified() -> None:
    kinds = {c.id: c.kind for c in compare(A, B).changes}
    assert kinds == {"T1": "fixed", "T2": "broken", "T3": "unchanged", "T4": "changed", "T5": "only-a", "T6": "only-b"}
    assert compare(A, B).counts() == {"fixed": 1, "broken": 1, "changed": 1, "unchanged": 1, "only-a": 1, "only-b": 1}


def test_same_verdict_with_other_citations_is_changed() -> None:
    b = report(0.25, case("T2", "accurate", "answer", ["other"], ["temporal"]))
    assert compare(report(0.25, A["cases"][1]), b).changes[0].kind == "changed"


def test_grouped_by_tag_with_both_sides_and_metric_deltas() -> None:
    comparison = compare(A, B)
    groups = comparison.by_tag()
    assert [c.id for c in groups["temporal"]] == ["T1", "T2"]
    assert [c.id for c in groups["(untagged)"]] == ["T4"]
    crag = next(m for m in comparison.metrics if m.name == "crag_truthfulness")
    assert crag.delta == 0.25
    assert next(m for m in comparison.metrics if m.name == "referential_integrity_rate").delta is None
    text = comparison_text(comparison)
    assert "fixed     T1\n      A: missing [abstain_low_relevance] -\n      B: accurate [answer] " + V in text
    assert "crag_truthfulness                 0.250    0.500   +0.250" in text
    assert "unchanged T3" not in text and "unchanged T3" in comparison_text(comparison, show_unchanged=True)


def test_a_file_that_is_not_a_report_is_refused() -> None:
    with pytest.raises(ReportFormatError, match="not an eval report"):
        compare({"cases": []}, B)


def test_the_cli_prints_text_or_json_and_exits_2_on_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(A))
    b.write_text(json.dumps(B))
    assert main([str(a), str(b)]) == 0
    assert "[temporal] fixed 1, broken 1" in capsys.readouterr().out
    assert main([str(a), str(b), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["fixed"] == 1
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main([str(a), str(bad)]) == 2
    assert "is not JSON" in capsys.readouterr().err
    assert main([str(a), str(tmp_path / "missing.json")]) == 2
