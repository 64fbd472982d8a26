"""``POST /v1/research`` (and its stream, health and provision routes): request and replies.

The research service builds these at its edge from the pipeline's own dataclasses; the web
service, the evaluation and ``asat_research.ask`` read them with ``model_validate``. A reply that
does not validate is not a research outcome and is never shown as one: an outcome's ``answered``
agrees with its ``decision``, an abstention carries no claims, and every quote fits its range.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from asat_corpus.contracts.decisions import Decision, is_answered
from asat_corpus.contracts.errors import ErrorBody
from asat_corpus.contracts.provider import GenerationProvider
from asat_corpus.contracts.search import IndexBuild
from asat_corpus.resolution import Status

MAX_QUESTION_CHARS = 2000
# The values of ``asat_research.temporal.ScopeSource`` (a test keeps them equal).
ScopeSourceName = Literal["parameter", "question", "default (current income year)"]


ALLOWED_CONTROLS = frozenset("\t\n\r")


def refuse_control_characters(question: str, field: str = "the question") -> str:
    """``question`` unchanged, or ``ValueError`` naming the first control character and where
    (``field`` names the text in the message)."""
    for position, char in enumerate(question):
        if (ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0) and char not in ALLOWED_CONTROLS:
            what = "a NUL character" if char == "\x00" else "a control character"
            raise ValueError(
                f"{field} contains {what} (\\u{ord(char):04x}) at position {position}, which cannot be "
                "stored or shown: remove it"
            )
    return question


MAX_ID = 2**63 - 1


class AskedBy(BaseModel):
    """Who asks: the web's signed-in user, the practice they act for and, optionally, the practice's
    client the question is for. Research records it in the question's audit row as given: only
    the web sends it, over the service-token-guarded channel, from its session (never from a form)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    user_id: int = Field(ge=1, le=MAX_ID)
    user_email: str = Field(min_length=3, max_length=254, pattern=r"^[^@\s]+@[^@\s]+$")
    practice_id: int = Field(ge=1, le=MAX_ID)
    client_id: int | None = Field(default=None, ge=1, le=MAX_ID)

    @field_validator("user_email")
    @classmethod
    def _storable(cls, email: str) -> str:
        """Written to the audit log with the question: the same characters are refused (a 422)."""
        return refuse_control_characters(email, "asked_by.user_email")


