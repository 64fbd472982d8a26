"""An ATO Interpretative Decision read as supervision: its Issue, Decision, date and references (pure).

The Issue is a question about the law written by the people who decided it ("Whether ... under
section 27F of the ITAA 1936?"); the Legislative References list the provisions that answer it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from asat_corpus.text.months import FULL_MONTH_PATTERN, parse_day_month_year
from asat_research.relevance.legislative_refs import ActNames, LegislativeRef, parse_references, references_block

_DATE = re.compile(rf"\b(\d{{1,2}} (?:{FULL_MONTH_PATTERN}) \d{{4}})\b")


@dataclass(frozen=True)
class AidRecord:
    ruling_id: str  # "ATO ID 2003/217"
    issue: str
    decision: str
    decided: date | None
    references: tuple[LegislativeRef, ...]

    @property
    def held_references(self) -> tuple[LegislativeRef, ...]:
        return tuple(r for r in self.references if r.held and r.number is not None)


def _section(text: str, heading: str, following: tuple[str, ...]) -> str:
    """The text after a line that is exactly ``heading``, up to the next line that starts one of ``following``."""
    match = re.search(rf"(?m)^{re.escape(heading)}\s*$", text)
    if match is None:
        return ""
    body = text[match.end() :]
    ends = [m.start() for h in following if (m := re.search(rf"(?m)^{re.escape(h)}\s*$", body)) is not None]
    return " ".join(body[: min(ends) if ends else len(body)].split())


def _decision_date(text: str) -> date | None:
    index = text.find("Date of decision:")
    if index < 0:
        return None
    match = _DATE.search(text, index, index + 120)
    if match is None:
        return None
    return parse_day_month_year(match.group(1))


def read_aid(ruling_id: str, text: str, acts: ActNames) -> AidRecord | None:
    """The decision's parts, or None when it has no Issue to ask."""
    issue = _section(text, "Issue", ("Decision", "Facts"))
    if not issue:
        return None
    decision = _section(
        text, "Decision", ("Facts", "Reasons for Decision", "Reasons For Decision", "Date of decision:")
    )
    return AidRecord(
        ruling_id=ruling_id,
        issue=issue,
        decision=decision,
        decided=_decision_date(text),
        references=parse_references(references_block(text), acts),
    )


def names_provision(text: str, number: str) -> bool:
    """Whether ``text`` names section ``number`` (``sch1-12-35`` is named as ``12-35``)."""
    bare = number.removeprefix("sch1-")
    return re.search(rf"(?<![\w-]){re.escape(bare)}(?![\w-])", text, re.IGNORECASE) is not None


def mask_provision(text: str, number: str) -> str:
    """``text`` with each mention of section ``number`` (and its subsection labels) replaced by "the law"."""
    bare = number.removeprefix("sch1-")
    pattern = (
        rf"\b(?:(?:sub-?)?(?:sub-?)?(?:sections?|paragraphs?|s)\s+)?(?<![\w-]){re.escape(bare)}"
        rf"(?:\(\w{{1,4}}\))*(?![\w-])"
    )
    return " ".join(re.sub(pattern, "the law", text, flags=re.IGNORECASE).split())
