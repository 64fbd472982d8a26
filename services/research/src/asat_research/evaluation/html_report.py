"""The run as one self-contained HTML page (``--html``): pure over the ``--out`` JSON document.

Inline CSS, inline SVG chart, a few lines of inline script for filtering; nothing is loaded
from anywhere, so the file opens from disk without a server. Every string from the suite or the
system (questions, quotes, reasons) is escaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from asat_research.evaluation.metrics import METRIC_NAMES
from asat_research.evaluation.summary import metric_text

VERDICT_COLOURS = {"accurate": "#2e7d32", "hallucinated": "#c62828", "missing": "#9e9e9e", "error": "#ef6c00"}

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#222;max-width:1200px}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:3px 8px;text-align:right}
td:first-child,th:first-child{text-align:left}
details{border:1px solid #ddd;border-radius:4px;margin:4px 0;padding:4px 8px}
summary{cursor:pointer}summary .v{display:inline-block;min-width:96px;font-weight:600}
.accurate{color:#2e7d32}.hallucinated{color:#c62828}.missing{color:#757575}.error{color:#ef6c00}
blockquote{margin:4px 0 8px 16px;padding:4px 8px;border-left:3px solid #90caf9;background:#f5f9ff;white-space:pre-wrap}
dt{font-weight:600;margin-top:6px}dd{margin-left:16px}
.pass{color:#2e7d32;font-weight:700}.fail{color:#c62828;font-weight:700}
.muted{color:#757575}
"""

_SCRIPT = """
function filterCases(){
  var v=document.getElementById('verdict').value,t=document.getElementById('tag').value,
      q=document.getElementById('q').value.toLowerCase();
  document.querySelectorAll('details.case').forEach(function(d){
    var ok=(!v||d.dataset.verdict===v)&&(!t||(' '+d.dataset.tags+' ').indexOf(' '+t+' ')>=0)
           &&(!q||d.textContent.toLowerCase().indexOf(q)>=0);
    d.style.display=ok?'':'none';
  });
}
"""


def _e(value: object) -> str:
    return escape(str(value), quote=True)


def _list(items: Iterable[object], empty: str = "none") -> str:
    shown = [f"<li>{_e(item)}</li>" for item in items]
    return f"<ul>{''.join(shown)}</ul>" if shown else f"<span class='muted'>{_e(empty)}</span>"


def metrics_table(metrics: Mapping[str, Any]) -> str:
    rows = "".join(f"<tr><td>{_e(name)}</td><td>{_e(metric_text(metrics[name]))}</td></tr>" for name in METRIC_NAMES)
    return f"<table><tr><th>metric</th><th>value</th></tr>{rows}</table>"


def tag_chart(tag_counts: Mapping[str, Mapping[str, Any]]) -> str:
    """A stacked bar per tag: the share of its cases accurate, hallucinated, missing, in error."""
    label_w, bar_w, row_h = 150, 560, 20
    height = row_h * (len(tag_counts) + 1) + 10
    parts = [
        f"<svg width='{label_w + bar_w + 60}' height='{height}' "
        "role='img' aria-label='verdicts per tag' font-size='12'>"
    ]
    x = label_w
    for verdict, colour in VERDICT_COLOURS.items():
        parts.append(f"<rect x='{x}' y='2' width='10' height='10' fill='{colour}'/>")
        parts.append(f"<text x='{x + 14}' y='11'>{_e(verdict)}</text>")
        x += 110
    for row, (tag, counts) in enumerate(tag_counts.items(), start=1):
        y = row * row_h + 4
        n = int(counts["n"]) or 1
        parts.append(f"<text x='0' y='{y + 13}'>{_e(tag)}</text>")
        x_pos = float(label_w)
        for verdict, colour in VERDICT_COLOURS.items():
            width = bar_w * int(counts[verdict]) / n
            if width > 0:
                parts.append(
                    f"<rect x='{x_pos:.1f}' y='{y}' width='{width:.1f}' height='{row_h - 4}' fill='{colour}'>"
                    f"<title>{_e(tag)}: {_e(verdict)} {int(counts[verdict])} of {int(counts['n'])}</title></rect>"
                )
            x_pos += width
        parts.append(f"<text x='{label_w + bar_w + 6}' y='{y + 13}'>n={int(counts['n'])}</text>")
    parts.append("</svg>")
    return "".join(parts)


def _citations(citations: Iterable[Mapping[str, Any]]) -> str:
    out = []
    for c in citations:
        dates = f"in force {c.get('valid_from') or '?'} to {c.get('valid_to') or 'now'}"
        out.append(f"<div>{_e(c['source_id'])} <span class='muted'>({_e(dates)})</span></div>")
        out.append(f"<blockquote>{_e(c.get('quote', ''))}</blockquote>")
    return "".join(out) or "<span class='muted'>none</span>"


