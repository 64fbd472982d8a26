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


def comparison_key(text: str) -> str:
    return _NOT_ALNUM.sub("", normalise(text).casefold())


def content_hash(text: str) -> str:
    """sha256 of the normalised text: identical for texts that verify identically."""
    return hashlib.sha256(normalise(text).encode("utf-8")).hexdigest()
