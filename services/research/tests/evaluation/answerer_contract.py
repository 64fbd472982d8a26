"""The contract every :class:`~asat_research.evaluation.answerers.Answerer` keeps.

An answerer asks the system under test one gold case and returns a
:class:`~asat_research.evaluation.records.SystemAnswer`; it never raises for a failure of the
system under test (a dependency down, a period it cannot take) but returns an ``error`` answer
saying what happened, so one bad case never stops a run. The in-process answerer and the HTTP
answerer must give the same answer to the same case: evaluation scores either target alike.

A test module subclasses :class:`AnswererContract` and provides ``answerer(pipeline)``: the
adapter asking that pipeline (directly, or through the research API in front of it).
"""

from __future__ import annotations

from asat_research.evaluation.answerers import Answerer
from asat_research.pipeline import ResearchPipeline

from ..pipeline.fakes import SBE_2015, SBE_2026, fakes
from .builders import make_case

SBE_QUESTION = "What aggregated turnover made a business a small business entity?"


class AnswererContract:
    def answerer(self, pipeline: ResearchPipeline) -> Answerer:
        raise NotImplementedError

    def test_an_answer_carries_the_decision_and_the_cited_versions_of_the_year(self) -> None:
        f = fakes()
        early = self.answerer(f.pipeline()).answer(make_case(question=SBE_QUESTION, income_year=2015))
        late = self.answerer(f.pipeline()).answer(make_case(question=SBE_QUESTION, income_year=2026))
        assert early.decision == late.decision == "answer"
        early_cited, late_cited = {c.source_id for c in early.citations}, {c.source_id for c in late.citations}
        assert SBE_2015 in early_cited and SBE_2026 not in early_cited
        assert SBE_2026 in late_cited and SBE_2015 not in late_cited
        assert early.audit_id is not None and early.audit_id != late.audit_id
        assert early.corpus_generation == f.view.generation
        assert early.latency_ms >= 0.0 and early.stage_ms

    def test_an_abstention_carries_its_reasons_and_no_citation(self) -> None:
        f = fakes()
        answer = self.answerer(f.pipeline()).answer(
            make_case(question="Is payroll tax payable in NSW on wages of $1.5 million?", expect="abstain", gold=[])
        )
        assert answer.decision == "abstain_out_of_scope"
        assert answer.abstained and not answer.citations and answer.reasons

    def test_a_dependency_down_is_an_error_answer_naming_it_never_an_exception(self) -> None:
        f = fakes()
        f.retriever.down = "connection refused"
        answer = self.answerer(f.pipeline()).answer(make_case(question=SBE_QUESTION, income_year=2015))
        assert answer.decision == "error"
        assert "index" in " ".join(answer.reasons) and "connection refused" in " ".join(answer.reasons)