def case_details(case: Mapping[str, Any]) -> str:
    verdict = str(case["verdict"])
    when = f"as of {case['as_of']}" if case.get("as_of") else f"income year {case.get('income_year')}"
    fields = [
        ("question", _e(case["question"])),
        ("date", _e(when)),
        ("expect", _e(case["expect"])),
        ("decision", _e(case["decision"]) + (" (premise rejected)" if case.get("premise_rejected") else "")),
        ("rule that matched", f"<span class='{_e(verdict)}'>{_e(case['rule'])}</span>"),
        ("reasons", _list(case.get("reasons", ()))),
        ("citations and verified quotes", _citations(case.get("citations", ()))),
        ("gold", _list(case.get("gold", ()), "none (expect abstain)")),
        ("must_quote_any", _list(case.get("must_quote_any", ()))),
        ("must_not_cite", _list(case.get("must_not_cite", ()))),
        ("must_not_quote", _list(case.get("must_not_quote", ()))),
        ("temporal violations", _list(case.get("temporal_violations", ()))),
        ("gold not resolving", _list(case.get("gold_problems", ()))),
        ("tags", _e(" ".join(case.get("tags", ())))),
        ("latency", _e(f"{case.get('latency_ms', 0)} ms; {case.get('provider', '')} {case.get('model', '')}")),
    ]
    body = "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in fields)
    question = str(case["question"])
    short = question if len(question) <= 110 else question[:107] + "..."
    return (
        f"<details class='case' data-verdict='{_e(verdict)}' data-tags='{_e(' '.join(case.get('tags', ())))}'>"
        f"<summary><span class='v {_e(verdict)}'>{_e(verdict)}</span> {_e(case['id'])} "
        f"<span class='muted'>[{_e(case['decision'])}]</span> {_e(short)}</summary><dl>{body}</dl></details>"
    )


def render_html(report: Mapping[str, Any]) -> str:
    config, gate, counts = report["config"], report["gate"], report["counts"]
    title = f"AsAt evaluation: {config['suite_path']}"
    status = (
        "<p class='pass'>gate passed</p>"
        if gate["passed"]
        else f"<p class='fail'>gate failed</p>{_list(gate['reasons'])}"
    )
    config_rows = "".join(
        f"<tr><td>{_e(k)}</td><td>{_e(v if v is not None else 'n/a')}</td></tr>" for k, v in config.items()
    )
    run = report["run"]
    decisions = ", ".join(f"{_e(k)} {_e(v)}" for k, v in counts["decisions"].items())
    tags = sorted(report["tag_counts"])
    tag_options = "".join(f"<option>{_e(t)}</option>" for t in tags)
    verdict_options = "".join(f"<option>{_e(v)}</option>" for v in VERDICT_COLOURS)
    tag_rows = "".join(
        f"<tr><td>{_e(tag)}</td><td>{_e(report['tag_counts'][tag]['n'])}</td>"
        + "".join(f"<td>{_e(metric_text(values[name]))}</td>" for name in METRIC_NAMES)
        + "</tr>"
        for tag, values in report["by_tag"].items()
    )
    tag_header = "".join(f"<th>{_e(name)}</th>" for name in METRIC_NAMES)
    cases = "".join(case_details(case) for case in report["cases"])
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{_e(title)}</h1>{status}"
        f"<p class='muted'>started {_e(run['started'])}, {_e(run['seconds'])} s, {_e(counts['n'])} cases</p>"
        f"<h2>Metrics</h2>{metrics_table(report['metrics'])}"
        f"<p>verdicts: accurate {_e(counts['accurate'])}, hallucinated {_e(counts['hallucinated'])}, "
        f"missing {_e(counts['missing'])}, error {_e(counts['error'])}<br>decisions: {decisions}</p>"
        f"<h2>Per tag</h2>{tag_chart(report['tag_counts'])}"
        f"<table><tr><th>tag</th><th>n</th>{tag_header}</tr>{tag_rows}</table>"
        f"<h2>Configuration</h2><table>{config_rows}</table>"
        "<h2>Cases</h2><p>verdict <select id='verdict' onchange='filterCases()'><option value=''>all</option>"
        f"{verdict_options}</select> tag <select id='tag' onchange='filterCases()'><option value=''>all</option>"
        f"{tag_options}</select> text <input id='q' oninput='filterCases()'></p>{cases}"
        f"<script>{_SCRIPT}</script></body></html>\n"
    )
