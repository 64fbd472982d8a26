"""The ``asat-gold/1`` format as Pydantic v2 models (a file edge: plain data once loaded)."""

from __future__ import annotations

from collections import Counter
from datetime import date
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from asat_corpus.income_year import MAX_INCOME_YEAR, MIN_INCOME_YEAR

SCHEMA_ID = "asat-gold/1"

# Tags of the authority union; dropped from error locations so fields read ``gold[0].act``.
PROVISION_TAG = "provision-ref"
RULING_TAG = "ruling-ref"


class Expect(StrEnum):
    ANSWER = "answer"
    ABSTAIN = "abstain"
    REJECT_PREMISE = "reject_premise"


class ProvisionRef(BaseModel):
    """A provision of an Act: ``{act: itaa1997, provision: "328-110"}``, optionally pinned to a compilation."""

    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)

    act: Annotated[str, Field(min_length=1, pattern=r"^[a-z][a-z0-9]*$")]
    provision: Annotated[str, Field(min_length=1, pattern=r"^\S+$")]
    register_id: Annotated[str, Field(pattern=r"^[A-Z]\d{4}[A-Z]\d{5}$")] | None = None

    def label(self) -> str:
        pinned = f" ({self.register_id})" if self.register_id else ""
        return f"{self.act} {self.provision}{pinned}"


class RulingRef(BaseModel):
    """A ruling or ATO document as the ATO cites it: ``{ruling: "TR 2020/1"}``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ruling: Annotated[str, Field(min_length=1)]

    def label(self) -> str:
        return self.ruling


def _authority_kind(value: Any) -> str:
    if isinstance(value, RulingRef) or (isinstance(value, dict) and "ruling" in value):
        return RULING_TAG
    return PROVISION_TAG


Authority = Annotated[
    Annotated[ProvisionRef, Tag(PROVISION_TAG)] | Annotated[RulingRef, Tag(RULING_TAG)],
    Discriminator(_authority_kind),
]

IncomeYear = Annotated[int, Field(strict=True, ge=MIN_INCOME_YEAR, le=MAX_INCOME_YEAR)]
Quote = Annotated[str, Field(min_length=1)]


class GoldCase(BaseModel):
    """One question, the date it is asked for, and what a right answer must (and must not) do."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Annotated[str, Field(min_length=1)]
    question: Annotated[str, Field(min_length=1)]
    income_year: IncomeYear | None = None
    as_of: date | None = None
    expect: Expect
    gold: tuple[Authority, ...] = ()
    must_quote_any: tuple[Quote, ...] = ()
    must_not_cite: tuple[Authority, ...] = ()
    must_not_quote: tuple[Quote, ...] = ()
    tags: tuple[Annotated[str, Field(min_length=1)], ...] = ()
    notes: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> GoldCase:
        if (self.income_year is None) == (self.as_of is None):
            given = "both" if self.income_year is not None else "neither"
            raise ValueError(f"give exactly one of income_year or as_of (this case gives {given})")
        if self.as_of is not None and not MIN_INCOME_YEAR <= self.as_of.year <= MAX_INCOME_YEAR:
            raise ValueError(f"as_of {self.as_of} is outside the years {MIN_INCOME_YEAR}-{MAX_INCOME_YEAR}")
        if self.expect is not Expect.ABSTAIN and not self.gold:
            raise ValueError(f"expect: {self.expect.value} needs at least one gold authority (gold is empty)")
        return self


class GoldSuite(BaseModel):
    """A whole suite file: ``schema: asat-gold/1`` and its cases, with ids unique in the file."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    schema_id: Literal["asat-gold/1"] = Field(alias="schema")
    cases: Annotated[tuple[GoldCase, ...], Field(min_length=1)]

    @model_validator(mode="after")
    def _unique_ids(self) -> GoldSuite:
        repeated = sorted(case_id for case_id, count in Counter(c.id for c in self.cases).items() if count > 1)
        if repeated:
            raise ValueError(f"case ids must be unique in the file; repeated: {', '.join(repeated)}")
        return self
