"""eval_cli end to end over a fake system: exit codes, selection, outputs, determinism."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from asat_research.eval_cli import main
from asat_research.eval_target import PipelineAnswerer
from asat_research.evaluation.metrics import METRIC_NAMES
from asat_research.evaluation.targets import EvalTarget
from services.research.tests.evaluation.builders import (
    SUITE_YAML,
    V2015,
    FakeDates,
    FakePipeline,
    FakeResolver,
    suite_script,
)


def target(**script_kw: Any) -> Callable[[argparse.Namespace], EvalTarget]:
    missing = script_kw.pop("missing", ())

    def build(args: argparse.Namespace) -> EvalTarget:
        return EvalTarget(
            answerer=PipelineAnswerer(FakePipeline(suite_script(**script_kw))),
            dates=FakeDates(),
            resolver=FakeResolver(missing=missing),
            mode="in-process",
            reranker="embedding-cosine",
            gate_min_score=0.3,
            gate_scale="cosine",
            corpus_generation="gen123",
        )

    return build


@pytest.fixture
def suite_path(tmp_path: Path) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(SUITE_YAML, encoding="utf-8")
    return path


def run(args: list[str], factory: Callable[[argparse.Namespace], EvalTarget] | None = None) -> int:
    return main(args, target_factory=factory or target())


def test_a_clean_run_exits_0_and_writes_the_json_report(
    suite_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run.json"
    assert run(["--suite", str(suite_path), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert "referential_integrity_rate" in captured.out and "gate: PASSED" in captured.out
    assert "[1/4] T1" in captured.err and "[4/4] F1" in captured.err
    report = json.loads(out.read_text())
    assert list(report["metrics"]) == list(METRIC_NAMES)
    assert report["metrics"]["hallucination_rate"] == 0.0
    assert report["metrics"]["correct_abstention_rate"] == 1.0
    assert set(report["by_tag"]) == {"temporal", "small-business", "out-of-scope", "false-premise", "part-iva"}
    assert all(list(m) == list(METRIC_NAMES) for m in report["by_tag"].values())
    first = report["cases"][0]
    assert (first["id"], first["decision"], first["verdict"], first["accurate"]) == ("T1", "answer", "accurate", True)
    assert first["rule"] == "accurate: cites gold 328-110"
    assert first["citations"][0]["source_id"] == V2015
    assert {"latency_ms", "provider", "model", "reasons", "tags", "quote"} <= set(first) | set(first["citations"][0])
    config = report["config"]
    assert (config["provider"], config["model"], config["reranker"], config["gate_min_score"]) == (
        "extractive",
        "extractive-v1",
        "embedding-cosine",
        0.3,
    )
    assert config["corpus_generation"] == "gen123" and len(config["suite_sha256"]) == 64
    assert report["run"]["audit_ids"]["T1"] == 7


def test_a_temporal_violation_fails_the_gate(suite_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--suite", str(suite_path)], target(t2_citation=V2015)) == 1
    err = capsys.readouterr().err
    assert "temporal_violation_count is 1" in err


def test_an_unresolved_gold_fails_the_gate(suite_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--suite", str(suite_path)], target(missing=("177D",))) == 1
    assert "referential_integrity_rate is 0.6667" in capsys.readouterr().err


def test_integrity_that_cannot_be_measured_fails_the_gate(suite_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--suite", str(suite_path), "--tags", "out-of-scope"]) == 1
    assert "could not be measured" in capsys.readouterr().err


def test_tags_and_limit_select_cases(suite_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    assert (
        run(["--suite", str(suite_path), "--tags", "small-business,part-iva", "--limit", "2", "--out", str(out)]) == 0
    )
    assert [c["id"] for c in json.loads(out.read_text())["cases"]] == ["T1", "T2"]


def test_json_flag_prints_the_report(suite_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--suite", str(suite_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["counts"]["n"] == 4


def test_html_report_is_written(suite_path: Path, tmp_path: Path) -> None:
    page = tmp_path / "report" / "run.html"
    assert run(["--suite", str(suite_path), "--html", str(page)]) == 0
    text = page.read_text()
    HTMLParser().feed(text)
    assert text.count("<details class='case'") == 4
    assert "&lt;script&gt;x&lt;/script&gt;" in text and "<script>x</script>" not in text


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "cannot read the file"),
        ("schema: asat-gold/1\ncases: [{id: X}]\n", "required field is missing"),
        ("not: [valid", "not valid YAML"),
    ],
)
def test_a_bad_suite_exits_2_naming_the_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, expected: str
) -> None:
    path = tmp_path / "bad.yaml"
    if content is not None:
        path.write_text(content)
    assert run(["--suite", str(path)]) == 2
    assert expected in capsys.readouterr().err


def test_unknown_tags_exit_2_listing_the_tags_used(suite_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--suite", str(suite_path), "--tags", "nope"]) == 2
    assert "tags used: false-premise" in capsys.readouterr().err


def test_a_system_that_cannot_be_built_exits_2(suite_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(args: argparse.Namespace) -> EvalTarget:
        raise ValueError("ASAT_DATABASE_URL is not set")

    assert run(["--suite", str(suite_path)], broken) == 2
    assert "ASAT_DATABASE_URL is not set" in capsys.readouterr().err


def test_limit_must_be_positive(suite_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        run(["--suite", str(suite_path), "--limit", "0"])
    assert exit_info.value.code == 2


def test_a_run_where_every_case_errors_fails(suite_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def down(args: argparse.Namespace) -> EvalTarget:
        built = target()(args)
        script = suite_script()
        built.answerer = PipelineAnswerer(FakePipeline(dict.fromkeys(script, script["down"])))
        return built

    assert run(["--suite", str(suite_path)], down) == 1
    captured = capsys.readouterr()
    assert "every one of the 4 cases ended in error" in captured.err
    assert (
        "errors (distinct):\n  error: dependency_unavailable: verifier unavailable: connection refused" in captured.out
    )


def _without_timings(report: dict[str, Any]) -> dict[str, Any]:
    report = dict(report)
    report.pop("run")
    report["cases"] = [{k: v for k, v in c.items() if k not in ("latency_ms", "stage_ms")} for c in report["cases"]]
    return report


def test_two_runs_of_the_same_configuration_give_the_same_report(suite_path: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert run(["--suite", str(suite_path), "--out", str(first)]) == 0
    assert run(["--suite", str(suite_path), "--out", str(second)]) == 0
    assert _without_timings(json.loads(first.read_text())) == _without_timings(json.loads(second.read_text()))
