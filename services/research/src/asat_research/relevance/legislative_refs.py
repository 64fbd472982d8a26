"""The provisions an ATO Interpretative Decision cites, read from its "Legislative References" (pure).

A line names an Act, then its provisions: ``Income Tax Assessment Act 1997   section 70-35
subsection 70-45(1A)``. Each reference becomes the section it sits in (``70-45``) and, where
given, its first subsection label (``(1A)``). An Act the corpus does not hold keeps its name and
no slug, so a decision that cites only such Acts is an example of a question the corpus cannot
answer. Schedule 1 to the TAA 1953 is written ``sch1-12-35``, as the corpus numbers it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

_ACT_NAME = re.compile(
    r"^\s*(?P<name>.*?\b(?:Act|Regulations?|Code)\s+\d{4}(?:\s*\((?:Cth|Vic|NSW|Qld|WA|SA|Tas|ACT|NT)\))?)"
)
_REFERENCE = re.compile(
    r"\b(?:sub-?)?(?:sub-?)?(?:sections?|paragraphs?|clauses?|items?|s)\s+"
    r"(?P<number>\d{1,4}[A-Z]{0,5}(?:-\d{1,4}[A-Z]{0,4})?)(?P<label>\(\d{1,3}[A-Z]{0,3}\))?",
    re.IGNORECASE,
)
_BARE_HYPHENATED = re.compile(
    r"(?<![\w(-])(?P<number>\d{1,4}[A-Z]{0,3}-\d{1,4}[A-Z]{0,3})(?P<label>\(\d{1,3}[A-Z]{0,3}\))?"
)


def _clean_name(name: str) -> str:
    name = name.replace("&", "and").replace("’", "'")
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class ActNames:
    """Act titles (as in ``SOURCES.json``) to slugs, compared case- and space-insensitively."""

    by_name: Mapping[str, str]

    @classmethod
    def from_titles(cls, titles: Mapping[str, str]) -> ActNames:
        """``titles``: title -> slug."""
        return cls({_clean_name(title): slug for title, slug in titles.items()})

    def slug(self, name: str) -> str | None:
        return self.by_name.get(_clean_name(name))


@dataclass(frozen=True)
class LegislativeRef:
    act_name: str
    act: str | None  # slug, None when the corpus does not hold the Act
    number: str | None  # the section ("70-45", "sch1-12-35"); None for a whole Act, Part or Division
    label: str | None = None  # "(1A)" where the reference names a subsection

    @property
    def held(self) -> bool:
        return self.act is not None


def references_block(text: str) -> str:
    """The lines of the "Legislative References:" block of a decision ("" when it has none)."""
    start = text.find("Legislative References:")
    if start < 0:
        return ""
    block = text[start + len("Legislative References:") :]
    lines: list[str] = []
    for line in block.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if _ACT_NAME.match(stripped) is None:
            if lines or stripped.startswith(("Related", "Keywords", "Case", "Other", "Business", "Date")):
                break
            continue
        lines.append(stripped)
    return "\n".join(lines)


def parse_references(block: str, acts: ActNames) -> tuple[LegislativeRef, ...]:
    """Every reference of the block, one per (Act, section, label), in order."""
    found: dict[tuple[str, str | None, str | None], LegislativeRef] = {}
    for line in block.splitlines():
        match = _ACT_NAME.match(line)
        if match is None:
            continue
        name = " ".join(match.group("name").split())
        slug = acts.slug(name)
        rest = line[match.end() :]
        numbers: list[tuple[str, str | None]] = []
        for ref in _REFERENCE.finditer(rest):
            numbers.append((ref.group("number").upper(), ref.group("label")))
        covered = {n for n, _ in numbers}
        for ref in _BARE_HYPHENATED.finditer(rest):
            number = ref.group("number").upper()
            if number not in covered:
                numbers.append((number, ref.group("label")))
                covered.add(number)
        if not numbers:
            key: tuple[str, str | None, str | None] = (name, None, None)
            found.setdefault(key, LegislativeRef(name, slug, None))
            continue
        for number, label in numbers:
            if slug == "taa1953" and "-" in number:  # hyphenated TAA 1953 sections are Schedule 1's
                number = f"sch1-{number}"
            key = (name, number, label)
            found.setdefault(key, LegislativeRef(name, slug, number, label.upper() if label else None))
    return tuple(found.values())
