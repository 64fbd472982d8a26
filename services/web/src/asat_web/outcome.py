"""The research service's outcome, read into plain values for the pages.

The reply is validated as ``asat_corpus.contracts.research.ResearchOutcome`` (answered agrees with
the decision, an abstention carries no claims, every quote fits its range); only what it carries
is shown: verified quotes only, in ``claims[*].citations`` and ``reading_list[*].quotes``. A reply
of the wrong shape raises :class:`OutcomeShapeError` naming the field, never a half-rendered answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from asat_corpus.contracts.errors import describe_validation_error
from asat_corpus.contracts.research import OutcomeCitation, PeriodConflictOut, ResearchOutcome
from asat_corpus.period_words import period_words, reword_period
from asat_web.across_years_view import across_years_href
from asat_web.labels import year_span


class OutcomeShapeError(ValueError):
    """The research reply is not an outcome this page understands."""


@dataclass(frozen=True)
class CitationView:
    source_id: str
    title: str
    register_ids: tuple[str, ...]
    authorised: bool
    valid_from: str | None
    valid_to: str | None
    quote: str
    start: int
    end: int
    status: str | None = None
    act: str | None = None
    provision: str | None = None


@dataclass(frozen=True)
class ClaimView:
    text: str
    citations: tuple[CitationView, ...]


@dataclass(frozen=True)
class ReadingView:
    source_id: str
    title: str
    register_ids: tuple[str, ...]
    valid_from: str | None
    valid_to: str | None
    quotes: tuple[CitationView, ...]


@dataclass(frozen=True)
class Footer:
    provider: str
    model: str
    corpus_generation: str
    audit_id: int
    attribution: str


@dataclass(frozen=True)
class AskAgain:
    """One click that asks the question again for one period: the form's fields, as sent."""

    label: str
    question: str
    period: str  # the form's period choice: "income_year" or "as_of"
    value: str  # the income year, or the as-at day
    note: str = ""


@dataclass(frozen=True)
class ConflictView:
    """The question names one period and the form chose another: both, and a way to ask for each."""

    asked: str  # "FY2024 (income year 2024, 1 July 2023 to 30 June 2024)"
    chosen: str  # "income year 2027, 1 July 2026 to 30 June 2027", or "as at D (income year ...)"
    choices: tuple[AskAgain, AskAgain]


def conflict_view(conflict: PeriodConflictOut, question: str) -> ConflictView:
    """Both periods in words, and the two questions to ask instead: the question's own year, and
    the chosen period with the question's words for its year replaced (shown in a note)."""
    asked, given = conflict.question, conflict.parameter
    key, _, value = given.name.partition("=")
    period = "as_of" if key == "as_of" else "income_year"
    words = period_words(as_of=value) if key == "as_of" else period_words(income_year=given.income_year)
    reworded = reword_period(question, (asked.matched,), words)
    note = (
        f"Sent as \u201c{reworded}\u201d: the question's \u201c{asked.matched}\u201d becomes \u201c{words}\u201d."
        if reworded != question
        else f"The question's \u201c{asked.matched}\u201d will still disagree: reword it for {words}."
    )
    return ConflictView(
        asked=f"\u201c{asked.matched}\u201d ({year_span(asked.income_year)})",
        chosen=(f"as at {value} ({year_span(given.income_year)})" if key == "as_of" else year_span(given.income_year)),
        choices=(
            AskAgain(
                f"Ask for income year {asked.income_year}, as the question says",
                question,
                "income_year",
                str(asked.income_year),
            ),
            AskAgain(f"Ask for {words}, as chosen", reworded, period, value, note),
        ),
    )


@dataclass(frozen=True)
class OutcomeView:
    answered: bool
    decision: str
    reasons: tuple[str, ...]
    income_year: int | None
    as_of: str | None
    claims: tuple[ClaimView, ...]
    reading_list: tuple[ReadingView, ...]
    premise_rejected: bool
    note: str
    footer: Footer
    as_known_on: str | None = None  # the law as it then stood: the text on the books that day
    conflict: ConflictView | None = None  # decision period_conflict: both periods, and a way to ask for each
    across_years: str | None = None  # "How has this changed?": the across-years page for this question


def parse_outcome(body: Mapping[str, Any]) -> OutcomeView:
    """``body`` (a research outcome as JSON) as the page's view; raises :class:`OutcomeShapeError`."""
    try:
        outcome = ResearchOutcome.model_validate(body)
    except ValidationError as exc:
        raise OutcomeShapeError(f"the reply is not a research outcome: {describe_validation_error(exc)}") from exc
    return outcome_view(outcome)


def outcome_view(outcome: ResearchOutcome, question: str = "") -> OutcomeView:
    """The validated outcome as the page's view (``question``: as asked, for the choices of a
    period conflict and the "How has this changed?" link)."""
    scope = outcome.scope
    return OutcomeView(
        conflict=conflict_view(outcome.period_conflict, question) if outcome.period_conflict else None,
        across_years=across_years_href(outcome, question),
        answered=outcome.answered,
        decision=outcome.decision.value,
        reasons=outcome.reasons,
        income_year=scope.income_year,
        as_of=scope.as_of.isoformat() if scope.as_of else None,
        as_known_on=scope.as_known_on.isoformat() if scope.as_known_on else None,
        claims=tuple(ClaimView(c.text, tuple(_citation(q) for q in c.citations)) for c in outcome.claims),
        reading_list=tuple(
            ReadingView(
                source_id=r.source_id,
                title=r.title,
                register_ids=r.register_ids,
                valid_from=r.valid_from,
                valid_to=r.valid_to,
                quotes=tuple(_citation(q) for q in r.quotes),
            )
            for r in outcome.reading_list
        ),
        premise_rejected=outcome.premise_rejected,
        note=outcome.note,
        footer=Footer(
            provider=outcome.provider,
            model=outcome.model,
            corpus_generation=outcome.corpus_generation,
            audit_id=outcome.audit_id,
            attribution=outcome.attribution,
        ),
    )


def _citation(cited: OutcomeCitation) -> CitationView:
    return CitationView(
        source_id=cited.source_id,
        title=cited.title,
        register_ids=cited.register_ids,
        authorised=cited.authorised,
        valid_from=cited.valid_from,
        valid_to=cited.valid_to,
        quote=cited.quote,
        start=cited.start,
        end=cited.end,
        status=cited.status,
        act=cited.act,
        provision=cited.provision,
    )
