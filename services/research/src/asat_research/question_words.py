"""The words of a question that carry its topic (pure), shared by the reranker and the generator.

A word is cased down and cut to its first six letters, so "deductible", "deduction" and
"deduct" match. Function words and the words every tax agent's question carries ("client",
"claim") are dropped: :data:`asat_corpus.text.stopwords.QUESTION_STOPWORDS`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from asat_corpus.text.stopwords import QUESTION_STOPWORDS

_WORD = re.compile(r"[a-z0-9$%]+(?:[-.,][a-z0-9]+)*")


@lru_cache(maxsize=4096)
def content_words(text: str) -> frozenset[str]:
    """The six-letter stems of the words of ``text`` that carry its topic. Kept for the texts last
    asked about: the same passages come back with question after question (pure; the set frozen)."""
    # A match never starts or ends with "." or "," (the pattern ends each piece with a letter or digit).
    return frozenset(w[:6] for w in set(_WORD.findall(text.casefold())) if w not in QUESTION_STOPWORDS and len(w) > 1)
