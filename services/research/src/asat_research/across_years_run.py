"""The answer across years, run: one ordinary pipeline run per planned income year.

:func:`prepare` checks the request before anything is run (the period reads, the question and the
period agree, every source id is held) and raises :class:`AcrossYearsRefused` or
``TemporalError`` saying what to change. :meth:`Prepared.events` then yields the ``plan`` (from
:func:`asat_research.across_years.plan_years` over the cited provisions' timelines), one ``year``
per income year (the pipeline's own run, with ``income_year`` set and the question reworded for
that year by :func:`~asat_research.across_years.question_for_year`: the same gate, its own audit
row) and ``done``. Without ``source_ids`` the original period is asked first and what it cites is
followed; that run is the original year's, not repeated. A dependency that fails raises
``DependencyUnavailable`` from the pipeline, as any research request does.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date

from asat_audit.record import AskedBy
from asat_corpus.contracts.across_years import (
    AcrossYearsDone,
    AcrossYearsPlan,
    AcrossYearsRequest,
    AcrossYearsYear,
    CitedProvisionOut,
    GapSpanOut,
    PlannedYearOut,
)
from asat_research.across_years import MAX_YEARS, ProvisionHistory, YearPlan, plan_years, question_for_year, stretches
from asat_research.asked_by import audit_asked_by
from asat_research.corpus_view import provision_label
from asat_research.outcome_wire import outcome_reply
from asat_research.pipeline import ResearchOutcome, ResearchPipeline
from asat_research.temporal import TemporalScope, period_conflict, resolve_income_year
from asat_research.timeline_view import timeline_json

AcrossYearsEvent = AcrossYearsPlan | AcrossYearsYear | AcrossYearsDone


class AcrossYearsRefused(ValueError):
    """The request cannot be followed across years as asked; the message says what to change."""


def cited_source_ids(outcome: ResearchOutcome) -> tuple[str, ...]:
    """What an outcome cites: an answer's claims' sources; an abstention's reading list."""
    if outcome.claims:
        return tuple(dict.fromkeys(c.source_id for claim in outcome.claims for c in claim.citations))
    return tuple(dict.fromkeys(item.source_id for item in outcome.reading_list))


@dataclass(frozen=True)
class Prepared:
    pipeline: ResearchPipeline
    request: AcrossYearsRequest
    scope: TemporalScope  # the original answer's period
    max_years: int = MAX_YEARS

    @property
    def asked_by(self) -> AskedBy | None:
        """Who asks (each year's audit row records it)."""
        return audit_asked_by(self.request.asked_by)

    def events(self, cancelled: threading.Event | None = None) -> Iterator[AcrossYearsEvent]:
        """``plan``, then one ``year`` per planned year (ascending), then ``done``. ``cancelled``
        (the client went away) cancels the year being answered (``RequestCancelled``)."""
        original: ResearchOutcome | None = None
        source_ids = self.request.source_ids
        if source_ids is None:
            original = self._ask_original(cancelled)
            source_ids = cited_source_ids(original)
        histories = self._histories(source_ids)
        plan = plan_years(histories, self.scope.income_year, self.max_years, self.pipeline.ports.corpus.corpus.horizon)
        if not histories and source_ids:
            plan = _with_reason(plan, f"{plan.reason} (the sources it cited are rulings, which have no versions here)")
        yield self._plan_out(plan, histories)
        audit_ids: dict[int, int] = {}
        for planned in plan.years:
            year = planned.income_year
            question = self._question(year)
            if planned.original:
                outcome = original or self._ask_original(cancelled)
            else:
                outcome = self.pipeline.answer(question, income_year=year, asked_by=self.asked_by, cancelled=cancelled)
            audit_ids[year] = outcome.audit_id
            yield AcrossYearsYear(income_year=year, question=question, outcome=outcome_reply(outcome))
        yield AcrossYearsDone(audit_ids=audit_ids)

    def _ask_original(self, cancelled: threading.Event | None) -> ResearchOutcome:
        """The question for the original answer's period, with its parameter as given (or the
        income year it was read for), the question's words unchanged."""
        request = self.request
        if request.as_of is not None:
            return self.pipeline.answer(
                request.question, as_of=request.as_of, asked_by=self.asked_by, cancelled=cancelled
            )
        return self.pipeline.answer(
            request.question, income_year=self.scope.income_year, asked_by=self.asked_by, cancelled=cancelled
        )

    def _question(self, year: int) -> str:
        if year == self.scope.income_year:
            return self.request.question
        return question_for_year(self.request.question, year)

    def _histories(self, source_ids: Sequence[str]) -> tuple[ProvisionHistory, ...]:
        corpus = self.pipeline.ports.corpus
        cited: dict[tuple[str, str], list[str]] = {}
        for source_id in source_ids:
            doc = corpus.doc(source_id)
            if doc is not None and doc.kind == "provision" and doc.act and doc.provision:
                cited.setdefault((doc.act, doc.provision), []).append(doc.id)
        histories = []
        for (act, number), ids in cited.items():
            timeline = corpus.timeline(act, number)
            if timeline is None:
                continue
            items = stretches(timeline_json(timeline, {}))
            histories.append(ProvisionHistory(act, number, provision_label(act, number), tuple(ids), items))
        return tuple(histories)

    def _plan_out(self, plan: YearPlan, histories: Sequence[ProvisionHistory]) -> AcrossYearsPlan:
        return AcrossYearsPlan(
            question=self.request.question,
            original_year=plan.original_year,
            years=tuple(
                PlannedYearOut(
                    income_year=y.income_year, question=self._question(y.income_year), original=y.original, why=y.why
                )
                for y in plan.years
            ),
            provisions=tuple(
                CitedProvisionOut(act=h.act, provision=h.provision, label=h.label, source_ids=h.cited)
                for h in histories
            ),
            gaps=tuple(
                GapSpanOut(
                    act=g.act,
                    provision=g.provision,
                    label=g.label,
                    valid_from=g.start,
                    valid_to=g.end,
                    held=g.held,
                    reason=g.reason,
                    income_years=g.income_years,
                )
                for g in plan.gaps
            ),
            left_out=plan.left_out,
            max_years=self.max_years,
            reason=plan.reason,
        )


def prepare(pipeline: ResearchPipeline, request: AcrossYearsRequest, today: date | None = None) -> Prepared:
    """The request checked before anything runs; raises :class:`AcrossYearsRefused` or
    ``TemporalError`` (both answered 422)."""
    question = request.question.strip()
    if not question:
        raise AcrossYearsRefused("the question is empty: type the question")
    scope = resolve_income_year(question, today or pipeline.settings.today(), request.income_year, request.as_of)
    conflict = period_conflict(question, request.income_year, request.as_of)
    if conflict is not None:
        raise AcrossYearsRefused(f"{conflict.reason}; the answer across years starts from one period")
    if request.source_ids is not None:
        unknown = [i for i in request.source_ids if pipeline.ports.corpus.doc(i) is None]
        if unknown:
            raise AcrossYearsRefused(f"no source {unknown[0]!r} is held: give the source ids the answer cited")
    return Prepared(pipeline, request.model_copy(update={"question": question}), scope)


def _with_reason(plan: YearPlan, reason: str) -> YearPlan:
    return YearPlan(plan.original_year, plan.years, plan.gaps, plan.left_out, reason)


def event_name(event: AcrossYearsEvent) -> str:
    """The server-sent event's name for ``event``."""
    if isinstance(event, AcrossYearsPlan):
        return "plan"
    if isinstance(event, AcrossYearsYear):
        return "year"
    return "done"
