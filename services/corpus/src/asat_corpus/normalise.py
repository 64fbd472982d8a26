"""The one text normalisation used for verification, everywhere.

``normalise(text)``:

1. Unicode NFKC (ligatures, full-width forms, non-breaking spaces become their plain forms);
2. U+2010 HYPHEN and U+2011 NON-BREAKING HYPHEN become ``-`` (NFKC leaves U+2010 alone and
   maps U+2011 to U+2010);
3. every run of whitespace (spaces, tabs, newlines, any Unicode space) becomes one space;
4. leading and trailing whitespace is removed.

Nothing else changes: case, punctuation, en and em dashes, asterisks and digits are kept, so a
quote that verifies after normalisation says exactly what its source says.

``normalise_text(text)`` gives the same string together with, for every output character, the
range of original characters that produced it, so a match found in the normalised text can be
reported (and highlighted) as an exact range of the original.

NFKC is not a per-character mapping: it reorders combining marks and composes across
characters (``e`` + U+0301 becomes ``é``; a Hangul leading and vowel jamo become one syllable).
The original is therefore cut into *segments* that start at a stable character (one whose
decomposition starts with a character of combining class 0 that never composes with what comes
before it); NFKC of the whole equals the concatenation of NFKC of each segment, and every output
character of a segment maps to the whole segment.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from dataclasses import dataclass
from functools import cache

_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-"})
_WHITESPACE = re.compile(r"\s+")

# Hangul jamo that compose with the character before them (L+V -> LV, LV+T -> LVT).
_HANGUL_V = range(0x1161, 0x1176)
_HANGUL_T = range(0x11A8, 0x11C3)


def normalise(text: str) -> str:
    """Return ``text`` in the canonical form used to compare a quote with its source."""
    folded = unicodedata.normalize("NFKC", text).translate(_HYPHENS)
    return _WHITESPACE.sub(" ", folded).strip()


@dataclass(frozen=True)
class NormalisedText:
    """``text`` is ``normalise(original)``; output character ``i`` came from
    ``original[starts[i]:ends[i]]`` (a whole segment, or a whole whitespace run for a space)."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def original_range(self, start: int, end: int) -> tuple[int, int]:
        """The range ``[a, b)`` of the original covering normalised characters ``[start, end)``.

        It is the smallest range made of whole segments that produced those characters; when the
        match starts and ends on segment boundaries ``normalise(original[a:b])`` equals
        ``text[start:end]``. An empty range maps to an empty range at the mapped position.
        """
        if not 0 <= start <= end <= len(self.text):
            raise ValueError(
                f"range [{start}, {end}) is outside the normalised text of length {len(self.text)}; "
                "pass offsets into NormalisedText.text"
            )
        if start == end:
            at = self.starts[start] if start < len(self.starts) else (self.ends[-1] if self.ends else 0)
            return at, at
        return self.starts[start], self.ends[end - 1]


@cache
def _composing_secondaries() -> frozenset[int]:
    """Code points that canonical composition can join onto the character before them."""
    found: set[int] = set(_HANGUL_V) | set(_HANGUL_T)
    for code in range(sys.maxunicode + 1):
        decomposition = unicodedata.decomposition(chr(code))
        if decomposition and not decomposition.startswith("<"):
            parts = decomposition.split()
            if len(parts) == 2:
                found.add(int(parts[1], 16))
    return frozenset(found)


@cache
def _starts_segment(char: str) -> bool:
    """True when NFKC cannot join ``char`` with anything before it."""
    first = unicodedata.normalize("NFKD", char)[0]
    return unicodedata.combining(first) == 0 and ord(first) not in _composing_secondaries()


def _segments(text: str) -> list[tuple[int, int]]:
    bounds: list[tuple[int, int]] = []
    start = 0
    for index in range(1, len(text)):
        char = text[index]
        # ASCII is stable under NFKC and never a composing secondary: skip the lookup.
        if char < "\x80" or _starts_segment(char):
            bounds.append((start, index))
            start = index
    if text:
        bounds.append((start, len(text)))
    return bounds


def normalise_text(text: str) -> NormalisedText:
    """Normalise ``text`` and keep, for every output character, the original range it came from.

    ``normalise_text(t).text == normalise(t)`` for every string ``t``.
    """
    folded: list[str] = []
    folded_starts: list[int] = []
    folded_ends: list[int] = []
    for start, end in _segments(text):
        segment = text[start:end]
        piece = segment if segment < "\x80" and len(segment) == 1 else unicodedata.normalize("NFKC", segment)
        folded.append(piece)
        folded_starts.extend([start] * len(piece))
        folded_ends.extend([end] * len(piece))
    nfkc = "".join(folded).translate(_HYPHENS)

    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    position = 0
    for run in _WHITESPACE.finditer(nfkc):
        run_start, run_end = run.span()
        out.append(nfkc[position:run_start])
        starts.extend(folded_starts[position:run_start])
        ends.extend(folded_ends[position:run_start])
        if run_start > 0 and run_end < len(nfkc):  # interior run: one space; edge runs are stripped
            out.append(" ")
            starts.append(folded_starts[run_start])
            ends.append(folded_ends[run_end - 1])
        position = run_end
    out.append(nfkc[position:])
    starts.extend(folded_starts[position:])
    ends.extend(folded_ends[position:])
    return NormalisedText(text="".join(out), starts=tuple(starts), ends=tuple(ends))


def normalise_with_map(text: str) -> tuple[str, list[int]]:
    """Normalise ``text`` and map each output character back to an index in ``text``.

    ``mapping[i]`` is the index in ``text`` where the original characters that produced output
    character ``i`` start; ``mapping[len(out)]`` is ``len(text)``. For the exact original range
    of a match (end included), use ``normalise_text(text).original_range``.
    """
    normalised = normalise_text(text)
    return normalised.text, [*normalised.starts, len(text)]
