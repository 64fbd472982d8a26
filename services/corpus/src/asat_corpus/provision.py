"""Provisions as parsed from one compilation, and provision versions with validity intervals."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum

from asat_corpus.act import ActRef
from asat_corpus.validity import in_force_on


@dataclass(frozen=True)
class Subsection:
    """A subsection (or the unlabelled body) of a provision: ``text[start:end]``."""

    label: str  # "(1)", "(2A)"; "" for text before the first labelled subsection
    start: int
    end: int


@dataclass(frozen=True)
class ParsedProvision:
    """One section as it appears in one compilation (an observation, not yet dated).

    ``number`` is the provision id: the number as printed (``8-1``, ``109D``), with Schedule 1
    to the TAA 1953 written ``sch1-12-35``. ``text`` is the canonical text of the body (heading
    excluded): one block per line (subsection, paragraph, note, example, in-section heading),
    wrapped lines joined with one space, leading indentation removed.
    """

    act: str
    register_id: str
    number: str
    heading: str
    hierarchy: tuple[str, ...]
    text: str
    subsections: tuple[Subsection, ...]
    source_file: str
    source_line: int


class BoundMethod(StrEnum):
    """How one end of a validity interval was established."""

    ACT_COMMENCEMENT = "act_commencement"  # the Act's own commencement (provision never amended)
    AMENDMENT_COMMENCEMENT = "amendment_commencement"  # commencement of an amending Act (Endnotes 3+4)
    COMMENCEMENT_SHRUNK = "commencement_uncertain_shrunk"  # several or unparsed dates: the safe end taken
    COMPILATION_DATE = "compilation_date"  # only the compilation date is certain
    OPEN = "open"  # current: no later change known


@dataclass(frozen=True)
class Bound:
    """One end of an interval and the evidence for it.

    ``day`` is the certain end: for a start, the latest day it may be; for an end, the earliest.
    Where the day is uncertain, ``widest`` is the other extreme (the earliest possible start, the
    latest possible end), ``candidates`` the commencement dates still possible (Endnote 3, narrowed
    by the compilations) and ``retrospective`` whether one of them is before the Act's assent.
    """

    day: date | None
    method: BoundMethod
    acts: tuple[ActRef, ...] = ()
    detail: str = ""
    widest: date | None = None
    candidates: tuple[date, ...] = ()
    retrospective: bool = False

    @property
    def uncertain(self) -> bool:
        return self.widest is not None and self.widest != self.day


@dataclass(frozen=True)
class ProvisionVersion:
    """One text of a provision and the interval ``[valid_from, valid_to)`` it was in force.

    ``valid_to`` is exclusive and ``None`` while current. ``income_years`` lists every income
    year in which the version was in force for at least one day.
    """

    id: str
    act: str
    number: str
    heading: str
    hierarchy: tuple[str, ...]
    text: str
    subsections: tuple[Subsection, ...]
    register_ids: tuple[str, ...]
    authorised: bool
    valid_from: date
    valid_to: date | None
    from_bound: Bound
    to_bound: Bound
    income_years: tuple[int, ...]
    content_hash: str
    # Known time (issue 24 item 3): [known_from, known_to) is when this was the text on the books,
    # from its first held compilation until a later compilation or an amending Act changed it.
    known_from: date | None = None
    known_to: date | None = None
    known_from_bound: Bound | None = None
    known_to_bound: Bound | None = None
    compilation_dates: tuple[date, ...] = ()  # of the held compilations showing this text

    def in_force_on(self, day: date) -> bool:
        return in_force_on(self.valid_from, self.valid_to, day)

    def known_on(self, day: date) -> bool:
        """Whether this was the text on the books on ``day`` (the law as it then stood)."""
        return self.known_from is not None and in_force_on(self.known_from, self.known_to, day)


@dataclass(frozen=True)
class VersionGap:
    """A period in which the provision was in force but its text is not held."""

    act: str
    number: str
    start: date
    end: date  # exclusive
    acts: tuple[ActRef, ...]
    reason: str
    # Where one amending Act changed the text once between two held texts and only its
    # commencement is uncertain, the text on each day of the gap is one of these two versions
    # (earlier id, later id): servable with a caveat naming ``acts`` and ``candidates``.
    between: tuple[str, str] | None = None
    candidates: tuple[date, ...] = ()
    retrospective: bool = False

    @property
    def one_of_two_held_texts(self) -> bool:
        return self.between is not None


@dataclass(frozen=True)
class TextComparison:
    """Two adjacent texts with no amendment recorded between them, and whether they are one
    version (issue 24 item 1; see :mod:`asat_corpus.conversion_noise`)."""

    earlier_register_id: str
    later_register_id: str
    merged: bool
    verdict: str
    similarity: float
    cause: str
    diff: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProvisionTimeline:
    """Everything known about one provision over time."""

    act: str
    number: str
    versions: tuple[ProvisionVersion, ...]
    gaps: tuple[VersionGap, ...]
    added_by: ActRef | None = None
    repealed_by: ActRef | None = None
    notes: tuple[str, ...] = field(default=())
    comparisons: tuple[TextComparison, ...] = field(default=())