class ResearchRequest(BaseModel):
    """A question and, at most, one way of saying when (an income year and a day must agree);
    optionally who asks and the practice's own generation provider."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(
        min_length=1, max_length=MAX_QUESTION_CHARS, description="The question, as a tax agent asks it."
    )
    income_year: int | None = Field(
        default=None, ge=1900, le=2100, description="Income year N: 1 July N-1 to 30 June N."
    )
    as_of: date | None = Field(default=None, description="A day (YYYY-MM-DD); picks the version in force that day.")
    as_known_on: date | None = Field(
        default=None,
        description="A day (YYYY-MM-DD): the law as it then stood, i.e. the text the latest held compilation on "
        "or before that day shows (known time). Give it alone, without income_year or as_of.",
    )
    asked_by: AskedBy | None = Field(
        default=None, description="Who asks and for which practice (and client); recorded in the audit row."
    )
    provider: GenerationProvider | None = Field(
        default=None,
        description="The practice's own generation provider (its key never echoed, logged or audited): this "
        "question is answered with it, through the same verification, gate and audit. Absent: research's own "
        "generator (ASAT_GENERATION_*).",
    )

    @field_validator("question")
    @classmethod
    def _storable(cls, question: str) -> str:
        """Every question is written to the audit log: NUL (which Postgres cannot store) and the other
        control characters (never typed; a sign of a broken client or an injection) are refused here,
        before anything is retrieved or any model is asked. Tab, line feed and carriage return stay."""
        return refuse_control_characters(question)


class _Reply(BaseModel):
    # Replies are read leniently (a field added later is ignored by an older reader) but never changed.
    model_config = ConfigDict(frozen=True)


class OutcomeScope(_Reply):
    """The period the question was answered for and where it came from."""

    income_year: int
    as_of: date | None = Field(description="The day asked about, when one was given.")
    as_known_on: date | None = Field(default=None, description="Known time: the law as it then stood that day.")
    source: ScopeSourceName = Field(description="Where the period came from.")
    matched: str = Field(description="The words or parameter it came from.")


class OutcomeCitation(_Reply):
    """One verified quote and the version (or ruling) it is quoted from."""

    span_id: str
    chunk_id: str
    source_id: str = Field(description="Provision version id or ruling id.")
    kind: str = Field(description="'provision' or 'ruling'.")
    title: str
    act: str | None
    provision: str | None
    register_ids: tuple[str, ...] = Field(description="Federal Register compilation ids the version was seen in.")
    authorised: bool = Field(description="False for a third-party conversion, not an authorised version.")
    valid_from: str | None = Field(description="First day in force (YYYY-MM-DD).")
    valid_to: str | None = Field(description="Day after the last day in force (exclusive); null while current.")
    quote: str
    start: int = Field(ge=0, description="Start of the quote in the source text.")
    end: int = Field(ge=0, description="End (exclusive) of the quote in the source text.")
    status: str | None = Field(default=None, description="A ruling's status.")
    then_stood: str | None = Field(default=None, description="The caveat of a text quoted as it then stood.")

    @model_validator(mode="after")
    def _range_holds_the_quote(self) -> OutcomeCitation:
        if self.start > self.end or self.end - self.start != len(self.quote):
            raise ValueError(
                f"citation of {self.source_id!r} has range [{self.start}, {self.end}) that cannot hold its "
                f"{len(self.quote)}-character quote"
            )
        return self


class OutcomeClaim(_Reply):
    id: str
    text: str
    citations: tuple[OutcomeCitation, ...]
    groundedness: float = Field(ge=0.0, le=1.0)


class ReadingListEntry(_Reply):
    """A source handed back to read, with the verified quotes kept from it."""

    source_id: str
    title: str
    register_ids: tuple[str, ...]
    valid_from: str | None
    valid_to: str | None
    quotes: tuple[OutcomeCitation, ...]


class QuestionPeriodOut(_Reply):
    """The income year the question names, and the words it names it with."""

    income_year: int
    matched: str = Field(description="The question's words, e.g. 'FY2024'.")
    start: date = Field(description="First day of the income year (1 July).")
    end: date = Field(description="Last day of the income year (30 June, inclusive).")


class ParameterPeriodOut(_Reply):
    """The income year the ``income_year`` or ``as_of`` parameter names."""

    income_year: int
    name: str = Field(description="The parameter as given, e.g. 'income_year=2027' or 'as_of=2026-08-01'.")
    start: date = Field(description="First day of the income year (1 July).")
    end: date = Field(description="Last day of the income year (30 June, inclusive).")


class PeriodConflictOut(_Reply):
    """The question names one income year and the parameter another: both, so that a page can
    offer to ask again with either."""

    question: QuestionPeriodOut
    parameter: ParameterPeriodOut
    reason: str


class ResearchOutcome(_Reply):
    """The reply of ``POST /v1/research`` and the ``result`` event of the stream."""

    request_id: str
    audit_id: int = Field(description="The audit log row written for this question.")
    decision: Decision
    answered: bool = Field(description="Whether the decision shows claims; always agrees with it.")
    reasons: tuple[str, ...] = Field(description="Why it abstained, or the caveats of an answer.")
    scope: OutcomeScope
    claims: tuple[OutcomeClaim, ...] = Field(description="Verified claims only; empty unless answered.")
    reading_list: tuple[ReadingListEntry, ...]
    premise_rejected: bool
    note: str
    provider: str
    model: str
    seed: int | None
    corpus_generation: str
    latencies_ms: dict[str, float] = Field(description="Wall time of each stage, in milliseconds.")
    dropped_claims: int = Field(ge=0, description="Claims that failed verification and are not shown.")
    attribution: str
    period_conflict: PeriodConflictOut | None = Field(
        default=None,
        description="Both periods, when the decision is period_conflict (and only then): the question's and "
        "the parameter's.",
    )
    premise_rule: str | None = Field(
        default=None,
        description="When the premise was rejected: the fixed rule that read a verified quote as contradicting "
        "it (figure, exclusion, eligibility, limitation or deeming), or model (the contradiction model at its "
        "out-of-fold threshold); null otherwise, and for a generation provider's rejection.",
    )
    premise_in_top_section: bool = Field(
        default=False,
        description="When the premise was rejected: whether a quote showing it is from the section ranked first.",
    )

    @model_validator(mode="after")
    def _consistent(self) -> ResearchOutcome:
        if self.answered != is_answered(self.decision):
            raise ValueError(
                f"the outcome says answered={self.answered} but decision={self.decision.value!r}: they must agree"
            )
        if (self.decision is Decision.PERIOD_CONFLICT) != (self.period_conflict is not None):
            raise ValueError(
                f"decision={self.decision.value!r} with period_conflict "
                f"{'missing' if self.period_conflict is None else 'given'}: a period_conflict decision carries "
                "both periods, and no other decision does"
            )
        if not self.answered and self.claims:
            raise ValueError("an abstention carries claims: refusing to show them")
        return self


class PeriodRequest(BaseModel):
    """``POST /v1/period``: a question (it may still be empty) and, at most, one way of saying when."""

    model_config = ConfigDict(extra="forbid")

    question: str = Field(default="", max_length=MAX_QUESTION_CHARS, description="The question, as typed so far.")
    income_year: int | None = Field(
        default=None, ge=1900, le=2100, description="Income year N: 1 July N-1 to 30 June N."
    )
    as_of: date | None = Field(default=None, description="A day (YYYY-MM-DD).")


class PeriodPreview(_Reply):
    """``POST /v1/period``: the period ``POST /v1/research`` would answer the question for, without
    answering it; ``conflict`` when it would refuse it as ``period_conflict`` instead."""

    income_year: int
    as_of: date | None = Field(default=None, description="The day, when one was given or named.")
    start: date = Field(description="First day of the income year (1 July).")
    end: date = Field(description="Last day of the income year (30 June, inclusive).")
    source: ScopeSourceName = Field(description="Where the period came from.")
    matched: str = Field(description="The words or parameter it came from.")
    conflict: PeriodConflictOut | None = None


class StageEventData(BaseModel):
    """The ``stage`` event of ``POST /v1/research/stream``: a finished stage and what it found."""

    model_config = ConfigDict(frozen=True, extra="allow")

    stage: str
    ms: float = Field(ge=0.0)


class StreamError(ErrorBody):
    """The ``error`` event of the stream: the status ``POST /v1/research`` would have answered."""

    status: int = Field(ge=400, le=599)


class ResearchHealth(_Reply):
    """``GET /healthz``: 200 when every dependency answers and the index is ready; else 503, with
    ``building`` while the index is being built (``build`` says how far) and ``unavailable``
    otherwise (the failing checks false; ``build`` says why the last build failed, if it did)."""

    status: Literal["ok", "building", "unavailable"]
    checks: dict[str, bool]
    message: str = Field(default="", description="Why it is not ok, e.g. 'index building, 42% done (...)'.")
    build: IndexBuild | None = Field(default=None, description="The index's build running now, or its last one.")


class UnavailableBody(ErrorBody):
    """503 of a question: a dependency is down (``dependency_unavailable``), the index is being
    built (``index_building``, with ``Retry-After``) or its build failed (``index_build_failed``);
    for the last two, ``build`` says how far it got or why it failed. Never an answer from a
    partial index."""

    build: IndexBuild | None = Field(
        default=None, description="The index's build, for index_building and index_build_failed."
    )


class ProvisionOnDay(_Reply):
    """``GET /v1/provisions/{act}/{provision}?as_of=``: which version was in force that day."""

    status: Status = Field(description="How the day resolved (see asat_corpus.resolution).")
    message: str
    version_id: str | None
