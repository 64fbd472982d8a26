"""The one text normalisation used for verification, everywhere.

``normalise(text)``:

1. Unicode NFKC (ligatures, full-width forms, non-breaking spaces become their plain forms);
2. U+2010 HYPHEN and U+2011 NON-BREAKING HYPHEN become ``-`` (NFKC leaves U+2010 alone and
   maps U+2011 to U+2010);
3. every run of whitespace (spaces, tabs, newlines, any Unicode space) becomes one space;
4. leading and trailing whitespace is removed.

Nothing else changes: case, punctuation, en and em dashes, asterisks and digits are kept, so a
quote that verifies after normalisation says exactly what its source says.
"""

from __future__ import annotations

import re
import unicodedata

_HYPHENS = str.maketrans({"\u2010": "-", "\u2011": "-"})
_WHITESPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Return ``text`` in the canonical form used to compare a quote with its source."""
    folded = unicodedata.normalize("NFKC", text).translate(_HYPHENS)
    return _WHITESPACE.sub(" ", folded).strip()


def normalise_with_map(text: str) -> tuple[str, list[int]]:
    """Normalise ``text`` and map each output character back to an index in ``text``.

    ``mapping[i]`` is the index in ``text`` of the character that produced output character
    ``i``; ``mapping[len(out)]`` is ``len(text)`` so that ranges can be mapped with an
    exclusive end. Used to report a verified quote's exact character range in the original.
    """
    out_chars: list[str] = []
    mapping: list[int] = []
    pending_space = False
    for index, char in enumerate(text):
        folded = unicodedata.normalize("NFKC", char).translate(_HYPHENS)
        for piece in folded:
            if piece.isspace():
                pending_space = bool(out_chars)
                continue
            if pending_space:
                out_chars.append(" ")
                mapping.append(index)
                pending_space = False
            out_chars.append(piece)
            mapping.append(index)
    mapping.append(len(text))
    out = "".join(out_chars)
    return out, mapping
