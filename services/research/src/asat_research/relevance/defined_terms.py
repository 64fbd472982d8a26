"""Defined terms and the sections that define them, read from the Acts' dictionaries (pure).

ITAA 1997 s 995-1, GST Act s 195-1 and FBTAA s 136 list terms one a line; an entry that says
``small business entity has the meaning given by section 328-110.`` points at the defining
section of its own Act.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

DICTIONARIES: Mapping[str, str] = {"itaa1997": "995-1", "gst1999": "195-1", "fbtaa1986": "136"}
_ENTRY = re.compile(
    r"^(?P<term>[A-Za-z0-9][\w ,'’%()-]{2,80}?) has the (?:same )?meaning given by "
    r"(?:section|subsection) (?P<number>\d{1,4}[A-Z]{0,4}(?:-\d{1,4}[A-Z]{0,3})?)(?:\(\w+\))*\.?$",
    re.MULTILINE,
)


@dataclass(frozen=True)
class DefinedTerm:
    term: str  # lower case
    act: str
    number: str  # the defining section


def dictionary_entries(act: str, text: str) -> tuple[DefinedTerm, ...]:
    """The entries of one dictionary section's text that point at a section of the same Act."""
    found: dict[str, DefinedTerm] = {}
    for match in _ENTRY.finditer(text):
        term = " ".join(match.group("term").replace("*", "").split()).casefold()
        if term.startswith(("in this act", "in this ")):
            continue
        found.setdefault(term, DefinedTerm(term, act, match.group("number").upper()))
    return tuple(found.values())


def terms_index(entries: Iterable[DefinedTerm]) -> dict[str, set[tuple[str, str]]]:
    """Term -> the (act, section) pairs defining it."""
    index: dict[str, set[tuple[str, str]]] = {}
    for entry in entries:
        index.setdefault(entry.term, set()).add((entry.act, entry.number))
    return index


def terms_in(question: str, index: Mapping[str, set[tuple[str, str]]], max_words: int = 6) -> set[tuple[str, str]]:
    """The defining sections of every defined term the question contains (longest phrases first)."""
    words = re.findall(r"[a-z0-9%'’-]+", question.casefold())
    found: set[tuple[str, str]] = set()
    for size in range(max_words, 0, -1):
        for i in range(len(words) - size + 1):
            phrase = " ".join(words[i : i + size])
            if phrase in index and (size > 1 or len(phrase) >= 9):
                found |= index[phrase]
    return found
