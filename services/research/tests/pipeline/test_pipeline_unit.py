"""The research pipeline over in-memory ports (see ``fakes.py``): fast, no corpus directory, no
MiniLM. What a question costs (which ports it calls), what it decides, what its audit row and
its stage events say."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asat_audit.record import AuditEntry, AuditRecord
from asat_audit.store import AuditWriteError
from asat_corpus.chunking import chunk_id_of
from asat_corpus.provision import ProvisionTimeline
from asat_research.api import create_app
from asat_research.basic_rules import BasicRules
from asat_research.gate import Decision
from asat_research.generation.extractive import ExtractiveGenerator
from asat_research.generation.port import Generation, GenerationError, NumberedSpan, Selection
from asat_research.pipeline import NOT_ASKED, DependencyUnavailable, ResearchOutcome, ResearchPipeline
from asat_research.retrieval import IndexReport, SearchResult
from asat_research.scope import out_of_scope

from .fakes import BALANCING, BALANCING_2015, SBE, SBE_2015, SBE_2026, CountingRetriever, Fakes, fakes

PAYROLL = "Is payroll tax payable in NSW on wages of $1.5 million?"
SBE_QUESTION = "What aggregated turnover made a business a small business entity?"
NAMED_GAP = "What did s 328-115 say about aggregated turnover?"
ALL_STAGES = ["resolve", "retrieve", "rerank", "generate", "verify", "gate", "audit"]
REFUSED_STAGES = ["resolve", "gate", "audit"]


def _stages(f: Fakes, question: str, **kw: Any) -> tuple[list[str], ResearchOutcome]:
    events = list(f.pipeline().run(question, **kw))
    assert events[-1].stage == "done" and events[-1].outcome is not None
    return [e.stage for e in events[:-1]], events[-1].outcome


def _quotes(outcome: ResearchOutcome) -> list[str]:
    return [c.quote for claim in outcome.claims for c in claim.citations]


def test_a_state_tax_question_abstains_at_resolve_without_retrieval_generation_or_verification() -> None:
    f = fakes()
    stages, outcome = _stages(f, PAYROLL, income_year=2025)
    assert f.retriever.calls == [] and f.generator.calls == [] and f.verifier.calls == []
    assert outcome.decision == "abstain_out_of_scope"
    assert outcome.reasons == (out_of_scope(PAYROLL),)
    assert outcome.reasons[0].startswith("out of scope: payroll tax is a state or territory tax")
    assert outcome.claims == () and outcome.reading_list == () and outcome.dropped_claims == 0
    assert stages == REFUSED_STAGES
    assert list(outcome.latencies_ms) == REFUSED_STAGES
    # Still audited: one row, its decision and reasons those returned, its latencies those run before it.
    (entry,) = f.audit.last(5)
    assert entry.id == outcome.audit_id and entry.record.request_id == outcome.request_id
    assert entry.record.decision == Decision.ABSTAIN_OUT_OF_SCOPE
    assert entry.record.reasons == outcome.reasons
    assert entry.record.citations == () and entry.record.reading_list == ()
    assert [latency.stage for latency in entry.record.latencies] == ["resolve", "gate"]
    assert (entry.record.provider, entry.record.model) == ("extractive", NOT_ASKED)
    assert (outcome.provider, outcome.model, outcome.seed) == ("extractive", NOT_ASKED, None)
    assert f.audit.verify().ok


def test_a_named_section_whose_text_is_not_held_abstains_at_resolve_naming_it() -> None:
    f = fakes()
    stages, outcome = _stages(f, NAMED_GAP, income_year=2020)
    assert f.retriever.calls == [] and f.generator.calls == [] and f.verifier.calls == []
    assert stages == REFUSED_STAGES
    assert outcome.decision == "abstain_text_not_held"
    (reason,) = outcome.reasons
    assert reason.startswith("the question names itaa1997 328-115: itaa1997 328-115: text not held for 2020-06-30")
    assert "Act No. 41, 2017" in reason
    assert f.audit.last(1)[0].record.reasons == outcome.reasons


def test_a_named_section_held_for_the_year_goes_on_to_retrieval() -> None:
    f = fakes()
    stages, outcome = _stages(f, NAMED_GAP, income_year=2015)
    assert stages == ALL_STAGES and len(f.retriever.calls) == 1
    assert not any("the question names" in r for r in outcome.reasons), outcome.reasons


def test_both_rules_refusing_give_the_scope_decision_and_both_reasons_in_the_gates_order() -> None:
    question = "Does s 328-115 apply to NSW payroll tax?"
    f = fakes()
    _, outcome = _stages(f, question, income_year=2020)
    assert f.retriever.calls == []
    assert outcome.decision == "abstain_out_of_scope"
    assert outcome.reasons[0] == out_of_scope(question)
    assert outcome.reasons[1].startswith("the question names itaa1997 328-115: ")
    assert len(outcome.reasons) == 2


def test_an_answerable_question_is_answered_with_verified_quotes_of_the_years_text() -> None:
    f = fakes()
    stages, outcome = _stages(f, SBE_QUESTION, income_year=2015)
    assert outcome.decision == "answer", outcome.reasons
    assert stages == ALL_STAGES
    assert len(f.retriever.calls) == 1 and f.generator.calls == ["select", "write"] and len(f.verifier.calls) == 1
    assert any("less than $2 million" in q for q in _quotes(outcome))
    sources = {c.source_id for claim in outcome.claims for c in claim.citations}
    assert SBE_2015 in sources and SBE_2026 not in sources
    for claim in outcome.claims:
        for citation in claim.citations:
            doc = f.view.doc(citation.source_id)
            assert doc is not None and doc.text[citation.start : citation.end] == citation.quote
    assert {item.source_id for item in outcome.reading_list} == {SBE_2015, BALANCING_2015}
    (entry,) = f.audit.last(1)
    assert entry.record.decision == Decision.ANSWER and entry.id == outcome.audit_id
    assert [c.quote for c in entry.record.citations] == _quotes(outcome)
    assert (entry.record.provider, entry.record.model) == ("extractive", "none (extractive)")


def test_each_year_is_answered_from_its_own_text() -> None:
    f = fakes()
    outcome = f.pipeline().answer(SBE_QUESTION, income_year=2026)
    assert outcome.decision == "answer", outcome.reasons
    assert any("less than $10 million" in q for q in _quotes(outcome))
    assert {c.source_id for claim in outcome.claims for c in claim.citations} == {SBE_2026}


def test_stage_latencies_are_recorded_for_each_stage_run() -> None:
    f = fakes()
    events = list(f.pipeline().run(SBE_QUESTION, income_year=2015))
    outcome = events[-1].outcome
    assert outcome is not None
    assert [e.stage for e in events] == [*ALL_STAGES, "done"]
    assert list(outcome.latencies_ms) == ALL_STAGES
    for event in events[:-1]:
        assert event.ms >= 0 and outcome.latencies_ms[event.stage] == round(event.ms, 2)
    assert events[-1].ms == pytest.approx(sum(e.ms for e in events[:-1]))
    # The audit row holds every stage that finished before it was written.
    latencies = f.audit.last(1)[0].record.latencies
    assert [latency.stage for latency in latencies] == ALL_STAGES[:-1]
    assert all(latency.ms == round(next(e.ms for e in events if e.stage == latency.stage), 3) for latency in latencies)


def test_stage_events_report_what_each_stage_found() -> None:
    f = fakes()
    data = {e.stage: e.data for e in f.pipeline().run(SBE_QUESTION, income_year=2015)}
    assert data["resolve"] == {
        "income_year": 2015,
        "as_of": None,
        "as_known_on": None,
        "source": "parameter",
        "matched": "income_year=2015",
    }
    assert data["retrieve"] == {"hits": 3, "gap_markers": 0}
    assert data["rerank"]["parents"] == [SBE_2015, BALANCING_2015]
    assert data["rerank"]["top_score"] == 0.8 and data["rerank"]["gap_score"] is None
    assert set(data["rerank"]) == {"parents", "top_score", "gap_score", "gap_kind", "scale"}
    assert set(data["generate"]) == {"offered", "selected", "claims", "provider", "model"}
    assert data["verify"]["verified"] == data["verify"]["claims"] >= 1
    assert data["gate"] == {"claims": 3}  # not the decision: that comes with the result, after the audit row
    assert data["audit"] == {"audit_id": 1}


def test_a_marker_of_text_not_held_abstains_after_retrieval() -> None:
    # 2019-20: 328-115's text is not held (a marker, not a named section); it outscores the held text.
    f = fakes({"328-110": 0.5, "328-115": 0.9})
    _, outcome = _stages(f, SBE_QUESTION, income_year=2020)
    assert len(f.retriever.calls) == 1
    assert outcome.decision == "abstain_text_not_held", outcome.reasons
    assert outcome.claims == ()


def test_low_relevance_abstains_after_verification() -> None:
    f = fakes({"328-110": 0.2, "328-115": 0.1})
    _, outcome = _stages(f, SBE_QUESTION, income_year=2015)
    assert outcome.decision == "abstain_low_relevance"
    assert outcome.reasons[0].startswith("the best passage scored 0.200 on the cosine scale, below the threshold")


def test_a_retrieval_outage_is_the_index_dependency_and_writes_nothing() -> None:
    f = fakes()
    f.retriever.down = "the index service at http://ingest cannot be reached: start it with `python -m asat_ingest`"
    with pytest.raises(DependencyUnavailable) as raised:
        f.pipeline().answer(SBE_QUESTION, income_year=2015)
    assert raised.value.dependency == "index" and raised.value.message == f.retriever.down
    assert str(raised.value).startswith("index unavailable: the index service")
    assert f.generator.calls == [] and f.verifier.calls == [] and f.audit.last(5) == ()


def test_an_index_of_another_corpus_generation_is_the_index_dependency() -> None:
    f = fakes()
    f.retriever.generation = "0123456789abcdef"
    with pytest.raises(DependencyUnavailable) as raised:
        f.pipeline().answer(SBE_QUESTION, income_year=2015)
    assert raised.value.dependency == "index" and "corpus generation 0123456789ab" in raised.value.message


def test_a_refused_question_is_answered_while_the_index_is_down() -> None:
    f = fakes()
    f.retriever.down = "down"
    assert f.pipeline().answer(PAYROLL).decision == "abstain_out_of_scope"


def test_a_verifier_outage_is_the_verifier_dependency() -> None:
    f = fakes()
    f.verifier.down = "the verifier at http://verifier cannot be reached"
    with pytest.raises(DependencyUnavailable) as raised:
        f.pipeline().answer(SBE_QUESTION, income_year=2015)
    assert raised.value.dependency == "verifier" and f.audit.last(5) == ()


class _BrokenGenerator:
    name = "broken"

    def select(self, question: str, spans: object) -> Selection:
        raise GenerationError("the provider answered 500")

    def write(self, question: str, spans: list[NumberedSpan]) -> object:
        raise AssertionError("not reached")


def test_a_generator_failure_is_the_generator_dependency() -> None:
    f = fakes()
    with pytest.raises(DependencyUnavailable) as raised:
        f.pipeline(generator=_BrokenGenerator()).answer(SBE_QUESTION, income_year=2015)
    assert raised.value.dependency == "generator" and "500" in raised.value.message


class _DownAudit:
    def append(self, record: AuditRecord) -> AuditEntry:
        raise AuditWriteError("audit record not stored: connection refused")


def test_the_stream_sends_no_decision_until_its_audit_row_is_stored() -> None:
    f = fakes()
    client = TestClient(create_app(f.pipeline(audit=_DownAudit())))
    with client.stream("POST", "/v1/research/stream", json={"question": SBE_QUESTION, "income_year": 2015}) as reply:
        text = "".join(reply.iter_text())
    # Every stage before the audit ran and was streamed; the decision never was: the audit failed.
    assert '"stage": "gate"' in text and '"stage": "audit"' not in text
    assert "event: result" not in text and '"decision"' not in text
    assert "event: error" in text and "audit log (Postgres)" in text


def test_an_audit_outage_refuses_even_a_question_refused_at_resolve() -> None:
    f = fakes()
    for question in (PAYROLL, SBE_QUESTION):
        with pytest.raises(DependencyUnavailable) as raised:
            f.pipeline(audit=_DownAudit()).answer(question, income_year=2015)
        assert raised.value.dependency == "audit log (Postgres)"


def test_the_stream_of_a_refused_question_skips_the_stages_it_does_not_need() -> None:
    f = fakes()
    client = TestClient(create_app(f.pipeline()))
    with client.stream("POST", "/v1/research/stream", json={"question": PAYROLL}) as reply:
        text = "".join(reply.iter_text())
    stages = [line.split('"stage": "')[1].split('"')[0] for line in text.splitlines() if '"stage": "' in line]
    assert stages == REFUSED_STAGES
    assert "event: result" in text and "abstain_out_of_scope" in text
    body = client.post("/v1/research", json={"question": PAYROLL}).json()
    assert body["decision"] == "abstain_out_of_scope" and body["answered"] is False
    assert f.retriever.calls == []


def test_an_asserting_question_is_also_searched_for_what_it_asserts_and_abbreviations_are_spelled_out() -> None:
    f = fakes()
    question = (
        "An SMSF can count aggregated turnover for the small business entity test as long as its members "
        "are all in business, right?"
    )
    f.pipeline().answer(question, income_year=2015)
    assert [q for q, _, _ in f.retriever.calls] == [
        question.replace("SMSF", "SMSF (self managed superannuation fund)"),
        "An SMSF (self managed superannuation fund) can count aggregated turnover for the small business entity test",
    ]


def test_a_plain_question_is_searched_once_as_asked() -> None:
    f = fakes()
    f.pipeline().answer(SBE_QUESTION, income_year=2015)
    assert [q for q, _, _ in f.retriever.calls] == [SBE_QUESTION]


class _Offered:
    """The extractive generator, keeping the spans each pass was offered."""

    def __init__(self) -> None:
        self.inner = ExtractiveGenerator()
        self.name = self.inner.name
        self.offered: list[NumberedSpan] = []

    def select(self, question: str, spans: Sequence[NumberedSpan]) -> Selection:
        self.offered = list(spans)
        return self.inner.select(question, spans)

    def write(self, question: str, spans: Sequence[NumberedSpan]) -> Generation:
        return self.inner.write(question, spans)


def _offered_chunks(question: str) -> set[str]:
    f = fakes()
    generator = _Offered()
    base = f.pipeline(generator=generator)
    # one chunk a section, so that a section read whole shows more than that
    ResearchPipeline(base.ports, replace(base.settings, chunks_per_parent=1)).answer(question, income_year=2015)
    return {chunk_id_of(s.span_id) for s in generator.offered if s.section_rank == 0}


def test_a_question_stating_a_figure_of_the_law_is_offered_the_first_section_whole() -> None:
    plain = _offered_chunks("What aggregated turnover made a business a small business entity?")
    stating = _offered_chunks("The small business entity turnover threshold was $10 million in 2014-15, right?")
    assert len(plain) == 1
    assert len(stating) == 2 and plain < stating  # both subsections of s 328-110 (2015)


def test_a_question_whose_only_figure_is_the_clients_reads_the_first_section_as_usual() -> None:
    assert len(_offered_chunks("My client with $6 million turnover is a small business entity, right?")) == 1


@dataclass
class _Hiding:
    """The fake index, hiding one section's hits from every search that does not name it."""

    inner: CountingRetriever
    hidden: str

    def search(
        self, query: str, income_year: int, limit: int, acts: tuple[str, ...] | None = None, axis: str = "in_force"
    ) -> SearchResult:
        result = self.inner.search(query, income_year, limit, acts, axis)
        if self.hidden in query:
            return result
        return replace(result, hits=tuple(h for h in result.hits if h.payload.get("provision") != self.hidden))

    def index_generation(self) -> str:
        return self.inner.index_generation()

    def index_report(self) -> IndexReport:
        return self.inner.index_report()


