"""``GET /v1/sources/{source_id}`` of the research service: a cited text and its provision's timeline.

The timeline (``asat_research.timeline_view``) holds, sorted by ``valid_from``, the provision's
versions, the gaps where its text is not held, and the amending Acts that reached back before
their assent (retrospective), each told apart by ``type``.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from asat_corpus.provision import BoundMethod


class _Reply(BaseModel):
    model_config = ConfigDict(frozen=True)


class BoundOut(_Reply):
    """One end of an interval and its evidence."""

    day: str | None = Field(description="The certain day (YYYY-MM-DD); null for an open end.")
    widest: str | None = Field(description="Where uncertain: the furthest day the end may reach.")
    uncertain: bool
    candidates: tuple[str, ...] = Field(description="The candidate commencements, where uncertain.")
    acts: tuple[str, ...] = Field(description="The amending Acts behind this end.")
    method: BoundMethod
    detail: str
    retrospective: bool


class TimelineVersion(_Reply):
    type: Literal["version"]
    id: str
    valid_from: str
    valid_to: str | None = Field(description="Exclusive; null while current.")
    register_ids: tuple[str, ...]
    valid_from_bound: BoundOut | None
    valid_to_bound: BoundOut | None
    known_from: str | None = Field(description="First day the text was on the books (known time).")
    known_to: str | None
    known_from_bound: BoundOut | None
    known_to_bound: BoundOut | None
    compilation_dates: tuple[str, ...]
    authorised: bool


class TimelineGap(_Reply):
    type: Literal["gap"]
    valid_from: str
    valid_to: str
    acts: tuple[str, ...]
    reason: str
    held: Literal["one_of_two", "not_held"] = Field(
        description="'one_of_two': the text is one of the two held texts `between`, only the commencement is "
        "uncertain; 'not_held': the text is not held."
    )
    between: tuple[str, str] | None
    candidates: tuple[str, ...]
    retrospective: bool


class TimelineRetrospective(_Reply):
    type: Literal["retrospective"]
    act: str
    assent: str
    commencement: str = Field(description="The earliest day the Act reached back to.")
    candidates: tuple[str, ...]
    valid_from: str
    valid_to: str


TimelineItem = Annotated[TimelineVersion | TimelineGap | TimelineRetrospective, Field(discriminator="type")]


class ThenStoodOut(_Reply):
    """A stretch in which this text was on the books while the law as it now stands is not held."""

    version_id: str
    start: date
    end: date = Field(description="Exclusive.")
    caveat: str
    gap_start: date | None = None


class SourceOut(_Reply):
    """A provision version or a ruling, its text exactly as quoted, and (for a provision) its timeline."""

    id: str
    kind: str = Field(description="'provision' or 'ruling'.")
    text: str = Field(description="The text quote ranges index into.")
    title: str
    act: str | None
    provision: str | None
    register_ids: tuple[str, ...]
    authorised: bool
    valid_from: date | None
    valid_to: date | None
    income_years: tuple[int, ...]
    status: str | None = None
    then_stood: tuple[ThenStoodOut, ...] = ()
    timeline: tuple[TimelineItem, ...] | None = Field(
        default=None, description="The provision's timeline; absent for a ruling."
    )
