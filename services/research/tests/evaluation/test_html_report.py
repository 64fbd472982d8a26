"""The HTML report: self-contained, escaped, parseable, one expandable entry per case."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import yaml

from asat_research.eval_target import PipelineAnswerer
from asat_research.evaluation.html_report import render_html
from asat_research.evaluation.report import EvalReport, RunConfig, report_json
from asat_research.evaluation.runner import run_cases
from asat_research.gold import parse_suite
from services.research.tests.evaluation.builders import SUITE_YAML, FakeDates, FakePipeline, FakeResolver, suite_script


def document() -> dict[str, Any]:
    suite = parse_suite(yaml.safe_load(SUITE_YAML))
    results = run_cases(suite.cases, PipelineAnswerer(FakePipeline(suite_script())), FakeDates(), FakeResolver())
    config = RunConfig(mode="in-process", suite_path="<b>suite</b>.yaml", suite_sha256="0" * 64)
    return report_json(EvalReport(config, "2026-01-01T00:00:00+00:00", 1.5, tuple(results)))


class Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.open: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_the_page_loads_nothing_from_anywhere() -> None:
    page = render_html(document())
    assert "http://" not in page and "https://" not in page
    collector = Collector()
    collector.feed(page)
    for tag, attrs in collector.tags:
        assert tag not in ("link", "img", "iframe", "object", "embed"), tag
        assert "src" not in attrs, (tag, attrs)
        assert not (attrs.get("href") or "").startswith(("http", "//")), attrs


def test_questions_quotes_and_config_are_escaped() -> None:
    page = render_html(document())
    assert "FY2026 &lt;b&gt;now&lt;/b&gt;?" in page
    assert "&lt;script&gt;x&lt;/script&gt;" in page
    assert "&lt;b&gt;suite&lt;/b&gt;.yaml" in page
    assert page.count("<script>") == 1  # only the page's own filter script


def test_each_case_is_an_expandable_details_element_with_its_gold_and_rule() -> None:
    page = render_html(document())
    collector = Collector()
    collector.feed(page)
    details = [attrs for tag, attrs in collector.tags if tag == "details"]
    assert [d["data-verdict"] for d in details] == ["accurate", "accurate", "missing", "accurate"]
    assert "accurate: cites gold 328-110" in page
    assert "itaa1997 328-110" in page  # gold label
    assert "missing: abstain_low_relevance (expected)" in page


def test_the_per_tag_chart_is_inline_svg_with_a_bar_per_tag_and_verdict() -> None:
    page = render_html(document())
    svg = re.search(r"<svg.*?</svg>", page, re.S)
    assert svg is not None
    titles = re.findall(r"<title>([^<]*)</title>", svg.group(0))
    assert "temporal: accurate 2 of 2" in titles
    assert "out-of-scope: missing 1 of 1" in titles
