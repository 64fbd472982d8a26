"""Builders shared by the evaluation tests: gold cases, citations, answers, a fake corpus."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from asat_research.evaluation.records import CitedSource, SystemAnswer
from asat_research.evaluation.temporal_check import HeldDates
from asat_research.gold import AuthorityLookup, CaseDate, GoldCase, ProvisionRef, RulingRef
from asat_research.pipeline import AnswerClaim, Citation, DependencyUnavailable, ResearchOutcome
from asat_research.temporal import ScopeSource, TemporalScope

V2015 = "itaa1997:328-110@C2015C00285"
V2026 = "itaa1997:328-110@C2026C00122"

# The versions the fake corpus holds (id -> dates and provision).
HELD = {
    V2015: HeldDates(date(2012, 4, 15), date(2016, 7, 1), "itaa1997", "328-110"),
    V2026: HeldDates(date(2024, 1, 1), None, "itaa1997", "328-110"),
    "itaa1936:109D@C2015C00001": HeldDates(date(2010, 1, 1), None, "itaa1936", "109D"),
    "itaa1936:177D@C2015C00001": HeldDates(date(2010, 1, 1), None, "itaa1936", "177D"),
    "TR 2020/1": HeldDates(date(2020, 1, 29), None),
}


class FakeDates:
    def held(self, source_id: str) -> HeldDates | None:
        return HELD.get(source_id)


class FakeResolver:
    """Resolves every authority except those named in ``missing``."""

    def __init__(self, missing: tuple[str, ...] = ()) -> None:
        self.missing = missing

    def lookup(self, authority: ProvisionRef | RulingRef, when: CaseDate) -> AuthorityLookup:
        label = authority.ruling if isinstance(authority, RulingRef) else authority.provision
        if label in self.missing:
            return AuthorityLookup(True, False, message=f"{label} not held {when}")
        registers = ("C2015C00285",) if (when.income_year or 2015) < 2020 else ("C2026C00122",)
        return AuthorityLookup(True, True, ("text",), registers)


def make_case(**fields: Any) -> GoldCase:
    base: dict[str, Any] = {
        "id": "C1",
        "question": "What turnover makes a small business entity?",
        "income_year": 2015,
        "expect": "answer",
        "gold": [{"act": "itaa1997", "provision": "328-110"}],
        "tags": ["temporal"],
    }
    base.update(fields)
    if "as_of" in fields:
        base.pop("income_year", None)
    return GoldCase.model_validate(base)


def make_citation(
    source_id: str = V2015, quote: str = "aggregated turnover is less than $2 million", **kw: Any
) -> CitedSource:
    held = HELD.get(source_id)
    defaults: dict[str, Any] = {
        "act": held.act if held else None,
        "provision": held.provision if held else None,
        "register_ids": (source_id.split("@")[1],) if "@" in source_id else (),
        "valid_from": held.valid_from.isoformat() if held else None,
        "valid_to": held.valid_to.isoformat() if held and held.valid_to else None,
        "kind": "provision" if "@" in source_id else "ruling",
    }
    defaults.update(kw)
    return CitedSource(source_id=source_id, quote=quote, **defaults)


def make_answer(*citations: CitedSource, decision: str = "answer", **kw: Any) -> SystemAnswer:
    return SystemAnswer(decision=decision, citations=tuple(citations), **kw)


def outcome(decision: str, *citations: Citation, premise_rejected: bool = False) -> ResearchOutcome:
    """A real :class:`ResearchOutcome` as the pipeline returns it."""
    claims = (AnswerClaim("c1", "claim", tuple(citations), 0.9),) if citations else ()
    return ResearchOutcome(
        request_id="r",
        audit_id=7,
        decision=decision,
        reasons=("because",),
        scope=TemporalScope(2015, None, ScopeSource.PARAMETER, "income_year"),
        claims=claims,
        reading_list=(),
        premise_rejected=premise_rejected,
        note="",
        provider="extractive",
        model="extractive-v1",
        seed=None,
        corpus_generation="gen123",
        latencies_ms={"retrieve": 1.0},
        dropped_claims=0,
        attribution="Based on content from the Federal Register of Legislation at 1 April 2026.",
    )


def pipeline_citation(source_id: str = V2015, quote: str = "aggregated turnover is less than $2 million") -> Citation:
    held = HELD[source_id]
    return Citation(
        span_id=f"{source_id}#0#s0",
        chunk_id=f"{source_id}#0",
        source_id=source_id,
        kind="provision" if held.act else "ruling",
        title="title",
        act=held.act,
        provision=held.provision,
        register_ids=(source_id.split("@")[1],) if "@" in source_id else (),
        authorised=True,
        valid_from=held.valid_from.isoformat(),
        valid_to=held.valid_to.isoformat() if held.valid_to else None,
        quote=quote,
        start=0,
        end=len(quote),
    )


class FakePipeline:
    """Answers by question: a callable per question returning an outcome or raising."""

    def __init__(self, script: dict[str, Callable[[], ResearchOutcome]]) -> None:
        self.script = script
        self.asked: list[tuple[str, int | None, date | None]] = []

    def answer(self, question: str, income_year: int | None = None, as_of: date | None = None) -> ResearchOutcome:
        self.asked.append((question, income_year, as_of))
        return self.script[question]()


SUITE_YAML = """\
schema: asat-gold/1
cases:
  - id: T1
    question: "Small business turnover threshold FY2015?"
    income_year: 2015
    expect: answer
    gold: [{act: itaa1997, provision: "328-110"}]
    must_quote_any: ["less than $2 million"]
    tags: [temporal, small-business]
  - id: T2
    question: "Small business turnover threshold FY2026 <b>now</b>?"
    income_year: 2026
    expect: answer
    gold: [{act: itaa1997, provision: "328-110"}]
    tags: [temporal, small-business]
  - id: O1
    question: "What is NSW payroll tax?"
    as_of: 2024-01-01
    expect: abstain
    tags: [out-of-scope]
  - id: F1
    question: "Part IVA only applies to companies, right?"
    income_year: 2015
    expect: reject_premise
    gold: [{act: itaa1936, provision: "177D"}]
    tags: [false-premise, part-iva]
"""


def suite_script(t2_citation: str = V2026) -> dict[str, Callable[[], ResearchOutcome]]:
    """A fake system for SUITE_YAML: right on T1, O1 and F1; T2 cites ``t2_citation``."""

    def down() -> ResearchOutcome:
        raise DependencyUnavailable("verifier", "connection refused")

    return {
        "Small business turnover threshold FY2015?": lambda: outcome("answer", pipeline_citation(V2015)),
        "Small business turnover threshold FY2026 <b>now</b>?": lambda: outcome(
            "answer", pipeline_citation(t2_citation, quote="less than $10 million <script>x</script>")
        ),
        "What is NSW payroll tax?": lambda: outcome("abstain_low_relevance"),
        "Part IVA only applies to companies, right?": lambda: outcome(
            "answer", pipeline_citation("itaa1936:177D@C2015C00001", quote="a scheme"), premise_rejected=True
        ),
        "down": down,
    }
