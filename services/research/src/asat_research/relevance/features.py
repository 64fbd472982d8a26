"""Features of each retrieved candidate for the learning-to-rank model (pure).

One row per hit, from the question, the hit (its scores, payload and text), the other hits of
the same question (ranks, its section's support) and corpus statistics. The same function
builds the training rows and the serving rows, so the model sees the same thing in both.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from asat_research.answer_types import AMOUNT, ASKS_AMOUNT, ASKS_WHEN, TIME
from asat_research.named_provisions import named_provisions
from asat_research.question_words import content_words
from asat_research.relevance.defined_terms import terms_in
from asat_research.relevance.stats import RelevanceStats
from asat_research.relevance.training_data import CATCH_ALL
from asat_research.retrieval import Hit

ACT_PATTERNS: dict[str, re.Pattern[str]] = {
    "itaa1997": re.compile(r"\b(?:ITAA\s*1997|1997 Act|Income Tax Assessment Act 1997)\b", re.IGNORECASE),
    "itaa1936": re.compile(
        r"\b(?:ITAA\s*1936|1936 Act|Income Tax Assessment Act 1936|Part IVA|Division 7A)\b", re.IGNORECASE
    ),
    "gst1999": re.compile(r"\b(?:GST|goods and services tax|input tax credit)", re.IGNORECASE),
    "taa1953": re.compile(
        r"\b(?:TAA|Taxation Administration Act|Schedule 1|PAYG withholding|instalment)", re.IGNORECASE
    ),
    "fbtaa1986": re.compile(r"\b(?:FBT|fringe benefit)", re.IGNORECASE),
    "sis1993": re.compile(r"\b(?:SIS Act|Superannuation Industry|SMSF|self[- ]managed super)", re.IGNORECASE),
    "sgaa1992": re.compile(r"\b(?:superannuation guarantee|SG charge|SGAA)\b", re.IGNORECASE),
}
_DEFINITION_HEADING = re.compile(r"\b(?:definitions?|dictionary|meaning of|interpretation)\b", re.IGNORECASE)
_GUIDE_HEADING = re.compile(r"^(?:what this|guide to|object|objects|simplified outline|overview)\b", re.IGNORECASE)
KNOWN_ACTS = ("itaa1997", "itaa1936", "gst1999", "taa1953")

FEATURE_NAMES: tuple[str, ...] = (
    "dense",
    "dense_gap_to_best",
    "dense_rank_log",
    "fused_share",
    "fused_rank_log",
    "kind_provision",
    "kind_ruling",
    "kind_gap",
    "kind_not_yet_enacted",
    "names_this_section",
    "names_any_section",
    "names_any_act",
    "names_this_act",
    "heading_overlap",
    "text_overlap",
    "idf_overlap",
    "idf_overlap_heading",
    "hierarchy_overlap",
    "defines_question_term",
    "citations_log",
    "catch_all",
    "definitions_section",
    "guide_section",
    "chunk_first",
    "chunk_chars_log",
    "section_hits_log",
    "section_best_dense",
    "best_in_section",
    "amount_answer",
    "ruling_current",
    *(f"act_{a}" for a in KNOWN_ACTS),
    "act_other",
    "question_words_log",
)


@dataclass(frozen=True)
class QuestionFacts:
    """What is read from the question once, for every candidate."""

    words: frozenset[str]
    idf_total: float
    named: frozenset[str]
    acts_named: frozenset[str]
    defined: frozenset[tuple[str, str]]
    asks_amount: bool
    asks_when: bool


def question_facts(question: str, stats: RelevanceStats) -> QuestionFacts:
    words = frozenset(content_words(question))
    return QuestionFacts(
        words=words,
        idf_total=sum(stats.idf(w) for w in words),
        named=frozenset(named_provisions(question)),
        acts_named=frozenset(a for a, p in ACT_PATTERNS.items() if p.search(question)),
        defined=frozenset(terms_in(question, stats.defined)),
        asks_amount=ASKS_AMOUNT.search(question) is not None,
        asks_when=ASKS_WHEN.search(question) is not None,
    )


def _share(wanted: frozenset[str], found: frozenset[str]) -> float:
    return len(wanted & found) / len(wanted) if wanted else 0.0


def _idf_share(facts: QuestionFacts, found: frozenset[str], stats: RelevanceStats) -> float:
    if not facts.idf_total:
        return 0.0
    return sum(stats.idf(w) for w in facts.words & found) / facts.idf_total


def candidate_features(
    question: str,
    hits: Sequence[Hit],
    stats: RelevanceStats,
    exclude_citations_of: str | None = None,
) -> list[list[float]]:
    """One feature row per hit, in ``FEATURE_NAMES`` order.

    ``exclude_citations_of``: a ruling whose own citations are left out of the citation prior
    (training on a decision's question must not count that decision's citations).
    """
    if not hits:
        return []
    facts = question_facts(question, stats)
    best_dense = max(h.dense_score for h in hits)
    best_fused = max(h.score for h in hits) or 1.0
    dense_order = sorted(range(len(hits)), key=lambda i: -hits[i].dense_score)
    dense_rank = {i: r for r, i in enumerate(dense_order)}
    by_section: dict[str, list[int]] = {}
    for i, hit in enumerate(hits):
        by_section.setdefault(hit.source_id, []).append(i)
    own = stats.cited_by.get(exclude_citations_of, frozenset()) if exclude_citations_of else frozenset()
    rows: list[list[float]] = []
    for i, hit in enumerate(hits):
        p = hit.payload
        kind = str(p.get("kind", ""))
        act = p.get("act")
        number = p.get("provision")
        key = (str(act), str(number)) if act and number else None
        heading = str(p.get("heading") or p.get("title") or "")
        text = str(p.get("text") or p.get("description") or "")
        hierarchy = " ".join(str(h) for h in p.get("hierarchy") or ())
        text_words = content_words(text)
        heading_words = content_words(heading)
        citations = stats.citations.get(key, 0) - (1 if key in own else 0) if key else 0
        siblings = by_section[hit.source_id]
        section_best = max(hits[j].dense_score for j in siblings)
        bare = str(number).removeprefix("sch1-").upper() if number else ""
        rows.append(
            [
                hit.dense_score,
                hit.dense_score - best_dense,
                math.log1p(dense_rank[i]),
                hit.score / best_fused,
                math.log1p(i),
                float(kind == "provision"),
                float(kind == "ruling"),
                float(kind == "gap"),
                float(kind == "not_yet_enacted"),
                float(bool(bare) and bare in facts.named),
                float(bool(facts.named)),
                float(bool(facts.acts_named)),
                float(act in facts.acts_named),
                _share(facts.words, heading_words),
                _share(facts.words, text_words),
                _idf_share(facts, text_words | heading_words, stats),
                _idf_share(facts, heading_words, stats),
                _share(facts.words, content_words(hierarchy)),
                float(key in facts.defined) if key else 0.0,
                math.log1p(max(citations, 0)),
                float(key in CATCH_ALL) if key else 0.0,
                float(_DEFINITION_HEADING.search(heading) is not None),
                float(_GUIDE_HEADING.search(heading) is not None),
                float(int(p.get("start") or 0) == 0),
                math.log1p(len(text)),
                math.log1p(len(siblings)),
                section_best,
                float(hit.dense_score >= section_best),
                float(
                    (facts.asks_amount and AMOUNT.search(text) is not None)
                    or (facts.asks_when and TIME.search(text) is not None)
                ),
                float(kind == "ruling" and str(p.get("status", "")).startswith("current")),
                *(float(act == a) for a in KNOWN_ACTS),
                float(bool(act) and act not in KNOWN_ACTS),
                math.log1p(len(facts.words)),
            ]
        )
    return rows
