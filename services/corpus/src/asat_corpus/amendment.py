"""Amendment history read from the endnotes: Endnote 3 (Acts) and Endnote 4 (provisions)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum

from asat_corpus.act import ActRef


@dataclass(frozen=True)
class Commencement:
    """A commencement as written, and what could be read from it with confidence.

    ``dates`` holds every commencement date found in the text (an Act often commences in
    parts on different days). ``confident`` is False when any part of the text could not be
    read as a date (for example "a single day to be fixed by Proclamation"), so callers must
    shrink intervals rather than widen them. Parts that never commenced or were repealed before
    commencing changed nothing and are not a cause of doubt.
    """

    text: str
    dates: tuple[date, ...]
    confident: bool

    @property
    def earliest(self) -> date | None:
        return min(self.dates) if self.dates else None

    @property
    def latest(self) -> date | None:
        return max(self.dates) if self.dates else None


@dataclass(frozen=True)
class AmendingAct:
    """One row of Endnote 3 (legislation history)."""

    compiled_act: str  # act_slug of the Act whose endnotes list it
    ref: ActRef
    title: str
    assent: date | None
    commencement: Commencement
    source_file: str
    source_line: int
    amends_amending_act: bool = False  # an "as amended by" row


class AmendmentKind(StrEnum):
    ADDED = "ad"
    AMENDED = "am"
    REPEALED_AND_SUBSTITUTED = "rs"
    REPEALED = "rep"
    RELOCATED = "reloc"
    RENUMBERED = "renum"
    EXPIRED = "exp"
    OTHER = "other"


@dataclass(frozen=True)
class AmendmentEntry:
    """One (provision, kind, Act) fact from Endnote 4.

    ``provision`` is the provision id in the same form as ``ParsedProvision.number`` when the
    target is a section (``328-110``, ``109D``, ``sch1-12-35``), else ``None``; ``target`` is
    the row label as written (``s 328-110``, ``Subdivision 328-C heading``).
    """

    compiled_act: str
    target: str
    provision: str | None
    kind: AmendmentKind
    act: ActRef
    source_file: str
    source_line: int