def _in_subdivision(timeline: ProvisionTimeline) -> ProvisionTimeline:
    subdivision = ("Chapter 3", "Division 328", "Subdivision 328-C—What is a small business entity")
    return replace(timeline, versions=tuple(replace(v, hierarchy=subdivision) for v in timeline.versions))


def _ranked_with_basic_rules(question: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    f = fakes()
    monkeypatch.setattr(f.view, "basic_rules", BasicRules([_in_subdivision(SBE), _in_subdivision(BALANCING)]))
    hiding = _Hiding(f.retriever, "328-110")
    ranking = f.pipeline(retriever=hiding).rank(question, income_year=2015)
    return [q for q, _, _ in f.retriever.calls], [str(p.payload.get("provision")) for p in ranking.parents]


def test_an_asserting_question_is_also_searched_for_the_basic_rule_of_its_hits_subdivision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    queries, ranked = _ranked_with_basic_rules(
        "A business's aggregated turnover is worked out without its affiliates, isn't it?", monkeypatch
    )
    assert queries[-1] == "itaa1997 s 328-110 What is a small business entity"
    assert "328-110" in ranked  # found only by that search


def test_a_plain_question_is_not_searched_for_basic_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    queries, ranked = _ranked_with_basic_rules("How is a business's aggregated turnover worked out?", monkeypatch)
    assert queries == ["How is a business's aggregated turnover worked out?"]
    assert "328-110" not in ranked
