"""A retrieved source as sent to the verifier: its text and the version it came from."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _iso_day(value: object) -> object:
    """Accept a date or a ``YYYY-MM-DD`` string only (not a number or a timestamp)."""
    if value is None or (isinstance(value, date) and not isinstance(value, datetime)):
        return value
    if isinstance(value, str) and _ISO_DAY.fullmatch(value):
        return value
    raise ValueError("a day must be written YYYY-MM-DD")


IsoDay = Annotated[date, BeforeValidator(_iso_day)]


class SourceRef(BaseModel):
    """One source text (a provision version, a chunk or a ruling paragraph) and its version metadata.

    ``text`` is the exact text the quote ranges index into.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(min_length=1, description="Stable id, e.g. a provision version id or a chunk id.")
    text: str = Field(description="The source text exactly as retrieved; ranges in the reply index it.")
    act: str | None = Field(default=None, description="Act short name, e.g. 'ITAA1997'.")
    provision: str | None = Field(default=None, description="Provision number, e.g. '8-1' or '109D'.")
    register_id: str | None = Field(default=None, description="Federal Register id of the compilation.")
    version_id: str | None = Field(default=None, description="Provision version id.")
    valid_from: IsoDay | None = Field(default=None, description="First day the version was in force.")
    valid_to: IsoDay | None = Field(default=None, description="Day after the last day in force (exclusive).")
