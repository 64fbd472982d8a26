"""``POST /v1/verify``: request and reply of the verifier.

A quote is verified when its source was given and retrieved, the claim cites that source, the
quote is long enough (25 characters and 4 words, after normalisation) and, normalised, it is an
exact substring of the normalised source. A claim is verified when it has at least one quote,
every quote verified and the groundedness scorer judged it grounded by those quotes.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from asat_corpus.contracts.claims import Claim
from asat_corpus.contracts.sources import SourceRef
from asat_corpus.normalise import normalise

MIN_QUOTE_CHARS = 25
MIN_QUOTE_WORDS = 4


def too_short_to_quote(text: str) -> bool:
    """Shorter, once normalised as the verifier normalises it, than a quote may be."""
    normalised = normalise(text)
    return len(normalised) < MIN_QUOTE_CHARS or len(normalised.split()) < MIN_QUOTE_WORDS


class QuoteFailure(StrEnum):
    """Why a quote did not verify (checked in this order; the first that applies is reported)."""

    UNKNOWN_SOURCE = "unknown_source"  # no source with that id in the request
    SOURCE_NOT_RETRIEVED = "source_not_retrieved"  # given, but not in retrieved_source_ids
    SOURCE_NOT_CITED = "source_not_cited"  # the claim's source_ids do not include it
    TOO_SHORT = "too_short"  # under MIN_QUOTE_CHARS characters or MIN_QUOTE_WORDS words
    NOT_A_SUBSTRING = "not_a_substring"  # not in the source, even after normalisation


class ClaimFailure(StrEnum):
    """Why a claim is not verified (every reason that applies is reported)."""

    NO_QUOTES = "no_quotes"
    QUOTE_NOT_VERIFIED = "quote_not_verified"
    UNKNOWN_CITED_SOURCE = "unknown_cited_source"  # a source_id with no source in the request
    CITED_SOURCE_NOT_RETRIEVED = "cited_source_not_retrieved"
    NOT_GROUNDED = "not_grounded"  # the groundedness scorer's verdict; see findings


class GroundednessCheck(StrEnum):
    """The check behind a groundedness finding."""

    NUMBER = "number"
    MONEY = "money"
    PERCENTAGE = "percentage"
    DATE = "date"
    PROVISION = "provision"
    NEGATION = "negation"
    OVERLAP = "overlap"
    ENTAILMENT = "entailment"
    EVIDENCE = "evidence"  # nothing to judge the claim against


class VerificationRequest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    claims: list[Claim]
    sources: list[SourceRef]
    retrieved_source_ids: list[str] = Field(
        description="Ids of the sources retrieval returned for this query; quotes must come from these."
    )

    @model_validator(mode="after")
    def _ids_are_unique(self) -> VerificationRequest:
        for kind, ids in (("source", [s.id for s in self.sources]), ("claim", [c.id for c in self.claims])):
            seen: set[str] = set()
            for item_id in ids:
                if item_id in seen:
                    raise ValueError(f"{kind} id {item_id!r} appears more than once; ids must be unique")
                seen.add(item_id)
        return self


class QuoteVerdict(BaseModel):
    model_config = ConfigDict(frozen=True)

    source_id: str
    text: str
    verified: bool
    reason: QuoteFailure | None = Field(default=None, description="Set when verified is false.")
    message: str = Field(description="What was found, for a person.")
    start: int | None = Field(default=None, description="Match start in the ORIGINAL source text.")
    end: int | None = Field(default=None, description="Match end (exclusive) in the ORIGINAL source text.")


class GroundednessFinding(BaseModel):
    model_config = ConfigDict(frozen=True)

    check: GroundednessCheck
    passed: bool
    message: str


class ClaimReason(BaseModel):
    model_config = ConfigDict(frozen=True)

    code: ClaimFailure
    message: str


class ClaimVerdict(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    verified: bool
    grounded: bool
    groundedness_score: float = Field(ge=0.0, le=1.0)
    reasons: list[ClaimReason] = Field(description="Empty when verified.")
    findings: list[GroundednessFinding] = Field(description="The groundedness checks run, passed or not.")
    quotes: list[QuoteVerdict]


class VerificationResponse(BaseModel):
    model_config = ConfigDict(frozen=True)

    scorer: str = Field(description="Groundedness scorer that judged the claims, e.g. 'deterministic'.")
    claims: list[ClaimVerdict]
    verified: bool = Field(description="True when every claim verified.")
