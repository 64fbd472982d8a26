"""Evaluating the research system on an ``asat-gold/1`` suite.

Scoring (:mod:`.scoring`), the temporal and referential checks (:mod:`.temporal_check`,
:mod:`.integrity`) and the metrics (:mod:`.metrics`) are pure; :mod:`.runner` asks each case
through an :class:`~.answerers.Answerer`; :mod:`.report`, :mod:`.summary`, :mod:`.html_report`
and :mod:`.comparison` render and compare runs. The CLIs are ``asat_research.eval_cli`` and
``asat_research.eval_compare``.

Evaluation is a client of the pipeline: it asks a running service over HTTP
(:class:`~.answerers.HttpAnswerer`) or the one in-process target
(``asat_research.eval_target``), and imports nothing else of ``asat_research`` but the gold set
(``asat_research.gold``); an import contract in ``.importlinter`` keeps it so.
"""

from asat_research.evaluation.answerers import Answerer, HttpAnswerer
from asat_research.evaluation.comparison import Comparison, ReportFormatError, compare, comparison_json, comparison_text
from asat_research.evaluation.corpus_checks import CorpusDates, ServedResolver
from asat_research.evaluation.html_report import render_html
from asat_research.evaluation.integrity import GoldIntegrity, gold_integrity
from asat_research.evaluation.metrics import METRIC_NAMES, Counts, GateResult, Metrics, Tally, aggregate, by_tag, gate
from asat_research.evaluation.records import CitedSource, SystemAnswer, answer_from_json, answer_from_outcome
from asat_research.evaluation.report import EvalReport, RunConfig, report_json
from asat_research.evaluation.runner import CaseResult, evaluate_case, run_cases, select_cases
from asat_research.evaluation.scoring import Judgement, Verdict, cites, score_case
from asat_research.evaluation.summary import summary_text
from asat_research.evaluation.temporal_check import HeldDates, VersionDates, in_force, temporal_violations

__all__ = [
    "METRIC_NAMES",
    "Answerer",
    "CaseResult",
    "CitedSource",
    "Comparison",
    "CorpusDates",
    "Counts",
    "EvalReport",
    "GateResult",
    "GoldIntegrity",
    "HeldDates",
    "HttpAnswerer",
    "Judgement",
    "Metrics",
    "ReportFormatError",
    "RunConfig",
    "ServedResolver",
    "SystemAnswer",
    "Tally",
    "Verdict",
    "VersionDates",
    "aggregate",
    "answer_from_json",
    "answer_from_outcome",
    "by_tag",
    "cites",
    "compare",
    "comparison_json",
    "comparison_text",
    "evaluate_case",
    "gate",
    "gold_integrity",
    "in_force",
    "render_html",
    "report_json",
    "run_cases",
    "score_case",
    "select_cases",
    "summary_text",
    "temporal_violations",
]
