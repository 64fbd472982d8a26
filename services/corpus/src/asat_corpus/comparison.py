"""When two compilations hold "the same text" of a provision.

Conversions differ from the authorised text in layout, markup, lost hyphens in provision
numbers and punctuation spacing; none of that is a change in the law. The comparison key keeps
letters and digits only (after normalisation and case folding), so words, numbers and amounts
still have to agree exactly.
"""

from __future__ import annotations

import hashlib
import re

from asat_corpus.normalise import normalise

_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
_WORD = re.compile(r"[0-9a-z]+")


def comparison_key(text: str) -> str:
    return _NOT_ALNUM.sub("", normalise(text).casefold())


def content_hash(text: str) -> str:
    """sha256 of the normalised text: identical for texts that verify identically."""
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()


def words(text: str) -> list[str]:
    """Lower-cased runs of letters and digits (hyphens, apostrophes and markup fall away)."""
    return _WORD.findall(normalise(text).casefold().replace("-", ""))


def is_lossy_copy(lossy: str, full: str) -> bool:
    """Whether ``lossy`` is ``full`` with material left out and nothing changed or added.

    Third-party conversions drop tables and formulas; when the amendment history records no
    change between two compilations, a conversion whose words are an in-order subsequence of
    the authorised text's words holds the same law with parts missing.
    """
    remaining = iter(words(full))
    return all(any(word == other for other in remaining) for word in words(lossy))
