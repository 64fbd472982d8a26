"""The Generator port: two passes over numbered sentence spans.

Pass 1 (``select``) picks the spans that bear on the question. Pass 2 (``write``) writes claims
from the selected spans only, each citing span keys. A model never returns quote text: the
pipeline materialises each quote from the cited span and has it verified independently. Span
keys are short (``S1``, ``S2`` ...) and the JSON schema's key field is an ``enum`` of exactly
the keys shown, where the API supports schemas.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class GenerationError(Exception):
    """The provider failed or answered outside the contract; the message says which and why."""


@dataclass(frozen=True)
class NumberedSpan:
    key: str  # "S1"
    span_id: str  # "<chunk id>#s<n>"
    source_id: str  # provision version id or ruling id
    label: str  # "ITAA 1997 s 328-110(1) [in force 2012-04-15 to 2016-06-30, C2015C00285]"
    text: str
    relevance: float | None = None  # the reranker's score for the span's chunk, where it scored one
    lead: bool = False  # the span is in its provision's opening subsection (where the rule is stated)
    # The last span the text runs through, where a span too short to quote on its own ("(a) an
    # individual; or") was joined to the one before it: the text is the source from this span's
    # start to that span's end.
    through: str | None = None
    section_rank: int | None = None  # the place of the span's section among those offered (0 first)
    kind: str | None = None  # "provision" or "ruling", where the pipeline knows it


@dataclass(frozen=True)
class Selection:
    keys: tuple[str, ...]
    provider: str
    model: str


@dataclass(frozen=True)
class GeneratedClaim:
    text: str
    span_keys: tuple[str, ...]


@dataclass(frozen=True)
class Generation:
    claims: tuple[GeneratedClaim, ...]
    premise_rejected: bool
    provider: str  # as reported by the provider where it reports one
    model: str  # as reported by the provider where it reports one
    seed: int | None
    note: str = ""  # e.g. the extractive generator's "quotes, does not conclude"
    declined: str | None = None  # the generator would not answer this kind of question, and why
    # What read the quoted law as contradicting the question's premise: a fixed rule of
    # :mod:`asat_research.premise` ("figure", "exclusion", "eligibility", ...) or its contradiction
    # model ("model"); never set by a generation provider.
    premise_rule: str | None = None


class Generator(Protocol):
    name: str

    def select(self, question: str, spans: Sequence[NumberedSpan]) -> Selection: ...

    def write(self, question: str, spans: Sequence[NumberedSpan]) -> Generation: ...
