"""Hyphens the gitlaw conversion lost from provision numbers, and their recovery.

The converter dropped every hyphen, so section ``328-110`` is printed ``328110`` and
Subdivision ``328-C`` is printed ``328C``. Inside a Division that uses the ``N-N`` scheme the
number is split after the Division number; in body text a reference is restored only when its
digits name exactly one provision known in the same compilation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_SECTION_SUFFIX = re.compile(r"[1-9]\d*[A-Z]*")
_PART_SUFFIX = re.compile(r"[1-9]\d*")
_SUBDIVISION_SUFFIX = re.compile(r"[A-Z]+")
_NUMBER = r"\d[0-9A-Z]*"
_REFERENCE_WORDS = r"sections?|subsections?|paragraphs?|subparagraphs?|Subdivisions?|ss?\.?"
_REFERENCE = re.compile(
    rf"(?<![\w'\u2019])(?:{_REFERENCE_WORDS})\s+"
    rf"{_NUMBER}(?:\([0-9A-Za-z]+\))*"
    rf"(?:(?:\s*,\s*|\s+(?:and|or|to)\s+|\s*,\s*(?:and|or)\s+){_NUMBER}(?:\([0-9A-Za-z]+\))*)*",
    re.IGNORECASE,
)
_NUMBER_IN_REFERENCE = re.compile(rf"(?<![0-9A-Za-z(-]){_NUMBER}(?![0-9A-Za-z-])")


def split_section_number(printed: str, division: str) -> str | None:
    """``328110`` in Division ``328`` is ``328-110``; ``None`` if it cannot be split so."""
    if not printed.startswith(division):
        return None
    suffix = printed[len(division) :]
    return f"{division}-{suffix}" if _SECTION_SUFFIX.fullmatch(suffix) else None


def split_subdivision_number(printed: str, division: str) -> str | None:
    """``328C`` in Division ``328`` is ``328-C``; ``None`` if it cannot be split so."""
    if not printed.startswith(division):
        return None
    suffix = printed[len(division) :]
    return f"{division}-{suffix}" if _SUBDIVISION_SUFFIX.fullmatch(suffix) else None


def split_part_number(printed: str, chapter: str) -> str | None:
    """``215`` in Chapter ``2`` is ``2-15``; ``None`` if it cannot be split so."""
    if not printed.startswith(chapter):
        return None
    suffix = printed[len(chapter) :]
    return f"{chapter}-{suffix}" if _PART_SUFFIX.fullmatch(suffix) else None


def reference_index(known_numbers: Iterable[str]) -> dict[str, str | None]:
    """Map each number with its hyphens removed to the one number it stands for.

    A key that stands for two different numbers (``1-11`` and ``11-1``) maps to ``None``.
    """
    index: dict[str, str | None] = {}
    for number in known_numbers:
        key = number.replace("-", "")
        if key in index and index[key] != number:
            index[key] = None
        else:
            index[key] = number
    return index


def restore_reference_hyphens(text: str, known_numbers: Iterable[str]) -> tuple[str, int]:
    """Restore the hyphens of provision numbers cited after a reference word.

    ``subsection 328110(5)`` becomes ``subsection 328-110(5)`` when ``328-110`` is the only
    known number whose digits are ``328110``. Numbers not preceded by a reference word
    (``section``, ``subsections``, ``paragraph``, ``Division``, ``Subdivision``, ``s``,
    ``ss``...), or in a list that follows one (``sections 328110 to 328125``), and numbers
    matching no or several known numbers, are left alone. Returns the text and the count of
    numbers restored.
    """
    index = reference_index(known_numbers)
    restored = 0

    def fix_number(match: re.Match[str]) -> str:
        nonlocal restored
        digits = match.group(0)
        target = index.get(digits)
        if target is None or target == digits:
            return digits
        restored += 1
        return target

    def fix_reference(match: re.Match[str]) -> str:
        return _NUMBER_IN_REFERENCE.sub(fix_number, match.group(0))

    return _REFERENCE.sub(fix_reference, text), restored
