from __future__ import annotations

import math

from asat_research.relevance.features import FEATURE_NAMES, candidate_features, question_facts
from asat_research.relevance.stats import RelevanceStats
from asat_research.retrieval import Hit

STATS = RelevanceStats(
    documents=100,
    df={"turnov": 5, "busine": 60, "small": 30, "entity": 50},
    citations={("itaa1997", "328-110"): 12},
    cited_by={"ATO ID 2001/1": frozenset({("itaa1997", "328-110")})},
    defined={"small business entity": {("itaa1997", "328-110")}},
)


def _hit(chunk: str, number: str, dense: float, fused: float, heading: str, text: str, kind: str = "provision") -> Hit:
    payload = {"kind": kind, "act": "itaa1997", "provision": number, "heading": heading, "text": text, "start": 0}
    return Hit(chunk, f"{kind}:{number}", fused, dense, payload)


HITS = [
    _hit("a", "328-110", 0.6, 0.03, "Meaning of small business entity", "aggregated turnover less than $10 million"),
    _hit("b", "8-1", 0.7, 0.02, "General deductions", "You can deduct any loss or outgoing"),
    _hit("c", "328-110", 0.5, 0.01, "Meaning of small business entity", "(2) more text", kind="gap"),
]
QUESTION = "What turnover makes a small business entity under section 328-110 of the ITAA 1997?"


def _row(rows: list[list[float]], i: int) -> dict[str, float]:
    return dict(zip(FEATURE_NAMES, rows[i], strict=True))


def test_one_row_per_hit_in_feature_name_order() -> None:
    rows = candidate_features(QUESTION, HITS, STATS)
    assert len(rows) == 3 and all(len(r) == len(FEATURE_NAMES) for r in rows)
    assert candidate_features(QUESTION, [], STATS) == []


def test_the_question_names_the_section_its_act_and_a_defined_term() -> None:
    rows = candidate_features(QUESTION, HITS, STATS)
    a, b = _row(rows, 0), _row(rows, 1)
    assert a["names_this_section"] == 1.0 and b["names_this_section"] == 0.0
    assert a["names_this_act"] == 1.0 and a["names_any_act"] == 1.0
    assert a["defines_question_term"] == 1.0 and b["defines_question_term"] == 0.0
    assert a["catch_all"] == 0.0 and b["catch_all"] == 1.0
    assert a["definitions_section"] == 1.0
    assert a["amount_answer"] == 1.0 and b["amount_answer"] == 0.0  # asks "what turnover"; only a states one


def test_ranks_shares_and_section_support() -> None:
    rows = candidate_features(QUESTION, HITS, STATS)
    a, b, c = _row(rows, 0), _row(rows, 1), _row(rows, 2)
    assert b["dense_gap_to_best"] == 0.0 and math.isclose(a["dense_gap_to_best"], -0.1)
    assert a["fused_share"] == 1.0 and a["fused_rank_log"] == 0.0
    assert c["kind_gap"] == 1.0 and c["kind_provision"] == 0.0
    assert a["section_hits_log"] == math.log1p(1)  # the gap marker is its own source
    assert a["citations_log"] == math.log1p(12)


def test_a_decisions_own_citations_are_left_out_of_the_prior() -> None:
    rows = candidate_features(QUESTION, HITS[:1], STATS, exclude_citations_of="ATO ID 2001/1")
    assert _row(rows, 0)["citations_log"] == math.log1p(11)


def test_question_facts_idf_weights_rare_words_higher() -> None:
    facts = question_facts("turnover business", STATS)
    assert STATS.idf("turnov") > STATS.idf("busine")
    assert math.isclose(facts.idf_total, STATS.idf("turnov") + STATS.idf("busine"))
