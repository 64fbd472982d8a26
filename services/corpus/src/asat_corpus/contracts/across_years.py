"""``POST /v1/research/across-years``: the request and the events of its stream.

"How has this changed?": the same question asked again for every income year in which a provision
the answer cited changed. The stream sends ``plan`` (:class:`AcrossYearsPlan`: the years and the
gaps), then one ``year`` event per year (:class:`AcrossYearsYear`: that year's whole
``ResearchOutcome``, the same model as ``POST /v1/research``, each written to the audit log), then
``done`` (:class:`AcrossYearsDone`), or ``error`` (``StreamError``) instead of what is left.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from asat_corpus.contracts.provider import GenerationProvider
from asat_corpus.contracts.research import MAX_QUESTION_CHARS, AskedBy, ResearchOutcome

MAX_SOURCE_IDS = 50


class AcrossYearsRequest(BaseModel):
    """The question and the period its answer was for (at most one of the two); optionally the
    source ids it cited, else research asks it for that period first and follows what it cites."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(
        min_length=1, max_length=MAX_QUESTION_CHARS, description="The question, as the original answer was asked."
    )
    income_year: int | None = Field(
        default=None, ge=1900, le=2100, description="The original answer's income year N (1 July N-1 to 30 June N)."
    )
    as_of: date | None = Field(default=None, description="Or the original answer's day (YYYY-MM-DD).")
    source_ids: tuple[str, ...] | None = Field(
        default=None,
        max_length=MAX_SOURCE_IDS,
        description="The provision versions the original answer cited (or, for an abstention, its reading "
        "list). When absent, research answers the question for its period first and follows what that cites.",
    )
    asked_by: AskedBy | None = Field(
        default=None, description="Who asks (the web's signed-in user); recorded in each year's audit row."
    )
    provider: GenerationProvider | None = Field(
        default=None,
        description="The practice's own generation provider (its key never echoed, logged or audited): every "
        "year is answered with it. Absent: research's own generator.",
    )

    @field_validator("question")
    @classmethod
    def _storable(cls, question: str) -> str:
        """Each year's question is written to the audit log: text Postgres cannot store is refused here."""
        if "\x00" in question:
            raise ValueError("the question contains a NUL character (\\u0000), which cannot be stored: remove it")
        return question

    @field_validator("source_ids")
    @classmethod
    def _ids(cls, ids: tuple[str, ...] | None) -> tuple[str, ...] | None:
        if ids is not None and any(not i.strip() or len(i) > 300 for i in ids):
            raise ValueError("a source id is empty or longer than 300 characters")
        return ids


class _Event(BaseModel):
    # Read leniently (a field added later is ignored by an older reader) but never changed.
    model_config = ConfigDict(frozen=True)


class PlannedYearOut(_Event):
    """One income year to be asked."""

    income_year: int
    question: str = Field(description="The question as sent for this year: its own period words replaced.")
    original: bool = Field(description="The year of the original answer.")
    why: tuple[str, ...] = Field(description="Why this year is asked: the original year, or which text starts then.")


class CitedProvisionOut(_Event):
    """A provision the original answer cited, followed across the years."""

    act: str
    provision: str
    label: str = Field(description="e.g. 'ITAA 1997 s 328-110'.")
    source_ids: tuple[str, ...] = Field(description="The versions of it the original answer cited.")


class GapSpanOut(_Event):
    """A stretch of a cited provision whose text is not held, or is one of two held texts (the day
    of change uncertain). Not asked: shown as such."""

    act: str
    provision: str
    label: str
    valid_from: date
    valid_to: date = Field(description="The day after the stretch (exclusive).")
    held: Literal["not_held", "one_of_two"]
    reason: str
    income_years: tuple[int, ...] = Field(description="Every income year holding a day of the stretch.")


class AcrossYearsPlan(_Event):
    """The ``plan`` event: the years to be asked, ascending, and the gaps between them."""

    question: str
    original_year: int
    years: tuple[PlannedYearOut, ...] = Field(min_length=1)
    provisions: tuple[CitedProvisionOut, ...]
    gaps: tuple[GapSpanOut, ...]
    left_out: tuple[int, ...] = Field(description="Change years not asked (beyond the bound of max_years).")
    max_years: int = Field(ge=1)
    reason: str | None = Field(default=None, description="Why only the original year is asked, when that is so.")

    @model_validator(mode="after")
    def _ascending(self) -> AcrossYearsPlan:
        years = [y.income_year for y in self.years]
        if years != sorted(set(years)):
            raise ValueError(f"the plan's years {years} are not ascending and unique")
        if len(years) > self.max_years:
            raise ValueError(f"the plan asks {len(years)} years, more than its bound of {self.max_years}")
        if sum(y.original for y in self.years) != 1 or self.original_year not in years:
            raise ValueError("the plan must ask the original year, once")
        return self


class AcrossYearsYear(_Event):
    """A ``year`` event: the question asked for one income year, and research's whole outcome."""

    income_year: int
    question: str = Field(description="The question as sent for this year.")
    outcome: ResearchOutcome

    @model_validator(mode="after")
    def _same_year(self) -> AcrossYearsYear:
        if self.outcome.scope.income_year != self.income_year:
            raise ValueError(
                f"the outcome for income year {self.income_year} was answered for income year "
                f"{self.outcome.scope.income_year}"
            )
        return self


class AcrossYearsDone(_Event):
    """The ``done`` event: every planned year was asked; the audit row of each, by year."""

    audit_ids: dict[int, int] = Field(description="Income year -> the audit row its run wrote.")
