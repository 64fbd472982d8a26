"""A claim of an answer and the verbatim quotes that support it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class Quote(BaseModel):
    """A verbatim quote from one source."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source_id: str = Field(min_length=1, description="Id of the source the quote is taken from.")
    text: str = Field(description="The quote; must be a substring of the source after normalisation.")


class Claim(BaseModel):
    """One statement of an answer, the sources it cites and its supporting quotes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1)
    text: str = Field(description="The statement made to the user.")
    source_ids: list[str] = Field(default_factory=list, description="Sources the claim cites.")
    quotes: list[Quote] = Field(default_factory=list)
