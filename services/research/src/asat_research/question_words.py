"""The words of a question that carry its topic (pure), shared by the reranker and the generator.

A word is cased down and cut to its first six letters, so "deductible", "deduction" and
"deduct" match. Function words and the words every tax agent's question carries ("client",
"claim") are dropped.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z0-9$%]+(?:[-.,][a-z0-9]+)*")
_QUIET = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "my",
        "of",
        "on",
        "or",
        "our",
        "she",
        "he",
        "her",
        "his",
        "their",
        "them",
        "they",
        "this",
        "that",
        "the",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "will",
        "with",
        "would",
        "you",
        "your",
        "client",
        "clients",
        "claim",
    ]
)


def content_words(text: str) -> set[str]:
    """The six-letter stems of the words of ``text`` that carry its topic."""
    words = {w.strip(".,") for w in _WORD.findall(text.casefold())}
    return {w[:6] for w in words if w not in _QUIET and len(w) > 1}
