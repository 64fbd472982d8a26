"""The words of the question marked inside a verified quote (pure).

The question's words, less the stopwords (:mod:`asat_corpus.text.stopwords`: the function words
and the words every tax agent's question carries, ``QUESTION_STOPWORDS``, and the function words
that can change what a provision says but not what it is about, ``MEANINGFUL_FUNCTION_WORDS``:
"may", "not", "under" would light up every subsection) and single characters, are found in the quote case-insensitively, each as a whole word (not inside a longer word), and
wrapped in ``<mark>``. Nothing else changes: the rest of the quote is escaped as it is, so
stripping the marks and unescaping gives back the quote character for character.
"""

from __future__ import annotations

import re
from functools import lru_cache

from markupsafe import Markup, escape

from asat_corpus.text.stopwords import MEANINGFUL_FUNCTION_WORDS, QUESTION_STOPWORDS

_WORD = re.compile(r"\w+")
STOPWORDS = QUESTION_STOPWORDS | MEANINGFUL_FUNCTION_WORDS
MARK = Markup("<mark>{}</mark>")


def question_words(question: str) -> frozenset[str]:
    """The words of ``question`` worth marking: lower-cased, stopwords and single characters out."""
    words = (w.lower() for w in _WORD.findall(question))
    return frozenset(w for w in words if len(w) > 1 and w not in STOPWORDS)


@lru_cache(maxsize=64)
def _pattern(words: frozenset[str]) -> re.Pattern[str]:
    # Longest first, so that of two words one of which begins the other the longer is tried first.
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def mark_words(text: str, words: frozenset[str]) -> Markup:
    """``text`` as escaped HTML with each whole-word occurrence of ``words`` (any case) in ``<mark>``."""
    if not words:
        return escape(text)
    parts: list[Markup] = []
    at = 0
    for found in _pattern(words).finditer(text):
        parts.append(escape(text[at : found.start()]))
        parts.append(MARK.format(found.group()))
        at = found.end()
    parts.append(escape(text[at:]))
    return Markup("").join(parts)
